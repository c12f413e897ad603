/**
 * Writers of the Huygens-Fokker Scala formats: the scale (.scl) — a description line, the
 * number of degrees and one pitch per line, degree 0 (1/1) implicit and the last degree the
 * interval of repetition — and the keyboard mapping (.kbm), which places the degrees on MIDI
 * keys and gives one key its frequency. Comment lines start with `!`; all text is ASCII.
 */
import type Fraction from "fraction.js";
import { ascii } from "./ascii.js";

/** A degree above degree 0: its cents, and its exact ratio when the tuning is defined by ratios. */
export interface Pitch {
  cents: number;
  ratio?: Fraction;
}

export interface ScalaScale {
  /** Comment lines, without their `!`. */
  comments: readonly string[];
  /** The one-line description Scala shows. */
  description: string;
  /** Degrees 1…n; the last is the interval of repetition. */
  pitches: readonly Pitch[];
}

/** The largest numerator or denominator the format guarantees to read (2^31 − 1). */
const MAX_TERM = 2n ** 31n - 1n;

/** A ratio is written as `n/d` when both terms fit; otherwise its cents are written. */
export const fitsScala = (ratio: Fraction): boolean => ratio.s > 0n && ratio.n <= MAX_TERM && ratio.d <= MAX_TERM;

/** Cents always carry a decimal point, so no reader takes them for a ratio; six decimals keep them within 5e-7 cents. */
export const centsText = (cents: number): string => cents.toFixed(6);

/** A decimal number with a decimal point and every significant digit (`110` → `110.0`). */
export function decimalText(x: number): string {
  const s = String(x);
  if (!Number.isFinite(x) || /e/i.test(s)) throw new Error(`${s} cannot be written as a plain decimal`);
  return s.includes(".") ? s : `${s}.0`;
}

const pitchText = ({ cents, ratio }: Pitch): string => (ratio && fitsScala(ratio) ? `${ratio.n}/${ratio.d}` : centsText(cents));

const commentLines = (comments: readonly string[]): string[] => comments.map((c) => `! ${ascii(c)}`.trimEnd());

export function writeScl(scale: ScalaScale): string {
  // A description starting with `!` would be read as a comment.
  const description = ascii(scale.description).replace(/^!+\s*/, "");
  return (
    [...commentLines(scale.comments), "!", description, ` ${scale.pitches.length}`, "!", ...scale.pitches.map((p) => ` ${pitchText(p)}`)].join("\n") + "\n"
  );
}

export interface KeyboardMapping {
  comments: readonly string[];
  /** Keys in one repetition of the mapping; 0 is the linear mapping (consecutive keys, consecutive degrees). */
  size: number;
  firstKey: number;
  lastKey: number;
  /** The key of the mapping's first entry (degree 0 on a linear mapping). */
  middleKey: number;
  referenceKey: number;
  referenceFrequency: number;
  /** Degree that repeats the pattern one mapping further; 0 takes the scale's last degree. */
  octaveDegree: number;
  /** `size` entries: the degree on each key from the middle key upwards, or null for an unmapped key. */
  mapping: readonly (number | null)[];
}

export function writeKbm(k: KeyboardMapping): string {
  if (k.mapping.length !== k.size) throw new Error(`a keyboard mapping of size ${k.size} needs ${k.size} entries, not ${k.mapping.length}`);
  return (
    [
      ...commentLines(k.comments),
      "!",
      "! map size (0: linear, one degree per key)",
      String(k.size),
      "! first key",
      String(k.firstKey),
      "! last key",
      String(k.lastKey),
      "! middle key (the mapping's first entry)",
      String(k.middleKey),
      "! reference key",
      String(k.referenceKey),
      "! reference frequency (Hz)",
      decimalText(k.referenceFrequency),
      "! formal octave degree (0: the scale's last)",
      String(k.octaveDegree),
      ...(k.size > 0 ? ["! degree of each key from the middle key up (x: unmapped)"] : []),
      ...k.mapping.map((d) => (d === null ? "x" : String(d))),
    ].join("\n") + "\n"
  );
}
