/**
 * Intervals between two pitch classes of one tuning system (§10.1), and the pitch class a bare
 * value such as `3/2` or `701.955` names (§10.4). The ratio is exact (fraction.js); the float
 * fields are differences of the pitch classes' own numbers, in the reference's operation order.
 */
import Fraction from "fraction.js";
import { ratioString, type PitchClass } from "./pitchClass.js";
import type { ValueType } from "./tuningSystem.js";

export interface Interval {
  fraction: string;
  cents: number;
  /** The exact ratio as a float, not the quotient of the two decimal ratios. */
  decimalRatio: number;
  /** Usually negative going up: the higher note has the shorter string. */
  stringLength: number;
  /** From the pitch classes' 3-decimal strings, so values look like `83.33300000000003`. */
  fretDivision: number;
  /** q.index·q.octave − p.index·p.octave: meaningless (QUIRK Q11), still emitted by some blocks. */
  pitchClassIndex: number;
  originalValue: string;
  originalValueType: PitchClass["originalValueType"];
}

/** The interval written in the tuning system's own value format, to two decimals. */
function originalValueOf(type: ValueType, interval: Omit<Interval, "originalValue" | "originalValueType">): string {
  switch (type) {
    case "cents":
      return interval.cents.toFixed(2);
    case "decimalRatio":
      return interval.decimalRatio.toFixed(2);
    case "stringLength":
      return interval.stringLength.toFixed(2);
    case "fretDivision":
      return interval.fretDivision.toFixed(2);
    default:
      return interval.fraction;
  }
}

/** Interval from `p` up (or down) to `q`. */
export function intervalBetween(p: PitchClass, q: PitchClass): Interval {
  const ratio = new Fraction(q.fraction).div(new Fraction(p.fraction));
  const interval = {
    fraction: ratioString(ratio),
    cents: q.cents - p.cents,
    decimalRatio: Number(ratio.n) / Number(ratio.d),
    stringLength: q.stringLength - p.stringLength,
    fretDivision: q.fretDivision - p.fretDivision,
    pitchClassIndex: q.index * q.octave - p.index * p.octave,
  };
  return { ...interval, originalValue: originalValueOf(q.originalValueType, interval), originalValueType: q.originalValueType };
}

/** The five formats a bare value can be given in. */
export const VALUE_FORMATS = ["fraction", "cents", "decimalRatio", "stringLength", "fretDivision"] as const;
export type ValueFormat = (typeof VALUE_FORMATS)[number];

/**
 * Format of one bare value, by its look: `a/b` is a fraction, 1 ≤ x < 2 a decimal ratio, x ≥ 1000
 * a fret division, 0 ≤ x < 1200 cents. A string length is never detected (its range is taken by
 * the others) and needs an explicit type; undefined when nothing fits.
 */
export function detectValueFormat(raw: string): ValueFormat | undefined {
  if (/^[1-9]\d*[/:][1-9]\d*$/.test(raw)) return "fraction";
  const x = parseFloat(raw);
  if (Number.isNaN(x)) return undefined;
  if (x >= 1 && x < 2) return "decimalRatio";
  if (x >= 1000) return "fretDivision";
  if (x >= 0 && x < 1200) return "cents";
  return undefined;
}

const TOLERANCE = 0.0001;

/**
 * First pitch class (octave, then index order) carrying the value: fractions compare as written
 * (`8/6` is not `4/3`), numbers within 0.0001.
 */
export function pitchClassWithValue(pcs: readonly PitchClass[], raw: string, format: ValueFormat): PitchClass | undefined {
  if (format === "fraction") {
    const written = raw.replace(":", "/");
    return pcs.find((pc) => pc.fraction === written);
  }
  const x = parseFloat(raw);
  return pcs.find((pc) => Math.abs(x - pc[format]) < TOLERANCE);
}
