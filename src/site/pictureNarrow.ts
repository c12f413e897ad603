/**
 * The picture laid out for a narrow screen: the cents line upright (high notes at the top), one
 * column per row, names and cents beside each note at full size (text ≥ 11 px at 1:1), the ajnās
 * as brackets left of the line and the title on lines of its own. The height grows with the
 * closest pair of notes so that no two labels overlap.
 */
import { escapeXml, lanesOf, r1, scoped, STYLE, type Picture } from "./picture.js";

const GUTTER = 34;
const LANE = 14;
const LINE_GAP = 15;
const MIN_LABEL_GAP = 15;
const NARROW_RULES = scoped(".n{text-anchor:start;font-size:12px}.bl{font-size:11px}.c,.gl{font-size:11px}.gl{text-anchor:end}.ax{text-anchor:start}");

/** The title wrapped at spaces into lines of at most `chars` characters (a longer word has a line of its own). */
function titleLines(title: string, chars: number): string[] {
  const lines: string[] = [];
  for (const word of title.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + word.length + 1 <= chars) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The picture as an SVG `width` pixels wide (deterministic). */
export function narrowSvgOf(p: Picture, width = 360): string {
  const title = titleLines(p.title, Math.floor(width / 8));
  const top = 16 + title.length * LINE_GAP + 26;
  const gaps = p.rows.flatMap((r) => r.marks.slice(1).map((m, i) => m.cents - r.marks[i].cents)).filter((g) => g > 0);
  const closest = gaps.length ? Math.min(...gaps) : 100;
  const height = Math.min(1800, Math.max(360, (p.span * MIN_LABEL_GAP) / closest));
  const y = (cents: number) => r1(top + height - (cents / p.span) * height);
  const parts: string[] = [];
  title.forEach((line, i) => {
    parts.push(`<text class="t" x="4" y="${16 + i * LINE_GAP}">${escapeXml(line)}</text>`);
  });
  parts.push(`<text class="ax" x="4" y="${16 + title.length * LINE_GAP}">${escapeXml(p.axis)}</text>`);
  for (let c = 0; c <= p.span; c += 100) {
    parts.push(`<path class="g" d="M${GUTTER} ${y(c)}H${width - 4}"/>`);
    if (c % 200 === 0) parts.push(`<text class="gl" x="${GUTTER - 3}" y="${y(c) + 4}">${c}</text>`);
  }
  const column = (width - GUTTER) / p.rows.length;
  p.rows.forEach((row, k) => {
    const lanes = lanesOf(row.brackets);
    const laneCount = lanes.length ? Math.max(...lanes) + 1 : 0;
    const left = GUTTER + k * column;
    const lineX = r1(left + 6 + laneCount * LANE);
    parts.push(`<text class="rl" x="${r1(left + 4)}" y="${top - 10}">${escapeXml(row.label)}</text>`);
    row.brackets.forEach((b, i) => {
      const bx = r1(left + 6 + (laneCount - 1 - lanes[i]) * LANE + 8);
      const y1 = y(row.marks[b.from].cents);
      const y2 = y(row.marks[b.to].cents);
      const mid = r1((y1 + y2) / 2);
      parts.push(
        `<path class="b" d="M${bx + 5} ${y1}H${bx}V${y2}H${bx + 5}"/><text class="bl" transform="translate(${bx - 2} ${mid}) rotate(-90)" x="0" y="0">${escapeXml(b.label)}</text>`,
      );
    });
    parts.push(`<path class="l" d="M${lineX} ${top}V${top + height}"/><g data-row="${row.key}">`);
    for (const m of row.marks) {
      const at = y(m.cents);
      parts.push(
        `<circle class="pc" data-cents="${m.cents}" cx="${lineX}" cy="${at}" r="4.5"/><text class="n" x="${r1(lineX + 8)}" y="${at + 4}">${escapeXml(m.name)} <tspan class="c">${Math.round(m.cents)}</tspan></text>`,
      );
    }
    parts.push("</g>");
  });
  const total = Math.ceil(top + height + 12);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="mp" viewBox="0 0 ${width} ${total}" width="${width}" height="${total}" role="img">` +
    `<title>${escapeXml(p.title)}</title><style>${STYLE}${NARROW_RULES}</style><rect width="100%" height="100%" fill="#fff"/>${parts.join("")}</svg>\n`
  );
}
