/**
 * Every cache a catalog owns, declared here with its bound so that the memory a long-lived
 * catalog can hold is read in one place. Memos are keyed by request parameters, some of them
 * free input (centsTolerance), so each keeps at most its limit and evicts the least recently used
 * entry. Attached caches hang a derived value on an object that one of the memos holds, so an
 * entry lives exactly as long as its key does.
 */
import { boundedMemo, type Memo } from "./memo.js";
import type { PitchClass } from "./pitchClass.js";
import type { Transposition } from "./transposition.js";
import type { CandidateJins, DegreeAjnas } from "./jinsDetection.js";
import type { Modulations, Pools } from "./modulation.js";

/** Entries per memo. The archive has 55 tuning system × starting note pairs. */
export const MEMO_LIMITS = {
  /** 4N pitch classes per tuning system × starting note: every pair fits. */
  pitchClasses: 1024,
  /** Transposition lists per entity × tuning system × starting note × tolerance: every list at the default tolerance (~15k) fits. */
  transpositions: 40_000,
  /** Adjacent-octave name sets per tuning system × note-name set (about 60). */
  adjacentOctaveNames: 1024,
  /** Modulation candidate pools per tuning system × starting note × tolerance; a pool holds every transposition, so a few. */
  modulationPools: 8,
  /** Modulation graphs per tuning system × starting note × tolerance; a large one holds a few hundred thousand edges. */
  modulationGraphs: 4,
  /** Pitch-class-set groupings (§11.3, §11.4) per tuning system × starting note × tolerance. */
  maqamSetGroupings: 64,
  twelveToneGroupings: 64,
  /** `/maqamat/all` forms, per tuning system × starting note × tolerance: every pair at the default tolerance fits. */
  analyticalForms: 128,
  /** Maqāmāt available from a tuning system's starting note, per tuning system × starting note × tolerance. */
  availableMaqamat: 128,
  /** Families realised in a tuning system, per tuning system × starting note × tolerance. */
  families: 128,
  /** The list family of every maqām, per tolerance: the default and a few recent others. */
  listFamilies: 16,
} as const;

export type MemoName = keyof typeof MEMO_LIMITS;

/** Tolerances kept per transposition for its ajnās by degree. */
export const DEGREE_AJNAS_PER_TRANSPOSITION = 4;

export interface Caches {
  memos: Readonly<Record<MemoName, Memo<unknown>>>;
  /** Names of the pitch classes of a `pitchClasses` entry. */
  generatedNames: WeakMap<readonly PitchClass[], ReadonlySet<string>>;
  /** Ajnās buildable in the pitch classes of a `pitchClasses` entry (§6.1). */
  candidateAjnas: WeakMap<readonly PitchClass[], CandidateJins[]>;
  /** Ajnās by degree of a `transpositions` entry, per tolerance (at most DEGREE_AJNAS_PER_TRANSPOSITION). */
  degreeAjnas: WeakMap<Transposition, Memo<DegreeAjnas>>;
  /** Modulations of a source transposition, per `modulationPools` entry. */
  modulations: WeakMap<Pools, WeakMap<Transposition, Modulations>>;
}

export function createCaches(): Caches {
  const memos = Object.fromEntries(Object.entries(MEMO_LIMITS).map(([name, limit]) => [name, boundedMemo<unknown>(limit)]));
  return {
    memos: memos as Record<MemoName, Memo<unknown>>,
    generatedNames: new WeakMap(),
    candidateAjnas: new WeakMap(),
    degreeAjnas: new WeakMap(),
    modulations: new WeakMap(),
  };
}

/** A catalog's memo `name`, with the value type of the one module that fills it. */
export const memoOf =
  <V>(name: MemoName) =>
  (owner: { caches: Caches }): Memo<V> =>
    owner.caches.memos[name] as Memo<V>;
