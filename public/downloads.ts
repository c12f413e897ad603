/**
 * The downloads of a rendering, grouped by what takes them, each group with a line saying what
 * it is for: the Scala pair (scale and keyboard mapping, and the descending scale where it
 * differs), the tuning system's AnaMark file (named as the tuning system's, which it is), and the
 * API answer with the picture.
 */
import { staticFileOf } from "../src/api/staticPath.js";
import { el, nameOf } from "./dom.js";
import { fill, t } from "./i18n.js";
import { KINDS, type State } from "./state.js";
import type { Named, Pitch } from "./explore.js";
import type { PictureElement } from "./pictureView.js";

/** The same notes in the same order (a maqām whose descending sequence is its ascending one reversed). */
const sameSequence = (a: readonly Pitch[], b: readonly Pitch[]): boolean =>
  a.length === b.length && a.every((p, i) => p.noteNameDisplay === b[i].noteNameDisplay && p.octave === b[i].octave);

let pictureUrl: string | undefined;

/** The download links of a rendering, as [group, hint, [label, href, file name?][]]. */
export function downloadLinks(s: State, rows: [string, string, Pitch[]][], system: Named, startName: string): [string, string, [string, string][]][] {
  const idName = s.transposition || s.name;
  const collection = KINDS[s.kind];
  const context = { tuningSystem: s.tuningSystem, startingNote: s.startingNote };
  const base = `/api/exports/${collection}/${idName}/${s.tuningSystem}/${s.startingNote}`;
  const scala: [string, string][] = [
    [t.scl, `${base}.scl`],
    [t.kbm, `${base}.kbm`],
  ];
  if (rows.length === 2 && !sameSequence(rows[0][2], [...rows[1][2]].reverse())) scala.push([t.sclDescending, `${base}-descending.scl`]);
  return [
    [t.groupScala, t.hintScala, scala],
    [
      t.groupAnamark,
      t.hintAnamark,
      [[fill(t.tun, { system: nameOf(system).replace(/\s+/g, " "), start: startName }), `/api/exports/tuning-systems/${s.tuningSystem}/${s.startingNote}.tun`]],
    ],
    [
      t.groupData,
      t.hintData,
      [
        [t.json, `/api/${collection}/${idName}?${new URLSearchParams({ pitchClassDataType: "all", ...context })}`],
        [t.tuningJson, `/api/tuning-systems/${s.tuningSystem}/${s.startingNote}/pitch-classes?pitchClassDataType=all`],
      ],
    ],
  ];
}

export function downloads(s: State, rows: [string, string, Pitch[]][], system: Named, startName: string, picture: PictureElement): HTMLElement {
  const groups = downloadLinks(s, rows, system, startName);
  const list = el(
    "div",
    "",
    { id: "explorer-links", class: "downloads" },
    el("h4", t.downloads),
    el("p", "", { class: "hint guide-link" }, el("a", t.guide, { href: "/exports-guide.html" })),
  );
  for (const [name, hint, links] of groups) {
    const items = links.map(([label, href]) => el("li", "", {}, el("a", label, { href })));
    if (name === t.groupData && picture.svg !== undefined) {
      // The picture as drawn here (any rendering, with or without a pre-rendered file).
      if (pictureUrl) URL.revokeObjectURL(pictureUrl);
      pictureUrl = URL.createObjectURL(new Blob([picture.svg], { type: "image/svg+xml" }));
      const file = staticFileOf(
        `/${KINDS[s.kind]}/${s.transposition || s.name}`,
        new URLSearchParams([
          ["startingNote", s.startingNote],
          ["tuningSystem", s.tuningSystem],
        ]),
      );
      items.push(
        el("li", "", {}, el("a", t.svg, { href: pictureUrl, download: (file ?? "picture.json").replace(/\.json$/, ".svg").replace(/[/@=&]+/g, "_") })),
      );
    }
    list.append(el("section", "", { class: "group" }, el("h5", name), el("p", hint, { class: "hint" }), el("ul", "", {}, ...items)));
  }
  return list;
}
