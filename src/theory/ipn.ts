/**
 * The 12-tone reference of a pitch class: the key it is spelled against (ipnReferenceNoteName),
 * its deviation in cents from that key, and the "MIDI number + deviation" label.
 */
import { exp2, log2 } from "./portableMath.js";

const LETTER_CHROMA: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };
const FLAT_SPELLING: Record<string, string> = { C: "B", D: "Db", E: "Eb", F: "E", G: "Gb", A: "Ab", B: "Bb" };
const SHARP_SPELLING: Record<string, string> = { C: "C#", D: "D#", E: "F", F: "F#", G: "G#", A: "A#", B: "C" };

const mod12 = (x: number) => ((x % 12) + 12) % 12;

interface Reference {
  name: string;
  /** undefined when the English name has no letter (`--`). */
  chroma: number | undefined;
}

/** Reference key of an English name: a flat/sharp spelling when the accidental follows the letter. */
export function referenceOf(englishName: string): Reference {
  const letter = englishName[0] ?? "";
  const base = LETTER_CHROMA[letter];
  if (base === undefined) return { name: letter || "-", chroma: undefined };
  const rest = englishName.slice(1);
  const main = rest.includes("b") ? "b" : rest.includes("#") ? "#" : "";
  const next = englishName[1];
  if ((next === "b" || next === "#") && main === "b") return { name: FLAT_SPELLING[letter], chroma: mod12(base - 1) };
  if ((next === "b" || next === "#") && main === "#") return { name: SHARP_SPELLING[letter], chroma: mod12(base + 1) };
  return { name: letter, chroma: base };
}

export const ipnReferenceOf = (englishName: string): string => referenceOf(englishName).name;

/** Chroma of a reference name such as `C`, `Bb`, `F#` (undefined when it is not one). */
export function chromaOfReference(name: string): number | undefined {
  const m = /^([A-G])(#|b)?/.exec(name);
  if (!m) return undefined;
  return mod12(LETTER_CHROMA[m[1]] + (m[2] === "#" ? 1 : m[2] === "b" ? -1 : 0));
}

const midiToFrequency = (midi: number) => 440 * exp2((midi - 69) / 12);

/**
 * Deviations already computed, by MIDI value then reference. The archive's pitch classes recur in
 * every transposition and every answer that spells them, and the correctly rounded power and
 * logarithm cost microseconds each; emptied past DEVIATIONS_LIMIT entries (a few megabytes).
 */
const deviations = new Map<number, Map<number, number>>();
let deviationCount = 0;
const DEVIATIONS_LIMIT = 50_000;

/** Cents between two MIDI values, through frequencies in the archive's operation order. */
export function deviationCents(midi: number, referenceMidi: number): number {
  let byReference = deviations.get(midi);
  let cents = byReference?.get(referenceMidi);
  if (cents !== undefined) return cents;
  const referenceFrequency = midiToFrequency(referenceMidi);
  const currentFrequency = midiToFrequency(midi);
  cents = 1200 * log2(currentFrequency / referenceFrequency);
  if (deviationCount >= DEVIATIONS_LIMIT) {
    deviations.clear();
    deviationCount = 0;
    byReference = undefined;
  }
  if (byReference === undefined) {
    byReference = new Map();
    deviations.set(midi, byReference);
  }
  byReference.set(referenceMidi, cents);
  deviationCount++;
  return cents;
}

/** MIDI number of the reference key in the octave the English name states (floor of MIDI otherwise); undefined without a letter. */
export function referenceMidiOf(englishName: string, midiNoteDecimal: number, reference = referenceOf(englishName)): number | undefined {
  if (reference.chroma === undefined) return undefined;
  const digits = /(\d+)$/.exec(englishName);
  return digits ? (Number(digits[1]) + 1) * 12 + reference.chroma : Math.floor(midiNoteDecimal / 12) * 12 + reference.chroma;
}

/** Deviation from the reference key in the octave the English name states (floor of MIDI otherwise). */
export function centsDeviationOf(englishName: string, midiNoteDecimal: number, reference = referenceOf(englishName)): number {
  const referenceMidi = referenceMidiOf(englishName, midiNoteDecimal, reference);
  return referenceMidi === undefined ? NaN : deviationCents(midiNoteDecimal, referenceMidi);
}

/** MIDI number of the reference key used in the "MIDI + deviation" label. */
export function labelMidiOf(englishName: string, referenceName: string, midiNoteDecimal: number): number {
  const plain = /^([A-G])(#|b)?(\d+)$/.exec(englishName);
  const chroma = chromaOfReference(referenceName);
  if (plain && chroma !== undefined) return (Number(plain[3]) + 1) * 12 + chroma;
  if (chroma !== undefined) return Math.floor(midiNoteDecimal / 12) * 12 + chroma;
  return Math.round(midiNoteDecimal);
}

/** `"<MIDI> <signed deviation>"`; the deviation is rounded to 0.1 unless `rounded` is false. */
export function midiPlusCentsDeviation(englishName: string, referenceName: string, midiNoteDecimal: number, centsDeviation: number, rounded: boolean): string {
  const midi = labelMidiOf(englishName, referenceName, midiNoteDecimal);
  const sign = centsDeviation >= 0 ? "+" : "";
  return `${midi} ${sign}${rounded ? centsDeviation.toFixed(1) : String(centsDeviation)}`;
}
