/**
 * Pitch-class-set classification (docs/algorithms.md §11): every maqām transposition of a tuning
 * system × starting note is reduced to one pitch class per 12-tone key, and transpositions whose
 * pitch classes fit one another's set are grouped. A transposition with two different pitch
 * classes on one key cannot be reduced at all ("shared key"). The grouping loop is shared by the
 * maqām sets (§11.3, this file) and the 12-tone sets (§11.4, twelveToneSets.ts), which differ only
 * in how a set is built and how cents are folded into the octave.
 */
import type { PitchClass } from "./pitchClass.js";
import type { Maqam } from "./entity.js";
import type { TuningSystem } from "./tuningSystem.js";
import { transpositionsOf, type Transposition } from "./transposition.js";
import { memoOf, seedsOf, type MemoName } from "./caches.js";
import type { Catalog } from "./catalog.js";

export const SHARP_KEYS = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"] as const;

/** Transpositions are always searched at the default tolerance (QUIRK Q21); the request's tolerance only compares sets. */
const SEARCH_TOLERANCE = 5;

/**
 * The 12-tone key of a pitch class (§11.1 `ipn`): the sharp spelling of the MIDI number R that
 * its "MIDI + deviation" label names (§3.8), so a re-spelled pitch class moves with its label.
 */
export const twelveToneKey = (pc: PitchClass): string => SHARP_KEYS[twelveToneKeyOrder(pc)];

/** The place from C of a pitch class's 12-tone key (keyOrder of twelveToneKey), read without the key's name. */
function twelveToneKeyOrder(pc: PitchClass): number {
  const midi = Number.parseInt(pc.midiNotePlusCentsDeviation, 10);
  return ((midi % 12) + 12) % 12;
}

/** Place of a key in the chromatic order from C. */
export const keyOrder = (key: string): number => (SHARP_KEYS as readonly string[]).indexOf(key);

/** Cents folded into [0, 1200). */
export const foldedCents = (cents: number): number => ((cents % 1200) + 1200) % 1200;

/**
 * Distance between two positions in the octave, the shorter way round. Positions that are not
 * folded into one octave can come out negative, and so count as close (QUIRK Q20).
 */
function circularDistance(a: number, b: number): number {
  const d = Math.abs(a - b);
  return Math.min(d, 1200 - d);
}

/** One transposition as the classification reads it. */
export interface ClassifiedTransposition {
  /** The entry's place in the list of every maqām's transpositions (classifiedTranspositions), the same for the same facts. */
  index: number;
  maqam: Maqam;
  transposition: Transposition;
  /** Ascending then descending cells as the set and the clash test read them (re-spelled for the 12-tone sets). */
  cells: readonly PitchClass[];
}

/** Pitch classes competing for one 12-tone key, each note name once, lowest first. */
export interface Clash {
  key: string;
  cells: PitchClass[];
}

/** A set: one pitch class per key in output order, and the transpositions that fit it. */
export interface PitchClassSet {
  source: ClassifiedTransposition;
  pitchClasses: ReadonlyMap<string, PitchClass>;
  members: ClassifiedTransposition[];
}

export interface Incompatible {
  entry: ClassifiedTransposition;
  clashes: Clash[];
}

export interface Grouping {
  /** The entries grouped: every maqām's transpositions. */
  entries: number;
  sets: PitchClassSet[];
  incompatible: Incompatible[];
}

/**
 * A grouping as its entries' places (ClassifiedTransposition.index): per set its member count and
 * members, the first of them its source; then the incompatible entries. What a build's planning
 * hands its render workers instead of their grouping each tuning system × starting note again:
 * kilobytes where the grouping holds megabytes, and made back (groupingOfShape) with only the sets'
 * sources and the incompatible entries read, where the grouping compares thousands of entries.
 */
export interface GroupingShape {
  entries: number;
  sets: Int32Array;
  incompatible: Int32Array;
}

export function shapeOfGrouping({ entries, sets, incompatible }: Grouping): GroupingShape {
  const flat: number[] = [];
  for (const { members } of sets) {
    flat.push(members.length);
    for (const m of members) flat.push(m.index);
  }
  return { entries, sets: Int32Array.from(flat), incompatible: Int32Array.from(incompatible, (i) => i.entry.index) };
}

/**
 * The grouping a shape describes over `entries`, each set's pitch classes and each incompatible
 * entry's clashes read again; undefined when the shape cannot be theirs (another count, a place
 * out of range, an incompatible entry without a clash).
 */
function groupingOfShape(entries: readonly ClassifiedTransposition[], rule: SetRule, shape: GroupingShape): Grouping | undefined {
  if (shape.entries !== entries.length) return undefined;
  const sets: PitchClassSet[] = [];
  for (let at = 0; at < shape.sets.length; ) {
    const count = shape.sets[at++];
    const members = Array.from(shape.sets.subarray(at, at + count), (i) => entries[i]);
    at += count;
    if (count < 1 || members.length !== count || members.some((m) => m === undefined)) return undefined;
    sets.push({ source: members[0], pitchClasses: rule.setOf(members[0]), members });
  }
  const incompatible: Incompatible[] = [];
  for (const i of shape.incompatible) {
    const entry = entries[i];
    const clashes = entry === undefined ? [] : clashesOf(entry.cells);
    if (clashes.length === 0) return undefined;
    incompatible.push({ entry, clashes });
  }
  return { entries: entries.length, sets, incompatible };
}

/** What distinguishes the two kinds of set. */
export interface SetRule {
  /** Cells of a transposition (ascending then descending) as the set and the clash test read them. */
  cellsOf(t: Transposition): PitchClass[];
  /** The set a compatible transposition stands for. */
  setOf(entry: ClassifiedTransposition): ReadonlyMap<string, PitchClass>;
  /** Position within the octave used to compare a cell with a set's cell. */
  inOctave(cents: number): number;
}

/** The same pitch class, octave ignored, as the clash test compares it (six decimals). */
const pitchClassPosition = (cents: number): string => foldedCents(cents).toFixed(6);

/**
 * Keys on which a transposition has more than one pitch class (octave copies of one pitch class
 * are not a clash). Keys in order of first appearance.
 */
function clashesOf(cells: readonly PitchClass[]): Clash[] {
  const byKey = new Map<string, PitchClass[]>();
  for (const cell of cells) {
    const key = twelveToneKey(cell);
    const group = byKey.get(key) ?? [];
    if (!group.some((c) => c.noteName === cell.noteName)) group.push(cell);
    byKey.set(key, group);
  }
  const clashes: Clash[] = [];
  for (const [key, group] of byKey) {
    if (new Set(group.map((c) => pitchClassPosition(c.cents))).size > 1) clashes.push({ key, cells: [...group].sort((a, b) => a.cents - b.cents) });
  }
  return clashes;
}

/** Ascending then descending cells as the tuning system spells them. */
const tuningCells = (t: Transposition): PitchClass[] => [...t.ascending, ...t.descending];

/**
 * A transposition's cells as the tuning system spells them, as the compatibility test reads them:
 * their 12-tone keys as places from C (keyOrder) and their places in the octave (the rule's
 * inOctave), read once per grouping, since the test asks for them against every set (millions of
 * times for the archive).
 */
interface TuningReading {
  keys: readonly number[];
  positions: Float64Array;
  /** The keys as bits (C the lowest): a set can only hold the entry if it has each of them. */
  keyMask: number;
}

function tuningReadingOf(t: Transposition, rule: SetRule): TuningReading {
  const cells = tuningCells(t);
  const keys = cells.map(twelveToneKeyOrder);
  const positions = new Float64Array(cells.length);
  let keyMask = 0;
  for (let i = 0; i < cells.length; i++) {
    positions[i] = rule.inOctave(cells[i].cents);
    keyMask |= 1 << keys[i];
  }
  return { keys, positions, keyMask };
}

/**
 * Every cell of the transposition sits on a key of the set, within the tolerance of its pitch
 * class. Cells are read as the tuning system spells them, not re-spelled, as the archive compares.
 */
function fits(reading: TuningReading, positions: Float64Array, tolerance: number): boolean {
  const { keys, positions: own } = reading;
  for (let i = 0; i < keys.length; i++) {
    const set = positions[keys[i]];
    if (Number.isNaN(set) || circularDistance(own[i], set) > tolerance) return false;
  }
  return true;
}

/** A set's place in the octave per key, C to B (NaN for a key it leaves out): what sameSet and fits compare. */
function positionsOf(set: ReadonlyMap<string, PitchClass>, rule: SetRule): Float64Array {
  const positions = new Float64Array(SHARP_KEYS.length).fill(Number.NaN);
  for (const [key, pc] of set) positions[keyOrder(key)] = rule.inOctave(pc.cents);
  return positions;
}

/**
 * The same keys, each within the tolerance. Read from positionsOf: the grouping compares each
 * visited entry's set with every earlier set, tens of thousands of times a tuning system.
 */
function sameSet(a: Float64Array, b: Float64Array, tolerance: number): boolean {
  for (let k = 0; k < a.length; k++) {
    if (Number.isNaN(a[k]) !== Number.isNaN(b[k])) return false;
    if (!Number.isNaN(a[k]) && circularDistance(a[k], b[k]) > tolerance) return false;
  }
  return true;
}

/** The keys a set holds as bits, C the lowest (the non-NaN places of positionsOf). */
function keyMaskOf(positions: Float64Array): number {
  let mask = 0;
  for (let k = 0; k < positions.length; k++) if (!Number.isNaN(positions[k])) mask |= 1 << k;
  return mask;
}

/**
 * The grouping loop of §11.2. Untransposed entries (taḥlīl and octave renderings) are visited
 * before transposed ones, maqāmāt in file order. An entry whose set equals an earlier set joins
 * it; otherwise it founds a new set, which then collects every unvisited entry that fits it.
 * Read by key masks: equal sets hold the same keys, and an entry fits only a set that holds all
 * of its keys, so for the maqām sets (seven to ten keys each; a 12-tone set has all twelve) most
 * comparisons of hundreds of sets against thousands of entries end at a bit test.
 */
function groupIntoSets(entries: readonly ClassifiedTransposition[], rule: SetRule, tolerance: number): Grouping {
  const visitOrder: number[] = [];
  for (let i = 0; i < entries.length; i++) if (!entries[i].transposition.isTransposed) visitOrder.push(i);
  for (let i = 0; i < entries.length; i++) if (entries[i].transposition.isTransposed) visitOrder.push(i);
  const processed = new Uint8Array(entries.length);
  const sets: PitchClassSet[] = [];
  // The sets' positions grouped by key mask, each group in the order the sets were made: the first
  // equal set of a group is the first of all, as sets with other keys are never equal.
  const setsByMask = new Map<number, { index: number; positions: Float64Array }[]>();
  const incompatible: Incompatible[] = [];
  // The entries not yet processed, in file order, found anew after each set collects its members:
  // most entries join one of the first sets, so each later set scans fewer.
  let unprocessed = Int32Array.from(entries.keys());
  const readings = entries.map((e) => tuningReadingOf(e.transposition, rule));
  for (const index of visitOrder) {
    if (processed[index]) continue;
    processed[index] = 1;
    const entry = entries[index];
    const clashes = clashesOf(entry.cells);
    if (clashes.length > 0) {
      incompatible.push({ entry, clashes });
      continue;
    }
    const pitchClasses = rule.setOf(entry);
    const positions = positionsOf(pitchClasses, rule);
    const mask = keyMaskOf(positions);
    const sameKeys = setsByMask.get(mask) ?? [];
    const equal = sameKeys.find((other) => sameSet(other.positions, positions, tolerance));
    if (equal) {
      sets[equal.index].members.push(entry);
      continue;
    }
    const set: PitchClassSet = { source: entry, pitchClasses, members: [entry] };
    sameKeys.push({ index: sets.length, positions });
    setsByMask.set(mask, sameKeys);
    sets.push(set);
    let left = 0;
    for (const other of unprocessed) {
      if (processed[other]) continue;
      const reading = readings[other];
      if ((reading.keyMask & ~mask) === 0 && fits(reading, positions, tolerance)) {
        set.members.push(entries[other]);
        processed[other] = 1;
      } else unprocessed[left++] = other;
    }
    unprocessed = unprocessed.subarray(0, left);
  }
  return { entries: entries.length, sets, incompatible };
}

/**
 * Every maqām's full transposition list (taḥlīl, octave renderings, transpositions), maqāmāt in
 * file order. An entry's `cells` are made when first read: the grouping reads them only for the
 * entries it visits (about one in eight; the others join a set through `fits`, which reads the
 * tuning system's spelling), and re-spelling every scale was most of a 12-tone grouping's time.
 */
function classifiedTranspositions(cat: Catalog, ts: TuningSystem, startingNote: string, rule: SetRule): ClassifiedTransposition[] {
  let index = 0;
  return cat.maqamat.flatMap((maqam) =>
    transpositionsOf(cat, maqam, ts, startingNote, SEARCH_TOLERANCE).map((transposition): ClassifiedTransposition => {
      let ruleCells: readonly PitchClass[] | undefined;
      return {
        index: index++,
        maqam,
        transposition,
        get cells() {
          ruleCells ??= rule.cellsOf(transposition);
          return ruleCells;
        },
      };
    }),
  );
}

/** The key of a grouping in its memo, and of its shape among the memo's seeds. */
export const groupingKey = (ts: TuningSystem, startingNote: string, tolerance: number): string => `${ts.id}\u0000${startingNote}\u0000${tolerance}`;

/**
 * Memoises a grouping per tuning system × starting note × tolerance (a scan covers every
 * maqām), made from its shape where the catalog was given one (caches.ts seeds).
 */
export function cachedGrouping(
  name: MemoName,
  ruleFor: (cat: Catalog, ts: TuningSystem, startingNote: string) => SetRule,
): (cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number) => Grouping {
  const memo = memoOf<Grouping>(name);
  const seeds = seedsOf<GroupingShape>(name);
  return (cat, ts, startingNote, tolerance) => {
    const key = groupingKey(ts, startingNote, tolerance);
    return memo(cat)(key, () => {
      const rule = ruleFor(cat, ts, startingNote);
      const entries = classifiedTranspositions(cat, ts, startingNote, rule);
      const shape = seeds(cat)?.get(key);
      return (shape && groupingOfShape(entries, rule, shape)) ?? groupIntoSets(entries, rule, tolerance);
    });
  };
}

/** Maqām pitch-class sets (§11.3): the transposition's own cells, the first cell per key. */
const maqamSetRule: SetRule = {
  cellsOf: tuningCells,
  setOf: (entry) => {
    const set = new Map<string, PitchClass>();
    for (const cell of entry.cells) {
      const key = twelveToneKey(cell);
      if (!set.has(key)) set.set(key, cell);
    }
    return set;
  },
  inOctave: foldedCents,
};

/** The maqām pitch-class-set grouping of a tuning system × starting note (display name) at a tolerance. */
export const maqamSetGrouping = cachedGrouping("maqamSetGroupings", () => maqamSetRule);
