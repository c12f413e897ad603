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
import { memoOf, type MemoName } from "./caches.js";
import type { Catalog } from "./catalog.js";

export const SHARP_KEYS = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"] as const;

/** Transpositions are always searched at the default tolerance (QUIRK Q21); the request's tolerance only compares sets. */
const SEARCH_TOLERANCE = 5;

/**
 * The 12-tone key of a pitch class (§11.1 `ipn`): the sharp spelling of the MIDI number R that
 * its "MIDI + deviation" label names (§3.8), so a re-spelled pitch class moves with its label.
 */
export function twelveToneKey(pc: PitchClass): string {
  const midi = Number.parseInt(pc.midiNotePlusCentsDeviation, 10);
  return SHARP_KEYS[((midi % 12) + 12) % 12];
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
  maqam: Maqam;
  transposition: Transposition;
  /** Ascending then descending cells as the set and the clash test read them (re-spelled for the 12-tone sets). */
  cells: readonly PitchClass[];
  /** The same cells as the tuning system spells them, which the compatibility test reads. */
  tuningCells: readonly PitchClass[];
  /** Their 12-tone keys, read once: the compatibility test asks for them against every set. */
  tuningKeys: readonly string[];
  /** Their positions in the octave (the rule's `inOctave`), read once for the same reason. */
  tuningPositions: readonly number[];
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
  sets: PitchClassSet[];
  incompatible: Incompatible[];
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
 * Every cell of the transposition sits on a key of the set, within the tolerance of its pitch
 * class. Cells are read as the tuning system spells them, not re-spelled, as the archive compares.
 */
function fits(entry: ClassifiedTransposition, set: Positions, tolerance: number): boolean {
  return entry.tuningPositions.every((position, i) => {
    const own = set.get(entry.tuningKeys[i]);
    return own !== undefined && circularDistance(position, own) <= tolerance;
  });
}

/** A set's position in the octave (the rule's `inOctave`) of each key. */
type Positions = ReadonlyMap<string, number>;
const positionsOf = (set: ReadonlyMap<string, PitchClass>, rule: SetRule): Positions => new Map([...set].map(([key, pc]) => [key, rule.inOctave(pc.cents)]));

/** The same keys, each within the tolerance. */
function sameSet(a: Positions, b: Positions, tolerance: number): boolean {
  if (a.size !== b.size) return false;
  for (const [key, position] of a) {
    const other = b.get(key);
    if (other === undefined || circularDistance(position, other) > tolerance) return false;
  }
  return true;
}

/**
 * The grouping loop of §11.2. Untransposed entries (taḥlīl and octave renderings) are visited
 * before transposed ones, maqāmāt in file order. An entry whose set equals an earlier set joins
 * it; otherwise it founds a new set, which then collects every unvisited entry that fits it.
 */
function groupIntoSets(entries: readonly ClassifiedTransposition[], rule: SetRule, tolerance: number): Grouping {
  const visitOrder = [...entries.filter((e) => !e.transposition.isTransposed), ...entries.filter((e) => e.transposition.isTransposed)];
  const processed = new Set<ClassifiedTransposition>();
  const sets: PitchClassSet[] = [];
  /** Each set's positions, in the order of `sets`. */
  const positions: Positions[] = [];
  const incompatible: Incompatible[] = [];
  for (const entry of visitOrder) {
    if (processed.has(entry)) continue;
    processed.add(entry);
    const clashes = clashesOf(entry.cells);
    if (clashes.length > 0) {
      incompatible.push({ entry, clashes });
      continue;
    }
    const pitchClasses = rule.setOf(entry);
    const own = positionsOf(pitchClasses, rule);
    const equal = sets.find((_, i) => sameSet(positions[i], own, tolerance));
    if (equal) {
      equal.members.push(entry);
      continue;
    }
    const set: PitchClassSet = { source: entry, pitchClasses, members: [entry] };
    sets.push(set);
    positions.push(own);
    for (const other of entries) {
      if (processed.has(other) || !fits(other, own, tolerance)) continue;
      set.members.push(other);
      processed.add(other);
    }
  }
  return { sets, incompatible };
}

/** Every maqām's full transposition list (taḥlīl, octave renderings, transpositions), maqāmāt in file order. */
function classifiedTranspositions(cat: Catalog, ts: TuningSystem, startingNote: string, rule: SetRule): ClassifiedTransposition[] {
  return cat.maqamat.flatMap((maqam) =>
    transpositionsOf(cat, maqam, ts, startingNote, SEARCH_TOLERANCE).map((transposition) => {
      const cells = tuningCells(transposition);
      return {
        maqam,
        transposition,
        cells: rule.cellsOf(transposition),
        tuningCells: cells,
        tuningKeys: cells.map(twelveToneKey),
        tuningPositions: cells.map((c) => rule.inOctave(c.cents)),
      };
    }),
  );
}

/**
 * Memoises a grouping per tuning system × starting note × tolerance (a scan covers every
 * maqām).
 */
export function cachedGrouping(
  name: MemoName,
  ruleFor: (cat: Catalog, ts: TuningSystem, startingNote: string) => SetRule,
): (cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number) => Grouping {
  const memo = memoOf<Grouping>(name);
  return (cat, ts, startingNote, tolerance) =>
    memo(cat)(`${ts.id}\u0000${startingNote}\u0000${tolerance}`, () => {
      const rule = ruleFor(cat, ts, startingNote);
      return groupIntoSets(classifiedTranspositions(cat, ts, startingNote, rule), rule, tolerance);
    });
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
