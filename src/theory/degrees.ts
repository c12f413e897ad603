/**
 * Scale degrees: roman numerals (docs/algorithms.md §6.6) and the maqām's named degrees — primary,
 * secondary and tertiary jins and ghammāz (§6.5) — moved along with a transposition.
 */
import type { PitchClass } from "./pitchClass.js";
import type { Maqam } from "./entity.js";
import type { Transposition } from "./transposition.js";
import type { DegreeAjnas, JinsInstance } from "./jinsDetection.js";

const NUMERALS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV"];

/** Roman numeral of 0-based degree k; the decimal number past `last` numerals (XV, or XIII in compare routes). */
export function romanNumeral(k: number, last = NUMERALS.length): string {
  return k < last ? NUMERALS[k] : String(k + 1);
}

/** Numerals of a descending scale listed top-down: the bottom note is I. */
export const descendingNumeral = (j: number, length: number, last?: number): string => romanNumeral(length - 1 - j, last);

/** Position of the first cell carrying the name (−1 when none does). */
const positionOf = (pcs: readonly PitchClass[], name: string): number => pcs.findIndex((pc) => pc.noteName === name);

/**
 * How many tuning cells a transposition moved the maqām: position of its tonic minus position
 * of the data tonic (a count of cells, not of degrees: docs/algorithms.md §6.5, Q9).
 */
export function degreeShift(maqam: Maqam, t: Transposition, pcs: readonly PitchClass[]): number {
  return positionOf(pcs, t.tonic) - positionOf(pcs, maqam.ascending[0]);
}

/** A data note moved by `shift` cells, or undefined when it or its destination is outside the pitch classes. */
export function shiftedNote(name: string, shift: number, pcs: readonly PitchClass[]): string | undefined {
  const at = positionOf(pcs, name);
  return at < 0 ? undefined : pcs[at + shift]?.noteName;
}

/** One named degree of a transposed maqām. */
export interface NamedDegree {
  /** Display note name after the shift. */
  noteName: string;
  /** Roman numeral of its place in the ascending scale, or null when it is not on it. */
  degree: string | null;
  /** The jins found on this note (ascending first, then descending); null when none. */
  jins: JinsInstance | null;
}

export interface NamedDegrees {
  primaryJins: NamedDegree[] | null;
  secondaryJins: NamedDegree[] | null;
  tertiaryJins: NamedDegree[] | null;
  /** Ghammāz entries never carry a jins (the field is left null). */
  ghammaz: NamedDegree[] | null;
}

/** The first jins, ascending then descending, that starts on the note. */
function jinsStartingOn(name: string, ajnas: DegreeAjnas): JinsInstance | null {
  const startsHere = (j: JinsInstance | null): j is JinsInstance => j !== null && j.cells[0].noteName === name;
  return ajnas.ascending.find(startsHere) ?? ajnas.descending.find(startsHere) ?? null;
}

/** One data field moved with the transposition; the whole field is null when any note cannot move. */
function namedDegree(notes: string[] | null, shift: number, t: Transposition, pcs: readonly PitchClass[], ajnas: DegreeAjnas | null): NamedDegree[] | null {
  if (notes === null) return null;
  const moved = notes.map((n) => shiftedNote(n, shift, pcs));
  if (moved.some((n) => n === undefined)) return null;
  return (moved as string[]).map((noteName) => {
    const k = t.ascending.findIndex((pc) => pc.noteName === noteName);
    return { noteName, degree: k < 0 ? null : romanNumeral(k), jins: ajnas ? jinsStartingOn(noteName, ajnas) : null };
  });
}

/** §6.5: the maqām's named degrees for a transposition (its ajnās supply the jins of each). */
export function namedDegreesOf(maqam: Maqam, t: Transposition, pcs: readonly PitchClass[], ajnas: DegreeAjnas): NamedDegrees {
  const shift = degreeShift(maqam, t, pcs);
  const { record } = maqam;
  return {
    primaryJins: namedDegree(record.primaryJinsDegree, shift, t, pcs, ajnas),
    secondaryJins: namedDegree(record.secondaryJinsDegree, shift, t, pcs, ajnas),
    tertiaryJins: namedDegree(record.tertiaryJinsDegree, shift, t, pcs, ajnas),
    ghammaz: namedDegree(record.ghammaz, shift, t, pcs, null),
  };
}
