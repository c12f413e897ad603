/**
 * The note-name universe: five ordered octave lists (0-4). A name's octave is part of the name;
 * its index within the octave list is its modal-degree slot. `noteNameIndex` indexes the
 * universe once (the catalog keeps it); lookups of unknown names answer "none", `--` or undefined.
 */
import type { NoteNameUniverse, ShawwaClass } from "../data/schemas.js";
import { toIdName } from "./idName.js";

export const NONE = "none";

export interface Cell {
  octave: number;
  index: number;
}

/** Deduplicated note names of all octaves with their first octave and index, in octave-list order. */
export interface NoteNameEntry {
  name: string;
  idName: string;
  octave: number;
  index: number;
  englishName: string;
}

export interface NoteNameIndex {
  octaveLists: readonly (readonly string[])[];
  /** Octave and within-octave index of a display name (first hit from octave 0 up), or (-1, -1). */
  cellOf(name: string): Cell;
  /** The name at the same slot `k` octaves away, `"none"` when that octave does not exist. */
  shiftName(name: string, k: number): string;
  /** Two names sit in the same modal-degree slot (octave variants of each other). */
  sameSlot(a: string, b: string): boolean;
  /** English name (e.g. `C3`, `E-b3`) of a note name; `--` for `none` and unknown names. */
  englishNameOf(name: string): string;
  /** al-Shawwā class of a note name by its slot: natural, one-part, two-part, or outside (`/`). */
  shawwaClassOf(name: string): ShawwaClass;
  /** Position of a name among the octave-1 and octave-2 names inside al-Shawwā's framework; -1 outside. */
  shawwaPosition(name: string | undefined): number;
  allNoteNames: readonly NoteNameEntry[];
  /** Diacritics-insensitive lookup of a note name (display or idName form); undefined when unknown. */
  findNoteName(param: string): NoteNameEntry | undefined;
  /** Position of an idName in the concatenated idName'd octave lists (tonic sort priority). */
  tonicPriority(idName: string): number;
}

const SOLFEGE: Record<string, string> = { A: "La", B: "Si", C: "Do", D: "Re", E: "Mi", F: "Fa", G: "Sol" };

/** Solfège spelling of an English name (`E-b3` → `Mi-b3`); `--` stays `--`. */
export function solfegeOf(englishName: string): string {
  const syllable = SOLFEGE[englishName[0]];
  return syllable ? syllable + englishName.slice(1) : englishName;
}

export function noteNameIndex(universe: NoteNameUniverse): NoteNameIndex {
  const octaveLists = universe.octaves;
  const cellByName = new Map<string, Cell>();
  octaveLists.forEach((names, octave) => {
    names.forEach((name, index) => {
      if (!cellByName.has(name)) cellByName.set(name, { octave, index });
    });
  });
  const cellOf = (name: string): Cell => cellByName.get(name) ?? { octave: -1, index: -1 };

  const englishByName = new Map<string, string>();
  // Later octaves win: `jawāb saham/ramal tūtī` (octave 3 slot 36 and octave 4 slot 0) is G5.
  octaveLists.forEach((names, octave) => {
    names.forEach((name, index) => {
      englishByName.set(name, universe.stems[index] + String(index <= 14 ? octave + 1 : octave + 2));
    });
  });
  const englishNameOf = (name: string): string => englishByName.get(name) ?? "--";

  const allNoteNames: NoteNameEntry[] = [...cellByName.entries()].map(([name, cell]) => ({
    name,
    idName: toIdName(name),
    ...cell,
    englishName: englishNameOf(name),
  }));
  const byIdName = new Map<string, NoteNameEntry>();
  for (const entry of allNoteNames) if (!byIdName.has(entry.idName)) byIdName.set(entry.idName, entry);

  const priorityByIdName = new Map<string, number>();
  octaveLists.flat().forEach((name, position) => {
    const id = toIdName(name);
    if (!priorityByIdName.has(id)) priorityByIdName.set(id, position);
  });

  const shawwaClassOf = (name: string): ShawwaClass => {
    const { octave, index } = cellOf(name);
    return octave < 0 ? "/" : universe.shawwaClasses[index];
  };
  // Octave-1 then octave-2 names inside al-Shawwā's framework; octaves 0 and 3 have no position.
  const shawwaPositions = new Map<string, number>();
  [...octaveLists[1], ...octaveLists[2]]
    .filter((name) => shawwaClassOf(name) !== "/")
    .forEach((name, position) => {
      if (!shawwaPositions.has(name)) shawwaPositions.set(name, position);
    });

  return {
    octaveLists,
    cellOf,
    shiftName(name, k) {
      const { octave, index } = cellOf(name);
      const list = octaveLists[octave + k];
      if (octave < 0 || !list) return NONE;
      return list[index] ?? NONE;
    },
    sameSlot(a, b) {
      const ia = cellOf(a).index;
      return ia >= 0 && ia === cellOf(b).index;
    },
    englishNameOf,
    shawwaClassOf,
    shawwaPosition: (name) => (name === undefined ? -1 : (shawwaPositions.get(name) ?? -1)),
    allNoteNames,
    findNoteName: (param) => byIdName.get(toIdName(param)),
    tonicPriority: (idName) => priorityByIdName.get(idName) ?? Number.MAX_SAFE_INTEGER,
  };
}
