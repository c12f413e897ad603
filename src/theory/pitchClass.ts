/**
 * Pitch classes of a tuning system for one starting note, over octaves 0-3, with every value
 * format of the API. Float operations follow the archive's reference formulas and their order,
 * so numbers match to the last bit; fractions are exact (fraction.js).
 */
import Fraction from "fraction.js";
import { NONE, solfegeOf, type NoteNameIndex } from "./noteName.js";
import { memoOf } from "./caches.js";
import { exp2, log2 } from "./portableMath.js";
import type { Catalog } from "./catalog.js";
import { type TuningSystem, type ValueType, referenceFrequencyOf, pitchClassesPerOctave } from "./tuningSystem.js";
import { ipnReferenceOf, centsDeviationOf, midiPlusCentsDeviation } from "./ipn.js";

export const OCTAVES = [0, 1, 2, 3] as const;

export interface PitchClass {
  /** Index of the value in the tuning system's octave (0…N−1). */
  index: number;
  octave: number;
  /** Display note name, or `"none"` where the set has no name for this value. */
  noteName: string;
  originalValue: string;
  /** A tuning system of unknown format has no pitch classes. */
  originalValueType: Exclude<ValueType, "unknown">;
  fraction: string;
  cents: number;
  decimalRatio: number;
  stringLength: number;
  frequency: number;
  /** Distance from the open string, rounded to three decimals as the archive rounds it (intervals subtract the rounded values). */
  fretDivision: number;
  midiNoteDecimal: number;
  englishName: string;
  solfege: string;
  abjadName: string;
  centsDeviation: number;
  ipnReferenceNoteName: string;
  midiNotePlusCentsDeviation: string;
}

/** Values derived from one (octave-shifted) original value. */
interface Conversion {
  fraction: string;
  decimalRatio: number;
  cents: number;
  stringLength: number;
  frequency: number;
}

/** 1200·log2(ratio). */
export const ratioToCents = (ratio: number): number => 1200 * log2(ratio);
/** 2^(cents/1200). */
export const centsToRatio = (cents: number): number => exp2(cents / 1200);
/** MIDI note number (float) of a frequency in Hz. */
export const frequencyToMidi = (hz: number): number => 69 + 12 * log2(hz / 440);

/** `n/d` of an exact ratio, always with a denominator (`2/1`, not `2`). */
export function ratioString(f: Fraction): string {
  return `${f.s < 0n ? "-" : ""}${f.n}/${f.d}`;
}

/** Best fraction with a denominator below 100 for a decimal ratio (smallest denominator wins ties). */
export function approximateFraction(d: number): string {
  let num = 1;
  let den = 1;
  let err = Math.abs(d - 1);
  for (let q = 1; q < 100; q++) {
    const p = Math.round(d * q);
    const e = Math.abs(d - p / q);
    if (e < err) {
      num = p;
      den = q;
      err = e;
    }
  }
  return ratioString(new Fraction(num, den));
}

/** The original value of index k shifted from octave 1 to `octave`, as the archive prints it. */
export function shiftedValue(raw: string, type: ValueType, octave: number): string {
  const s = octave - 1;
  if (s === 0) return raw;
  switch (type) {
    case "fraction": {
      const [a, b] = raw.split(/[/:]/).map(Number);
      return ratioString(new Fraction(a, b).mul(new Fraction(2).pow(s)));
    }
    case "decimalRatio":
      return String(parseFloat(raw) * exp2(s));
    case "cents":
      return (parseFloat(raw) + 1200 * s).toFixed(3);
    case "stringLength":
      return String(parseFloat(raw) * exp2(-s));
    default:
      return raw;
  }
}

/** The nearest double to `x` written with three decimals (the decimal rounding, not a binary one). */
const roundedTo3 = (x: number): number => parseFloat(x.toFixed(3));

function convert(value: string, type: ValueType, openStringLength: number, referenceFrequency: number): Conversion {
  let d: number;
  let cents: number;
  let stringLength: number;
  let fraction: string;
  switch (type) {
    case "fraction": {
      const [a, b] = value.split("/").map(Number);
      d = a / b;
      cents = ratioToCents(d);
      stringLength = openStringLength / d;
      fraction = value;
      break;
    }
    case "cents":
      cents = parseFloat(value);
      d = centsToRatio(cents);
      stringLength = openStringLength / d;
      fraction = approximateFraction(d);
      break;
    case "decimalRatio":
      d = parseFloat(value);
      cents = ratioToCents(d);
      stringLength = openStringLength / d;
      fraction = approximateFraction(d);
      break;
    case "stringLength":
      stringLength = parseFloat(value);
      d = openStringLength / stringLength;
      cents = ratioToCents(d);
      fraction = approximateFraction(d);
      break;
    default:
      d = NaN;
      cents = NaN;
      stringLength = NaN;
      fraction = "";
  }
  return { fraction, decimalRatio: d, cents, stringLength, frequency: referenceFrequency * d };
}

/** Column of a set name: its index in the octave-1 list, 37 + index in the octave-2 list, or −1. */
function columnOf({ octaveLists }: NoteNameIndex, name: string): number {
  const i = octaveLists[1].indexOf(name);
  if (i >= 0) return i;
  const j = octaveLists[2].indexOf(name);
  return j >= 0 ? 37 + j : -1;
}

function nameAt({ octaveLists }: NoteNameIndex, column: number, octave: number): string {
  if (column < 0) return NONE;
  const list = column < 37 ? octaveLists[octave] : octaveLists[octave + 1];
  return list?.[column < 37 ? column : column - 37] ?? NONE;
}

/** The note-name set that begins with `startingNote` (the first set when none does). */
export function noteNameSetOf(ts: TuningSystem, startingNote: string): string[] {
  return ts.record.noteNames.find((set) => set[0] === startingNote) ?? ts.record.noteNames[0];
}

function computePitchClasses(notes: NoteNameIndex, ts: TuningSystem, startingNote: string): PitchClass[] {
  const { record, valueType } = ts;
  if (valueType === "unknown") return [];
  const n = pitchClassesPerOctave(ts);
  const set = noteNameSetOf(ts, startingNote);
  const columns = set.map((name) => columnOf(notes, name));
  const referenceFrequency = referenceFrequencyOf(ts, startingNote);
  const L = record.stringLength;
  const openLength = convert(record.tuningSystemPitchClasses[0], valueType, L, referenceFrequency).stringLength;
  const result: PitchClass[] = [];
  for (const octave of OCTAVES) {
    for (let k = 0; k < n; k++) {
      const originalValue = shiftedValue(record.tuningSystemPitchClasses[k], valueType, octave);
      const c = convert(originalValue, valueType, L, referenceFrequency);
      const noteName = nameAt(notes, columns[k], octave);
      const englishName = notes.englishNameOf(noteName);
      const frequency = parseFloat(String(c.frequency));
      const midiNoteDecimal = frequencyToMidi(frequency);
      const ipnReferenceNoteName = ipnReferenceOf(englishName);
      const centsDeviation = centsDeviationOf(englishName, midiNoteDecimal);
      result.push({
        index: k,
        octave,
        noteName,
        originalValue,
        originalValueType: valueType,
        fraction: c.fraction,
        cents: c.cents,
        decimalRatio: c.decimalRatio,
        stringLength: c.stringLength,
        frequency: c.frequency,
        fretDivision: roundedTo3(openLength - c.stringLength),
        midiNoteDecimal,
        englishName,
        solfege: solfegeOf(englishName),
        abjadName: record.abjadNames[octave < 2 ? k : n + k] ?? "",
        centsDeviation,
        ipnReferenceNoteName,
        midiNotePlusCentsDeviation: midiPlusCentsDeviation(englishName, ipnReferenceNoteName, midiNoteDecimal, centsDeviation, true),
      });
    }
  }
  return result;
}

const pitchClassMemo = memoOf<PitchClass[]>("pitchClasses");

/**
 * The 4N pitch classes (octave 0 indices 0…N−1, then octave 1, …) of a tuning system for a
 * starting note given as its display name. Computed once per pair and shared.
 */
export function pitchClassesOf(cat: Catalog, ts: TuningSystem, startingNote: string): readonly PitchClass[] {
  return pitchClassMemo(cat)(`${ts.id}\u0000${startingNote}`, () => computePitchClasses(cat.notes, ts, startingNote));
}

/** The first pitch class (octave, then index order) that carries a note name (display form). */
export const pitchClassNamed = (pcs: readonly PitchClass[], name: string): PitchClass | undefined => pcs.find((pc) => pc.noteName === name);

/**
 * Reference frequency as the note-name and interval answers report it: recomputed from a pitch
 * class (frequency ÷ decimal ratio), so float noise shows (`97.99899999999998`).
 */
export const impliedReferenceFrequency = (pc: PitchClass): number => pc.frequency / pc.decimalRatio;
