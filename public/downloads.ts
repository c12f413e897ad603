/**
 * The downloads of a rendering, grouped by what takes them, each group with a line saying what
 * it is for: the Scala files (scale, linear and note-name keyboard mappings, the descending scale
 * where it differs), the AnaMark files (this rendering's, and the tuning system's), the Ableton
 * Live tuning, the MIDI Tuning Standard dump (sent to a synthesizer where Web MIDI is granted),
 * and the API answer with the picture.
 */
import { staticFileOf } from "../src/api/staticPath.js";
import { el, nameOf } from "./dom.js";
import { fill, t } from "./i18n.js";
import { midiSender } from "./midi.js";
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
  const descends = rows.length === 2 && !sameSequence(rows[0][2], [...rows[1][2]].reverse());
  const scala: [string, string][] = [
    [t.scl, `${base}.scl`],
    [t.kbm, `${base}.kbm`],
    [t.kbmNames, `${base}-names.kbm`],
  ];
  const ableton: [string, string][] = [[t.ascl, `${base}.ascl`]];
  const mts: [string, string][] = [[t.syx, `${base}.syx`]];
  if (descends) {
    scala.push([t.sclDescending, `${base}-descending.scl`]);
    ableton.push([t.asclDescending, `${base}-descending.ascl`]);
    mts.push([t.syxDescending, `${base}-descending.syx`]);
  }
  return [
    [t.groupScala, t.hintScala, scala],
    [
      t.groupAnamark,
      t.hintAnamark,
      [
        [t.tunRendering, `${base}.tun`],
        [fill(t.tun, { system: nameOf(system).replace(/\s+/g, " "), start: startName }), `/api/exports/tuning-systems/${s.tuningSystem}/${s.startingNote}.tun`],
      ],
    ],
    [t.groupAbleton, t.hintAbleton, ableton],
    [t.groupMidi, t.hintMidi, mts],
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
    const section = el("section", "", { class: "group" }, el("h5", name), el("p", hint, { class: "hint" }), el("ul", "", {}, ...items));
    // Where the browser has Web MIDI, the ascending dump can go straight to a synthesizer.
    const sender = name === t.groupMidi ? midiSender(links[0][1]) : undefined;
    if (sender) section.append(sender);
    list.append(section);
  }
  return list;
}
