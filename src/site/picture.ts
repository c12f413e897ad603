/**
 * The picture of a maqām or jins realisation: its pitch classes on a cents line from the tonic
 * (past 1200 where the sequence does not close at the octave), the ascending row above the
 * descending one, each jins as a bracket over the notes it spans, and the twelve-tone equal grid
 * faint behind. Drawn from the API's own answer (pitchClassDataType=cents or all), so the
 * explorer and the build's static files (build/pictures/…) draw the same thing.
 */

/** What the picture reads of a maqām or jins answer. */
export interface PitchRow {
  noteName: string;
  noteNameDisplay: string;
  noteNameDisplayAr?: string;
  cents?: number;
}
interface Named {
  displayName: string;
  displayNameAr?: string;
}
interface JinsRef extends Named {
  id: string;
}
export interface RealisationAnswer {
  maqam?: Named;
  jins?: Named;
  tonic?: Named;
  context: { tuningSystem: Named & { selectedStartingNote?: Named; startingNoteName?: string; startingNoteNameAr?: string } };
  pitchData: PitchRow[] | { ascending: PitchRow[]; descending: PitchRow[] };
  /** Maqāmāt: the ajnās found on each degree, keyed by note display name. */
  ajnas?: { ascending: Record<string, JinsRef[]>; descending: Record<string, JinsRef[]> };
}

export interface Mark {
  /** Cents above the tonic of the ascending row. */
  cents: number;
  name: string;
}
export interface Bracket {
  /** Indices into the row's marks sorted by pitch (low to high), inclusive. */
  from: number;
  to: number;
  label: string;
}
export interface Row {
  /** ascending, descending or notes (the SVG's data-row). */
  key: string;
  label: string;
  marks: Mark[];
  brackets: Bracket[];
}
export interface Picture {
  title: string;
  /** What the numbers on the line are. */
  axis: string;
  rows: Row[];
  /** Right end of the cents line: 1200, or beyond when the rows reach past the octave. */
  span: number;
}

const OCTAVE = 1200;

const centsOf = (p: PitchRow): number => {
  if (typeof p.cents !== "number") throw new Error(`no cents for ${p.noteName}: ask with pitchClassDataType=cents or all`);
  return p.cents;
};

/** A row's marks (sorted low to high) with a bracket for every jins rooted on one of its notes, clipped at the row's end. */
function rowOf(
  key: string,
  label: string,
  pitches: PitchRow[],
  tonic: number,
  ajnas: Record<string, JinsRef[]> | undefined,
  sizes: ReadonlyMap<string, number>,
  arabic: boolean,
): Row {
  const sorted = [...pitches].sort((a, b) => centsOf(a) - centsOf(b));
  const marks = sorted.map((p) => ({ cents: centsOf(p) - tonic, name: (arabic && p.noteNameDisplayAr) || p.noteNameDisplay }));
  const brackets: Bracket[] = [];
  for (const [note, found] of Object.entries(ajnas ?? {})) {
    const from = sorted.findIndex((p) => p.noteNameDisplay === note);
    if (from < 0) continue;
    for (const j of found) {
      const size = sizes.get(j.id);
      if (size === undefined) continue;
      brackets.push({
        from,
        to: Math.min(from + size - 1, marks.length - 1),
        label: arabic && j.displayNameAr ? j.displayNameAr.replace(/^جنس /, "") : j.displayName.replace(/^jins /, ""),
      });
    }
  }
  return { key, label, marks, brackets };
}

/** The words of a picture: its title, the rows' and the axis's labels, and whether names are the archive's Arabic ones. */
export interface PictureWords {
  title?: string;
  axis?: string;
  rows?: Record<"ascending" | "descending" | "notes", string>;
  arabic?: boolean;
}

const ENGLISH_ROWS = { ascending: "ascending", descending: "descending", notes: "notes" };

/** "maqām rāst on rāst · Ibn Sīnā … · tuning starting on yegāh": the tonic and the tuning's starting note named as what they are. */
export function titleOf(answer: RealisationAnswer): string {
  const ts = answer.context.tuningSystem;
  const from = ts.selectedStartingNote?.displayName ?? ts.startingNoteName ?? "";
  const name = answer.maqam?.displayName ?? answer.jins?.displayName ?? "";
  const tonic = answer.tonic ? ` on ${answer.tonic.displayName}` : "";
  return `${name}${tonic} · ${ts.displayName.replace(/\s+/g, " ")}${from ? ` · tuning starting on ${from}` : ""}`;
}

/** The picture of an answer; `jinsSizes` gives each jins's number of notes by id (for the brackets). */
export function pictureOf(answer: RealisationAnswer, jinsSizes: ReadonlyMap<string, number> = new Map(), words: PictureWords = {}): Picture {
  const data = answer.pitchData;
  const names = words.rows ?? ENGLISH_ROWS;
  const rows: ["ascending" | "descending" | "notes", PitchRow[], Record<string, JinsRef[]> | undefined][] = Array.isArray(data)
    ? [["notes", data, undefined]]
    : [
        ["ascending", data.ascending, answer.ajnas?.ascending],
        ["descending", data.descending, answer.ajnas?.descending],
      ];
  const tonic = Math.min(...rows[0][1].map(centsOf));
  const drawn = rows.map(([key, pitches, ajnas]) => rowOf(key, names[key], pitches, tonic, ajnas, jinsSizes, words.arabic ?? false));
  const top = Math.max(0, ...drawn.flatMap((r) => r.marks.map((m) => m.cents)));
  return {
    title: words.title ?? titleOf(answer),
    axis: words.axis ?? "cents above the tonic",
    rows: drawn,
    span: top <= OCTAVE ? OCTAVE : Math.ceil(top / 100) * 100,
  };
}

/** Lanes for overlapping brackets: each bracket takes the first lane free over its span. */
export function lanesOf(brackets: Bracket[]): number[] {
  const ends: number[] = [];
  return brackets.map((b) => {
    let lane = ends.findIndex((end) => end < b.from);
    if (lane < 0) lane = ends.push(-1) - 1;
    ends[lane] = b.to;
    return lane;
  });
}

export const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
export const r1 = (n: number) => Math.round(n * 10) / 10;

const WIDTH = 960;
const LEFT = 96;
const RIGHT = 24;
const LANE = 15;
const ROW = 56;
/** Arabic names take the build's Arabic font when the page has loaded it; Latin text keeps the system font. */
export const FONT = '"Noto Naskh Arabic",system-ui,sans-serif';
const RULES =
  `text{font:11px ${FONT};fill:#222;text-anchor:middle}.t,.rl{text-anchor:start}.t{font-size:13px;font-weight:600}.g{stroke:#999;stroke-opacity:.25}.gl{fill:#767676;font-size:9px}` +
  `.l{stroke:#444}.pc{fill:#0b6e4f}.b{fill:none;stroke:#b5651d}.bl{fill:#b5651d;font-size:10px}.c{fill:#595959;font-size:9px}.rl{font-style:italic}.ax{text-anchor:end;fill:#555}`;
/**
 * The rules scoped to the picture's root (class `mp`): a picture drawn inline in a page shares
 * the page's style sheet, and must style nothing else there.
 */
export const scoped = (rules: string) =>
  rules.replace(
    /(^|\})([^{}]+)\{/g,
    (_, end: string, selectors: string) =>
      `${end}${selectors
        .split(",")
        .map((x) => `.mp ${x}`)
        .join(",")}{`,
  );
export const STYLE = scoped(RULES);

/** The picture as a standalone SVG document (deterministic: the same answer gives the same bytes). */
export function svgOf(p: Picture): string {
  const x = (cents: number) => r1(LEFT + (cents / p.span) * (WIDTH - LEFT - RIGHT));
  const parts: string[] = [];
  let y = 44;
  const rowParts: string[] = [];
  for (const row of p.rows) {
    const lanes = lanesOf(row.brackets);
    const laneCount = lanes.length ? Math.max(...lanes) + 1 : 0;
    const lineY = y + laneCount * LANE + 22;
    row.brackets.forEach((b, i) => {
      const by = y + (laneCount - 1 - lanes[i]) * LANE + 12;
      const x1 = x(row.marks[b.from].cents);
      const x2 = x(row.marks[b.to].cents);
      rowParts.push(
        `<path class="b" d="M${x1} ${by + 5}V${by}H${x2}V${by + 5}"/><text class="bl" x="${r1((x1 + x2) / 2)}" y="${by - 2}">${escapeXml(b.label)}</text>`,
      );
    });
    rowParts.push(
      `<text class="rl" x="4" y="${lineY + 4}">${escapeXml(row.label)}</text><path class="l" d="M${LEFT} ${lineY}H${WIDTH - RIGHT}"/><g data-row="${row.key}">`,
    );
    row.marks.forEach((m, i) => {
      // Neighbours closer than the labels are wide alternate above and below the line.
      const below = i % 2 === 1 && i > 0 && x(m.cents) - x(row.marks[i - 1].cents) < 40;
      const at = x(m.cents);
      rowParts.push(
        `<circle class="pc" data-cents="${m.cents}" cx="${at}" cy="${lineY}" r="4.5"/>` +
          `<text x="${at}" y="${below ? lineY + 26 : lineY - 8}">${escapeXml(m.name)}</text><text class="c" x="${at}" y="${below ? lineY + 36 : lineY + 16}">${Math.round(m.cents)}</text>`,
      );
    });
    rowParts.push("</g>");
    y = lineY + ROW - 18;
  }
  const height = y + 8;
  for (let c = 0; c <= p.span; c += 100) {
    parts.push(`<path class="g" d="M${x(c)} 32V${height - 6}"/>`);
    if (c % 200 === 0 || p.span <= OCTAVE) parts.push(`<text class="gl" x="${x(c)}" y="30">${c}</text>`);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="mp" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img">` +
    `<title>${escapeXml(p.title)}</title><style>${STYLE}</style><rect width="100%" height="100%" fill="#fff"/>` +
    `<text class="t" x="4" y="16">${escapeXml(p.title)}</text><text class="ax" x="${WIDTH - RIGHT}" y="16">${escapeXml(p.axis)}</text>${parts.join("")}${rowParts.join("")}</svg>\n`
  );
}
