/**
 * Ajnās inside a maqām transposition (docs/algorithms.md §6.1-6.4): for every scale degree, the first
 * jins (archive file order) whose interval pattern starts there, read upwards. The scale is
 * continued an octave higher so that ajnās on the upper degrees can run past its last note.
 */
import type { PitchClass } from "./pitchClass.js";
import { attachedCache, boundedMemo, type Memo } from "./memo.js";
import { DEGREE_AJNAS_PER_TRANSPOSITION } from "./caches.js";
import { pitchClassesOf } from "./pitchClass.js";
import type { NoteNameIndex } from "./noteName.js";
import type { Catalog } from "./catalog.js";
import { type TuningSystem, pitchClassesPerOctave } from "./tuningSystem.js";
import { type Jins, transpositionDisplayName, transpositionIdName } from "./entity.js";
import { intervalPattern, type Transposition } from "./transposition.js";

/** A jins found on one degree of a maqām. */
export interface JinsInstance {
  jins: Jins;
  /** `<jins name> al-<tonic>`, or the bare jins name on the jins's own modal slot. */
  name: string;
  /** Spec form: the jins idName, or `<jins idName>_al_<tonic idName>`. */
  idName: string;
  isTransposed: boolean;
  /** The jins's notes on this degree, lowest first. */
  cells: PitchClass[];
}

/** One entry per scale degree: the jins starting on it, or null. */
export interface DegreeAjnas {
  /** Degree order, lowest first. */
  ascending: (JinsInstance | null)[];
  /** Top-down, in the order of the transposition's descending cells. */
  descending: (JinsInstance | null)[];
}

/** A jins that can be built in the pitch classes, with its interval pattern there. */
export interface CandidateJins {
  jins: Jins;
  pattern: number[];
}

/** §6.1: the ajnās whose every note is among the pitch classes (from pitchClassesOf), in file order, with their patterns. */
export function candidateAjnas(cat: Catalog, pcs: readonly PitchClass[]): CandidateJins[] {
  return candidateCache(pcs, () => {
    const candidates: CandidateJins[] = [];
    for (const jins of cat.ajnas) {
      const names = new Set(jins.notes);
      const cells = pcs.filter((pc) => names.has(pc.noteName));
      if (cells.length === jins.notes.length) candidates.push({ jins, pattern: intervalPattern(cells) });
    }
    return candidates;
  });
}
/** Ajnās buildable in the pitch classes of a `pitchClasses` entry. */
const candidateCache = attachedCache<readonly PitchClass[], CandidateJins[]>();

/** A scale continued upwards; `undefined` stands for a note beyond the pitch classes (it matches nothing). */
export type ExtendedScale = (PitchClass | undefined)[];

/**
 * §6.2 slice rule: the position after the last note lying more than an octave below the top
 * note (−1 when none does). Notes up to it are not repeated an octave higher.
 */
export function octaveSlice(ascending: readonly PitchClass[]): number {
  const top = ascending[ascending.length - 1];
  let slice = -1;
  ascending.forEach((pc, i) => {
    if (pc.frequency * 2 < top.frequency) slice = i + 1;
  });
  return slice;
}

/** The same pitch-class index one octave higher in the tuning system, if it exists. */
function octaveAbove(pc: PitchClass, pcs: readonly PitchClass[], perOctave: number): PitchClass | undefined {
  return pcs[(pc.octave + 1) * perOctave + pc.index];
}

/** §6.2: the scale followed by its notes after `slice` one octave up. */
function extendedScale(cells: readonly PitchClass[], slice: number, pcs: readonly PitchClass[], perOctave: number): ExtendedScale {
  return [...cells, ...cells.slice(slice + 1).map((pc) => octaveAbove(pc, pcs, perOctave))];
}

/** Consecutive intervals of an extended scale; NaN next to a missing note. */
function extendedIntervals(scale: ExtendedScale): number[] {
  const intervals: number[] = [];
  for (let i = 1; i < scale.length; i++) {
    const a = scale[i - 1];
    const b = scale[i];
    intervals.push(a && b ? b.cents - a.cents : NaN);
  }
  return intervals;
}

/** A pattern matches the intervals from position i when it fits entirely and every step is within tolerance. */
function matchesAt(intervals: readonly number[], i: number, pattern: readonly number[], tolerance: number): boolean {
  if (i + pattern.length > intervals.length) return false;
  return pattern.every((cents, k) => Math.abs(intervals[i + k] - cents) <= tolerance);
}

/** The jins named after the note it starts on (bare on the jins's own modal slot). */
function jinsInstance(notes: NoteNameIndex, jins: Jins, cells: PitchClass[]): JinsInstance {
  const tonic = cells[0].noteName;
  const isTransposed = !notes.sameSlot(tonic, jins.notes[0]);
  return {
    jins,
    name: isTransposed ? transpositionDisplayName(jins, tonic) : jins.name,
    idName: isTransposed ? transpositionIdName(jins, tonic) : jins.idName,
    isTransposed,
    cells,
  };
}

/** The first candidate whose pattern starts at position i of the intervals, named on its tonic. */
function jinsAt(
  notes: NoteNameIndex,
  scale: ExtendedScale,
  intervals: readonly number[],
  i: number,
  candidates: readonly CandidateJins[],
  tolerance: number,
): JinsInstance | null {
  const found = candidates.find(({ pattern }) => matchesAt(intervals, i, pattern, tolerance));
  // A match never involves a missing note (its intervals are NaN), so the cells all exist.
  return found ? jinsInstance(notes, found.jins, scale.slice(i, i + found.pattern.length + 1) as PitchClass[]) : null;
}

/** §6.3: the first candidate (in the given order) whose pattern starts at degree i of the extended scale, or null. */
export function jinsOnDegree(
  notes: NoteNameIndex,
  scale: ExtendedScale,
  i: number,
  candidates: readonly CandidateJins[],
  tolerance: number,
): JinsInstance | null {
  return jinsAt(notes, scale, extendedIntervals(scale), i, candidates, tolerance);
}

/** One jins (or null) per degree of a scale given lowest first. */
function ajnasPerDegree(
  notes: NoteNameIndex,
  scale: ExtendedScale,
  degrees: number,
  candidates: readonly CandidateJins[],
  tolerance: number,
): (JinsInstance | null)[] {
  const intervals = extendedIntervals(scale);
  return Array.from({ length: degrees }, (_, i) => jinsAt(notes, scale, intervals, i, candidates, tolerance));
}

/** Both directions continued an octave up with the slice of the ascending scale (§6.2). */
export function extendedScales(t: Transposition, pcs: readonly PitchClass[], perOctave: number): { ascending: ExtendedScale; descending: ExtendedScale } {
  const slice = octaveSlice(t.ascending);
  return {
    ascending: extendedScale(t.ascending, slice, pcs, perOctave),
    descending: extendedScale([...t.descending].reverse(), slice, pcs, perOctave),
  };
}

/**
 * §6.3-6.4: the jins on every degree of a maqām transposition in a tuning system × starting
 * note. The descending ajnās are read upwards from each note of the descending scale and listed
 * top-down. Cached per transposition and tolerance.
 */
export function ajnasOf(cat: Catalog, t: Transposition, ts: TuningSystem, startingNote: string, tolerance: number): DegreeAjnas {
  return degreeAjnasCache(t, () => boundedMemo<DegreeAjnas>(DEGREE_AJNAS_PER_TRANSPOSITION))(String(tolerance), () => {
    const pcs = pitchClassesOf(cat, ts, startingNote);
    const candidates = candidateAjnas(cat, pcs);
    const scales = extendedScales(t, pcs, pitchClassesPerOctave(ts));
    return {
      ascending: ajnasPerDegree(cat.notes, scales.ascending, t.ascending.length, candidates, tolerance),
      descending: ajnasPerDegree(cat.notes, scales.descending, t.descending.length, candidates, tolerance).reverse(),
    };
  });
}
/** Ajnās by degree of a `transpositions` entry, per tolerance (at most DEGREE_AJNAS_PER_TRANSPOSITION). */
const degreeAjnasCache = attachedCache<Transposition, Memo<DegreeAjnas>>();
