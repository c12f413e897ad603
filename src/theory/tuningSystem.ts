/** Tuning systems: identity, display names, starting notes and the value format of their data. */
import type { TuningSystemRecord } from "../data/schemas.js";
import { toIdName } from "./idName.js";

export type ValueType = "fraction" | "cents" | "decimalRatio" | "stringLength" | "fretDivision" | "unknown";

export interface TuningSystem {
  id: string;
  record: TuningSystemRecord;
  displayName: string;
  displayNameAr: string;
  valueType: ValueType;
  /** First names of the note-name sets, deduplicated, in set order. */
  startingNotes: string[];
}

/** `creatorEnglish_year` without spaces, `+` and `-`, through toIdName. */
export function tuningSystemIdOf(record: TuningSystemRecord): string {
  return toIdName(`${record.creatorEnglish}_${record.year}`.replace(/[\s+-]/g, ""));
}

/** Detects the value format of a whole pitch-class list (fractions, cents, ratios, lengths). */
export function detectValueType(values: readonly string[]): ValueType {
  const vs = values.map((v) => v.trim()).filter((v) => v !== "");
  if (vs.length === 0) return "unknown";
  const nonDecreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x >= xs[i - 1]);
  const nonIncreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x <= xs[i - 1]);
  if (vs.every((v) => /^[1-9]\d*[/:][1-9]\d*$/.test(v))) {
    const ratios = vs.map((v) => {
      const [a, b] = v.split(/[/:]/).map(Number);
      return a / b;
    });
    return nonDecreasing(ratios) ? "fraction" : "unknown";
  }
  const xs = vs.map((v) => Number(v));
  if (xs.some((x) => Number.isNaN(x))) return "unknown";
  const asc = nonDecreasing(xs);
  if (asc && (Math.abs(xs[xs.length - 1] - 1000) < 50 || xs.some((x) => x > 1200))) return "fretDivision";
  if (asc && xs.every((x) => x >= 1 && x < 2)) return "decimalRatio";
  if (asc && xs.every((x) => x >= 0 && x < 1200)) return "cents";
  if (nonIncreasing(xs)) return "stringLength";
  return "unknown";
}

/** The theory's view of a tuning-system record (the catalog makes one per record). */
export function tuningSystemOf(record: TuningSystemRecord): TuningSystem {
  const year = record.year;
  return {
    id: tuningSystemIdOf(record),
    record,
    displayName: `${record.creatorEnglish} (${year || "NA"}) ${record.titleEnglish}`,
    displayNameAr: `${record.creatorArabic || record.creatorEnglish} (${year}) ${record.titleArabic || record.titleEnglish}`,
    valueType: detectValueType(record.tuningSystemPitchClasses),
    startingNotes: [...new Set(record.noteNames.map((set) => set[0]))],
  };
}

/** The starting note (display name) of `ts` that `param` names diacritics-insensitively. */
export function findStartingNote(ts: TuningSystem, param: string): string | undefined {
  const wanted = toIdName(param);
  return ts.startingNotes.find((s) => toIdName(s) === wanted);
}

/** Hz of pitch class 0, octave 1 for a starting note. */
export function referenceFrequencyOf(ts: TuningSystem, startingNote: string): number {
  return ts.record.referenceFrequencies[startingNote] ?? ts.record.defaultReferenceFrequency;
}

/** Number of pitch classes in one octave. */
export const pitchClassesPerOctave = (ts: TuningSystem): number => ts.record.tuningSystemPitchClasses.length;
