/**
 * The note-name universe: five ordered octave lists (0-4). A name's octave is part of the name;
 * its index within the octave list is its modal-degree slot.
 */
import { archive } from "../data/load.js";
import type { ShawwaClass } from "../data/schemas.js";
import { std } from "./std.js";

export const NONE = "none";

export interface Cell {
  octave: number;
  index: number;
}

const universe = archive().noteNames;
export const octaveLists: readonly (readonly string[])[] = universe.octaves;
const stems = universe.stems;

const cellByName = new Map<string, Cell>();
octaveLists.forEach((names, octave) =>
  names.forEach((name, index) => {
    if (!cellByName.has(name)) cellByName.set(name, { octave, index });
  }),
);

/** Octave and within-octave index of a display name (first hit from octave 0 up), or (-1, -1). */
export function cellOf(name: string): Cell {
  return cellByName.get(name) ?? { octave: -1, index: -1 };
}

/** The name at the same slot `k` octaves away, `"none"` when that octave does not exist. */
export function shiftName(name: string, k: number): string {
  const { octave, index } = cellOf(name);
  const list = octaveLists[octave + k];
  if (octave < 0 || !list) return NONE;
  return list[index] ?? NONE;
}

/** Two names sit in the same modal-degree slot (octave variants of each other). */
export function sameSlot(a: string, b: string): boolean {
  const ia = cellOf(a).index;
  return ia >= 0 && ia === cellOf(b).index;
}

const englishByName = new Map<string, string>();
// Later octaves win: `jawāb saham/ramal tūtī` (octave 3 slot 36 and octave 4 slot 0) is G5.
octaveLists.forEach((names, octave) =>
  names.forEach((name, index) => englishByName.set(name, stems[index] + String(index <= 14 ? octave + 1 : octave + 2))),
);

/** English name (e.g. `C3`, `E-b3`) of a note name; `--` for `none` and unknown names. */
export function englishNameOf(name: string): string {
  return englishByName.get(name) ?? "--";
}

const SOLFEGE: Record<string, string> = { A: "La", B: "Si", C: "Do", D: "Re", E: "Mi", F: "Fa", G: "Sol" };

/** Solfège spelling of an English name (`E-b3` → `Mi-b3`); `--` stays `--`. */
export function solfegeOf(englishName: string): string {
  const syllable = SOLFEGE[englishName[0]];
  return syllable ? syllable + englishName.slice(1) : englishName;
}

/** al-Shawwā class of a note name by its slot: natural, one-part, two-part, or outside (`/`). */
export function shawwaClassOf(name: string): ShawwaClass {
  const { octave, index } = cellOf(name);
  if (octave < 0) return "/";
  return universe.shawwaClasses[index];
}

/** Deduplicated note names of all octaves with their first octave and index, in octave-list order. */
export interface NoteNameEntry {
  name: string;
  idName: string;
  octave: number;
  index: number;
  englishName: string;
}

export const allNoteNames: readonly NoteNameEntry[] = [...cellByName.entries()].map(([name, cell]) => ({
  name,
  idName: std(name),
  ...cell,
  englishName: englishNameOf(name),
}));

const byIdName = new Map<string, NoteNameEntry>();
for (const entry of allNoteNames) if (!byIdName.has(entry.idName)) byIdName.set(entry.idName, entry);

/** Diacritics-insensitive lookup of a note name (display or idName form); undefined when unknown. */
export function findNoteName(param: string): NoteNameEntry | undefined {
  return byIdName.get(std(param));
}

/** Position of an idName in the concatenated std'd octave lists (tonic sort priority). */
const priorityByIdName = new Map<string, number>();
octaveLists.flat().forEach((name, position) => {
  const id = std(name);
  if (!priorityByIdName.has(id)) priorityByIdName.set(id, position);
});

export function tonicPriority(idName: string): number {
  return priorityByIdName.get(idName) ?? Number.MAX_SAFE_INTEGER;
}
