/**
 * 12-pitch-class sets (docs/algorithms.md §11.4): each compatible transposition, re-spelled as in
 * a maqām's pitch data (§14.3), is completed to the twelve keys of the chromatic scale, starting
 * on its tonic. Keys the maqām does not use are filled from the tuning system itself when it
 * spells all twelve keys with plain note names, otherwise from al-Kindī's 12-tone tuning.
 */
import type { PitchClass } from "./pitchClass.js";
import { pitchClassesOf } from "./pitchClass.js";
import type { TuningSystem } from "./tuningSystem.js";
import type { Catalog } from "./catalog.js";
import { respellScale } from "./respell.js";
import {
  SHARP_KEYS,
  cachedGrouping,
  groupingKey,
  keyOrder,
  shapeOfGrouping,
  twelveToneKey,
  type ClassifiedTransposition,
  type GroupingShape,
  type SetRule,
} from "./pitchClassSets.js";

export const AL_KINDI_ID = "alkindi_874";

/** al-Kindī's 12-tone tuning, which completes the sets of tuning systems without twelve plain keys. */
export function alKindiOf(cat: Catalog): TuningSystem {
  const ts = cat.findTuningSystem(AL_KINDI_ID);
  if (!ts) throw new Error(`12-tone sets are completed from ${AL_KINDI_ID}, which the archive does not hold`);
  return ts;
}

/** A plain note name: letter, optional sharp or flat, octave (`C3`, `Bb2`), no quarter-tone sign. */
const PLAIN = /^([A-G])([#b]?)\d+$/;
const LETTER_CHROMA: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** The key of a plainly named pitch class read from its name, flats folded to sharps; undefined otherwise. */
function plainKey(pc: PitchClass): string | undefined {
  const m = PLAIN.exec(pc.englishName);
  if (!m) return undefined;
  const chroma = LETTER_CHROMA[m[1]] + (m[2] === "#" ? 1 : m[2] === "b" ? -1 : 0);
  return SHARP_KEYS[(chroma + 12) % 12];
}

/** The tuning system names every one of the twelve keys plainly somewhere in its four octaves. */
const isChromatic = (pcs: readonly PitchClass[]): boolean => new Set(pcs.map(plainKey).filter((k) => k !== undefined)).size === 12;

/** Cells by 12-tone key. */
function byKey(cells: readonly PitchClass[]): Map<string, PitchClass[]> {
  const groups = new Map<string, PitchClass[]>();
  for (const cell of cells) {
    const key = twelveToneKey(cell);
    const group = groups.get(key);
    if (group) group.push(cell);
    else groups.set(key, [cell]);
  }
  return groups;
}

/** The lowest cell above a pitch, if any (the first of equals). A loop: each visited entry of a grouping asks it for all twelve keys. */
function lowestAbove(cells: readonly PitchClass[], cents: number): PitchClass | undefined {
  let low: PitchClass | undefined;
  for (const c of cells) if (c.cents > cents && (low === undefined || c.cents < low.cents)) low = c;
  return low;
}

const lowest = (cells: readonly PitchClass[]): PitchClass | undefined => lowestAbove(cells, -Infinity);

/** Where the keys a maqām leaves out are taken from, for one tuning system × starting note. */
interface Filler {
  /** The tuning system spells the twelve keys itself; then only plainly named maqām notes stand for their key. */
  chromatic: boolean;
  cellsByKey: Map<string, PitchClass[]>;
}

function fillerOf(cat: Catalog, ts: TuningSystem, startingNote: string): Filler {
  const own = pitchClassesOf(cat, ts, startingNote);
  const chromatic = isChromatic(own);
  return { chromatic, cellsByKey: byKey(chromatic ? own : pitchClassesOf(cat, alKindiOf(cat), startingNote)) };
}

/**
 * The twelve keys from the tonic upwards: each key takes the maqām's lowest note on it above
 * the previous key's note, else the filler's lowest such note, else the filler's lowest note on it.
 */
function chromaticSetOf(entry: ClassifiedTransposition, filler: Filler): Map<string, PitchClass> {
  const tonic = entry.cells[0];
  const own = byKey(filler.chromatic ? entry.cells.filter((c) => plainKey(c) !== undefined) : entry.cells);
  const start = keyOrder(twelveToneKey(tonic));
  const set = new Map<string, PitchClass>([[twelveToneKey(tonic), tonic]]);
  let previous = tonic.cents;
  for (let step = 1; step < 12; step++) {
    const key = SHARP_KEYS[(start + step) % 12];
    const fill = filler.cellsByKey.get(key) ?? [];
    const cell = lowestAbove(own.get(key) ?? [], previous) ?? lowestAbove(fill, previous) ?? lowest(fill);
    if (!cell) continue;
    set.set(key, cell);
    previous = cell.cents;
  }
  return set;
}

/** The 12-tone grouping rule for one tuning system × starting note (al-Kindī must have that starting note). */
function twelveToneRule(cat: Catalog, ts: TuningSystem, startingNote: string): SetRule {
  const filler = fillerOf(cat, ts, startingNote);
  return {
    // Transposition cells re-spelled as one scale, ascending then descending.
    cellsOf: (t) => {
      const { ascending, descending } = respellScale(t.ascending, t.descending);
      return [...ascending, ...descending];
    },
    setOf: (entry) => chromaticSetOf(entry, filler),
    // Plain remainder, as the archive compares (QUIRK Q20): octave-0 notes stay negative.
    inOctave: (cents) => cents % 1200,
  };
}

/** The 12-pitch-class-set grouping of a tuning system × starting note (display name) at a tolerance. */
export const twelveToneGrouping = cachedGrouping("twelveToneGroupings", twelveToneRule);

/** A 12-tone grouping as a seed of the memo twelveToneGrouping fills (caches.ts): its key and its shape. */
export const twelveToneSeed = (cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number): [string, GroupingShape] => [
  groupingKey(ts, startingNote, tolerance),
  shapeOfGrouping(twelveToneGrouping(cat, ts, startingNote, tolerance)),
];

/**
 * The cell that stands for `cell` read from C: the first octave-1 pitch class of the tuning system
 * (else of al-Kindī's) spelled against the same reference note, as the archive looks it up (§11.4).
 * It need not be the same note an octave lower: muḥayyar (D) becomes tīk zīrgūleh, the first D of
 * the Cairo tuning's octave 1, not dūgāh.
 */
function octaveOneNamesake(cat: Catalog, cell: PitchClass, ts: TuningSystem, startingNote: string): PitchClass | undefined {
  const sameReference = (pc: PitchClass) => pc.octave === 1 && pc.ipnReferenceNoteName === cell.ipnReferenceNoteName;
  return pitchClassesOf(cat, ts, startingNote).find(sameReference) ?? pitchClassesOf(cat, alKindiOf(cat), startingNote).find(sameReference);
}

/**
 * A set read from C instead of its tonic (`startSetFromC`): keys before the tonic's key that the
 * upward walk placed in octave 2 are taken from octave 1 (octaveOneNamesake), and the keys are
 * listed C to B.
 */
export function setFromC(cat: Catalog, pitchClasses: ReadonlyMap<string, PitchClass>, ts: TuningSystem, startingNote: string): [string, PitchClass][] {
  const tonicOrder = keyOrder([...pitchClasses.keys()][0]);
  return [...pitchClasses]
    .map(([key, cell]): [string, PitchClass] => [
      key,
      cell.octave === 2 && keyOrder(key) < tonicOrder ? (octaveOneNamesake(cat, cell, ts, startingNote) ?? cell) : cell,
    ])
    .sort(([a], [b]) => keyOrder(a) - keyOrder(b));
}
