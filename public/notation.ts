/**
 * The scale on a staff (VexFlow, in a chunk of its own that the page loads only when the staff
 * is asked for): the ascending and descending rows, each note spelled from the archive's English
 * name (`E-b3`) with its accidental in the signs Arabic music uses (half-flat, half-sharp, …).
 */
// The default export keeps the entry's own code, which registers the bundled Bravura font.
import VexFlow from "vexflow/bravura";

const { Accidental, Formatter, Renderer, Stave, StaveNote, Voice } = VexFlow;
import type { Pitch } from "./explore.js";

/**
 * The archive's accidental suffixes (algorithms §3.6) as VexFlow accidentals: `-b` and `--` are a
 * natural lowered about a quarter tone (the Arabic half-flat), `-` a comma below, `b--` a flat
 * lowered a quarter tone (sesqui-flat), `b+`/`b++` a flat raised (toward the half-flat),
 * `#-`/`-#` the half-sharp.
 */
export const ACCIDENTALS: Record<string, string | undefined> = {
  "": undefined,
  "#": "#",
  b: "b",
  "-b": "d",
  "--": "d",
  "-": "bs",
  "b--": "db",
  "b+": "bs",
  "b++": "d",
  "#-": "+",
  "-#": "+",
};

/** "E-b3" → VexFlow key "e/3" and accidental "d"; undefined for a note the archive does not spell ("--"). */
export function spelled(englishName: string | undefined): { key: string; accidental?: string } | undefined {
  const m = /^([A-G])([-#b+]*)(-?\d+)$/.exec(englishName ?? "");
  if (!m || !(m[2] in ACCIDENTALS)) return undefined;
  return { key: `${m[1].toLowerCase()}/${m[3]}`, accidental: ACCIDENTALS[m[2]] };
}

export async function drawStaff(host: HTMLElement, rows: { key: string; label: string; pitches: Pitch[] }[]): Promise<void> {
  // The music font comes with the chunk (no network) but is usable only once loaded.
  await document.fonts.load("30px Bravura");
  host.replaceChildren();
  const width = Math.max(300, Math.min(host.clientWidth || 700, 900));
  const midi = rows.flatMap((r) => r.pitches.map((p) => Number(p.midiNoteDecimal))).filter(Number.isFinite);
  const clef = midi.length && midi.reduce((a, b) => a + b, 0) / midi.length < 57 ? "bass" : "treble";
  const renderer = new Renderer(host as HTMLDivElement, Renderer.Backends.SVG);
  renderer.resize(width, 130 * rows.length + 10);
  const context = renderer.getContext();
  rows.forEach((row, i) => {
    const stave = new Stave(10, 10 + i * 130, width - 20);
    stave.addClef(clef);
    stave.setContext(context).draw();
    const notes = row.pitches.flatMap((p) => {
      const s = spelled(p.englishName);
      if (!s) return [];
      const note = new StaveNote({ keys: [s.key], duration: "q", clef });
      if (s.accidental) note.addModifier(new Accidental(s.accidental), 0);
      note.setAttribute("data-note", p.noteName);
      return [note];
    });
    if (notes.length === 0) return;
    const voice = new Voice({ numBeats: notes.length, beatValue: 4 }).addTickables(notes);
    new Formatter().joinVoices([voice]).format([voice], width - 80);
    voice.draw(context, stave);
  });
  const svg = host.querySelector("svg");
  svg?.setAttribute("role", "img");
  svg?.setAttribute("aria-label", rows.map((r) => `${r.label}: ${r.pitches.map((p) => p.englishName).join(" ")}`).join("; "));
  host.prepend(Object.assign(document.createElement("p"), { className: "note", textContent: rows.map((r) => r.label).join(" · ") }));
  svg?.setAttribute("data-notes", String(rows.reduce((n, r) => n + r.pitches.filter((p) => spelled(p.englishName)).length, 0)));
}
