/**
 * The scales the exports write, read from the engine's own pitch classes: degree 0 on a MIDI
 * key, the degrees above it with the API's cents (and exact ratios where the tuning system is
 * defined by ratios), and the way keys take degrees — linearly, or one pitch class per key of a
 * twelve-key keyboard. `keyCents` is the pitch every MIDI key gets, which the .tun writes out and
 * a .scl with its .kbm imply.
 */
import Fraction from "fraction.js";
import type { PitchClass } from "../theory/pitchClass.js";
import { pitchClassesOf } from "../theory/pitchClass.js";
import type { TuningSystem } from "../theory/tuningSystem.js";
import type { Transposition } from "../theory/transposition.js";
import type { Catalog } from "../theory/catalog.js";
import { SHARP_KEYS, keyOrder, type PitchClassSet } from "../theory/pitchClassSets.js";
import { chromaOfReference, referenceOf } from "../theory/ipn.js";
import type { Pitch } from "./scala.js";

/** A degree above degree 0; `pc` is the pitch class it stands for (none for an added octave). */
export interface Degree extends Pitch {
  pc?: PitchClass;
}

export interface ExportScale {
  /** Degree 0, as the API reports it. */
  tonic: PitchClass;
  /** MIDI key of degree 0 (keyOf). */
  tonicKey: number;
  /** Degrees 1…n above degree 0, lowest first; the last repeats the scale. */
  degrees: readonly Degree[];
  /** `linear`: consecutive keys take consecutive degrees; else the degree of each key from the tonic's key upwards (null: none). */
  keys: "linear" | readonly (number | null)[];
  /** The MIDI keys retuned, when not all 128: those of a rendering that climbs past its octave, mapped by note name. */
  range?: { first: number; last: number };
}

/** Farthest a key may sit from the pitch it plays, in semitones (docs/exports.md). */
export const KEY_REACH = 0.75;

/**
 * The MIDI key of a pitch class: the key of its 12-tone name nearest to its pitch, where a
 * keyboard player looks for it. The name is its English name's letter and accidental (`keyName`
 * for a set's key), not the spelling field, which some transpositions leave a semitone off
 * (docs/deviations.md); a name farther than KEY_REACH from the pitch gives way to the nearest key.
 * (The API's "MIDI + deviation" label can name a key an octave away for quarter-tone spellings such as `C-b3`.)
 */
export function keyOf(pc: PitchClass, keyName?: string): number {
  const chroma = keyName === undefined ? referenceOf(pc.englishName).chroma : chromaOfReference(keyName);
  const nearest = Math.round(pc.midiNoteDecimal);
  if (chroma === undefined) return nearest;
  const key = chroma + 12 * Math.round((pc.midiNoteDecimal - chroma) / 12);
  return keyName !== undefined || Math.abs(key - pc.midiNoteDecimal) <= KEY_REACH ? key : nearest;
}

/** The exact ratio of a pitch class of a tuning system defined by ratios. */
function ratioOf(pc: PitchClass): Fraction | undefined {
  if (pc.originalValueType !== "fraction") return undefined;
  const [n, d] = pc.originalValue.split(/[/:]/);
  return new Fraction(BigInt(n), BigInt(d));
}

/** `pc` as a degree above `tonic`: the API's cents difference, and the exact ratio when both have one. */
function degreeAbove(tonic: PitchClass, pc: PitchClass): Degree {
  const [r, r0] = [ratioOf(pc), ratioOf(tonic)];
  return { cents: pc.cents - tonic.cents, ...(r && r0 ? { ratio: r.div(r0) } : {}), pc };
}

/** The octave 2/1 as the degree that repeats a scale. */
const octaveAbove = (tonic: PitchClass): Degree => ({ cents: 1200, ...(ratioOf(tonic) ? { ratio: new Fraction(2) } : {}) });

/** One octave of a tuning system from its starting note: the pitch classes of octave 1 above it, then the octave. */
export function tuningSystemScale(cat: Catalog, ts: TuningSystem, startingNote: string): ExportScale {
  const pcs = pitchClassesOf(cat, ts, startingNote);
  const octave = pcs.filter((pc) => pc.octave === 1);
  const tonic = octave[0];
  const next = pcs.find((pc) => pc.octave === 2 && pc.index === 0)!;
  return { tonic, tonicKey: keyOf(tonic), degrees: [...octave.slice(1), next].map((pc) => degreeAbove(tonic, pc)), keys: "linear" };
}

/**
 * A maqām or jins rendering in one direction: its pitch classes above the tonic, lowest first.
 * Within an octave the octave is added to repeat it; a rendering that climbs past its octave
 * keeps every note and repeats from its highest.
 */
export function entityScale(cells: readonly PitchClass[]): ExportScale {
  const [tonic, ...rest] = cells;
  const degrees = rest.map((pc) => degreeAbove(tonic, pc));
  const top = degrees.length ? degrees[degrees.length - 1].cents : 0;
  return { tonic, tonicKey: keyOf(tonic), degrees: top < 1200 ? [...degrees, octaveAbove(tonic)] : degrees, keys: "linear" };
}

/** The ascending cells of a rendering, and its descending cells read upwards from the tonic. */
export const ascendingCells = (t: Transposition): readonly PitchClass[] => t.ascending;
export const descendingCells = (t: Transposition): readonly PitchClass[] => [...t.descending].reverse();

/** The descending sequence is not the ascending one reversed (a jins has none). */
export const descendingDiffers = (t: Transposition): boolean => {
  const down = descendingCells(t);
  return down.length > 0 && (down.length !== t.ascending.length || down.some((pc, i) => pc !== t.ascending[i]));
};

/**
 * A 12-pitch-class set on a twelve-key keyboard: degrees in key order from the tonic, the
 * octave last, and each key taking the pitch class of its name. A set can reach past the
 * tonic's octave (a maqām that climbs higher keeps its upper notes); each pitch class is moved
 * by whole octaves into the octave above the tonic, so that with the mapping repeating every
 * twelve keys it sounds on the key of its name nearest to its pitch.
 */
export function pitchClassSetScale(set: PitchClassSet): ExportScale {
  const entries = [...set.pitchClasses];
  const [[tonicName, tonic], ...rest] = entries;
  const tonicKey = keyOf(tonic, tonicName);
  const degreeOfKey = new Map(entries.map(([key], degree) => [key, degree]));
  const start = keyOrder(tonicName);
  const inTonicOctave = ([key, pc]: [string, PitchClass]): Degree => {
    const { cents, ratio } = degreeAbove(tonic, pc);
    const octaves = Math.floor((keyOf(pc, key) - tonicKey) / 12);
    return { cents: cents - 1200 * octaves, ...(ratio ? { ratio: ratio.mul(new Fraction(2).pow(-octaves)) } : {}), pc };
  };
  return {
    tonic,
    tonicKey,
    degrees: [...rest.map(inTonicOctave), octaveAbove(tonic)],
    keys: SHARP_KEYS.map((_, step) => degreeOfKey.get(SHARP_KEYS[(start + step) % 12]) ?? null),
  };
}

const mod = (a: number, n: number): number => ((a % n) + n) % n;

/**
 * Cost of a degree `away` keys from its name's key: two short moves before one long one, and a
 * key down (a flat of the next letter, as respell.ts spells the lower of two notes sharing a key)
 * before a key up.
 */
const moveCost = (away: number): number => 2 * away * away + (away > 0 ? 1 : 0);

/**
 * Keys from the tonic's key for degrees 0…m, in order, each on the key of its name where it can
 * be: keys rise with the degrees (degree 0 on key 0, every key below `limit`), and where names
 * share a key (E-b and E, D-b and D-#) or come out of order, the fewest and shortest moves,
 * downwards first. Undefined when `limit` keys cannot hold the degrees.
 */
export function noteNameOffsets(named: readonly number[], limit: number): number[] | undefined {
  // best[i][k]: least cost of degrees 0…i with degree i on key k; from[i][k] the key of degree i − 1.
  const best: number[][] = [Array.from({ length: limit }, (_, k) => (k === 0 ? 0 : Infinity))];
  const from: number[][] = [[]];
  for (let i = 1; i < named.length; i++) {
    const row: number[] = [];
    const back: number[] = [];
    let least = Infinity;
    let at = -1;
    for (let k = 0; k < limit; k++) {
      row.push(least + moveCost(k - named[i]));
      back.push(at);
      if (best[i - 1][k] < least) [least, at] = [best[i - 1][k], k];
    }
    best.push(row);
    from.push(back);
  }
  const last = best[best.length - 1];
  let key = last.indexOf(Math.min(...last));
  if (!Number.isFinite(last[key])) return undefined;
  const keys: number[] = [];
  for (let i = named.length - 1; i >= 0; i--) {
    keys.unshift(key);
    key = from[i][key];
  }
  return keys;
}

/**
 * A maqām or jins scale mapped by note name on a twelve-key keyboard: each degree on the key of
 * its note name's letter and accidental (rāst C, dūgāh D, segāh E-b on the E key), unused keys
 * unmapped, the map repeating every twelve keys with the octave. A rendering that climbs past its
 * octave is mapped over the keys from its tonic to its highest note (the map then spans whole
 * octaves and only those keys are retuned): beyond them a key's name would not say its pitch.
 */
export function noteNameScale(scale: ExportScale): ExportScale {
  const cells = [scale.tonic, ...scale.degrees.map((d) => d.pc)];
  const withinOctave = cells[cells.length - 1] === undefined;
  // Within the octave the last degree is the octave itself: the next repetition's degree 0, on key 12.
  const named = cells.map((pc) => (pc ? keyOf(pc) - scale.tonicKey : 12)).slice(0, withinOctave ? -1 : undefined);
  const limit = withinOctave ? 12 : Math.max(...named) + named.length;
  // More degrees than keys in an octave (none in the archive) take consecutive keys, the map as long as the scale.
  const fitted = noteNameOffsets(named, limit);
  const offsets = fitted ?? named.map((_, degree) => degree);
  const top = offsets[offsets.length - 1];
  const size = !withinOctave ? 12 * Math.ceil((top + 1) / 12) : fitted ? 12 : named.length;
  const keys: (number | null)[] = Array.from({ length: size }, () => null);
  for (const [degree, offset] of offsets.entries()) keys[offset] = degree;
  const range = withinOctave ? undefined : { first: Math.max(0, scale.tonicKey), last: Math.min(127, scale.tonicKey + top) };
  return { ...scale, keys, ...(range ? { range } : {}) };
}

/**
 * Cents of a MIDI key above MIDI note 0 of equal temperament at A = 440 Hz (100 × its MIDI
 * number when it sounds a pitch class of the scale): degree 0 sounds on the tonic's key, and
 * each repetition of the mapping adds the last degree. A key without a degree keeps 100 × key.
 */
export function keyCents(scale: ExportScale, key: number): number {
  const { degrees, keys, range } = scale;
  if (range && (key < range.first || key > range.last)) return 100 * key;
  const period = degrees[degrees.length - 1].cents;
  const steps = key - scale.tonicKey;
  const size = keys === "linear" ? degrees.length : keys.length;
  const degree = keys === "linear" ? mod(steps, size) : keys[mod(steps, size)];
  if (degree === null) return 100 * key;
  const pitch = degree === 0 ? 0 : degrees[degree - 1].cents;
  return 100 * scale.tonic.midiNoteDecimal + pitch + Math.floor(steps / size) * period;
}
