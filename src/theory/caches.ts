/**
 * Every cache a catalog owns, declared here with its bound so that the memory a long-lived
 * catalog can hold is read in one place. Memos are keyed by request parameters, some of them
 * free input (centsTolerance), so each keeps at most its limit and evicts the least recently used
 * entry. Each memo's value type is declared by the one module that fills it (`memoOf<V>(name)`);
 * values derived from an entry hang on it in that module's own `attachedCache`, so they live
 * exactly as long as the entry does.
 */
import { boundedMemo, type Memo } from "./memo.js";
import { DEFAULT_CENTS_TOLERANCE } from "./defaults.js";

/** Entries per memo. The archive has 55 tuning system × starting note pairs. */
export const MEMO_LIMITS = {
  /** 4N pitch classes per tuning system × starting note: every pair fits. */
  pitchClasses: 1024,
  /** Transposition lists per entity × tuning system × starting note at the default tolerance: all 8,250 (about 120 MB) fit. */
  transpositions: 10_000,
  /**
   * Transposition lists at any other tolerance, a number clients choose freely: about 14 KB each;
   * a maqām's modulations need the 150 lists of its tuning system × starting note, so this keeps
   * those of the last few tolerances asked for.
   */
  transpositionsAtOtherTolerances: 1_000,
  /** Adjacent-octave name sets per tuning system × note-name set (about 60). */
  adjacentOctaveNames: 1024,
  /** Modulation candidate pools per tuning system × starting note at the default tolerance: every pair fits (a pool refers to the transpositions). */
  modulationPools: 64,
  modulationPoolsAtOtherTolerances: 4,
  /**
   * Modulation graphs per tuning system × starting note at the default tolerance, also bounded by
   * bytes (MEMO_BYTE_LIMITS). Building one takes up to 2 s, so a route search must not rebuild the
   * graphs others use because a client asked for a new tolerance: free tolerances have their own.
   */
  modulationGraphs: 64,
  modulationGraphsAtOtherTolerances: 2,
  /**
   * Pitch-class-set groupings (§11.3, §11.4) per tuning system × starting note × tolerance. They
   * hold every transposition of every maqām with its cells (re-spelled for the 12-tone sets, for
   * the entries the grouping visits): at most about 1.5 MB a maqām-set grouping and 10 MB a 12-tone
   * one, 80 and 570 MB for the 55 pairs. Every
   * pair's answer at the default tolerance is pre-rendered, so the server computes few of them.
   */
  maqamSetGroupings: 16,
  twelveToneGroupings: 8,
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

/**
 * Bytes per memo, for memos whose entries differ widely in size. The edge arrays of the 55
 * modulation graphs at the default tolerance take 60 MB: six take 3.6–12 MB, the other 49 take
 * 15 MB together. 27 MB keeps every small one and the last large one; free tolerances get room
 * for the largest.
 */
export const MEMO_BYTE_LIMITS: Partial<Record<MemoName, number>> = {
  modulationGraphs: 27e6,
  modulationGraphsAtOtherTolerances: 13e6,
};

/**
 * How much a catalog keeps. A build visits every tuning system × starting note many times over
 * (each maqām's availability reads all 55), so it keeps everything MEMO_LIMITS allows. A serving
 * catalog lives as long as a server or page and answers what clients ask, most of it from files:
 * it keeps the lists of about 16 pairs, two 12-tone groupings and the graphs of every small tuning
 * system, and recomputes the rest (a pair's lists take tens of milliseconds, its graph under a
 * second). An isolate catalog (the worker) fits a host's 128 MB with its largest answer beside it.
 */
export type CacheScale = "build" | "serving" | "isolate";

const SCALED_LIMITS: Record<CacheScale, { entries: Partial<Record<MemoName, number>>; bytes: Partial<Record<MemoName, number>> }> = {
  build: { entries: {}, bytes: {} },
  serving: {
    entries: { transpositions: 2_500, transpositionsAtOtherTolerances: 300, maqamSetGroupings: 4, twelveToneGroupings: 2, analyticalForms: 16 },
    bytes: { modulationGraphs: 16e6 },
  },
  isolate: {
    entries: {
      transpositions: 1_000,
      transpositionsAtOtherTolerances: 150,
      maqamSetGroupings: 2,
      twelveToneGroupings: 1,
      analyticalForms: 8,
      availableMaqamat: 32,
      families: 32,
      modulationGraphsAtOtherTolerances: 1,
    },
    bytes: { modulationGraphs: 8e6 },
  },
};

/** Tolerances kept per transposition for its ajnās by degree. */
export const DEGREE_AJNAS_PER_TRANSPOSITION = 4;

/**
 * Entries a memo may take from work done elsewhere instead of computing them, by key, in the
 * compact form the module that fills the memo reads (a build's planning hands its render workers
 * the 12-tone groupings it made): the same values, computed from less.
 */
export type Seeds = Partial<Record<MemoName, ReadonlyMap<string, unknown>>>;

export interface Caches {
  memos: Readonly<Record<MemoName, Memo<unknown>>>;
  seeds: Seeds;
}

export function createCaches(scale: CacheScale, seeds: Seeds = {}): Caches {
  const limits: Record<MemoName, number> = { ...MEMO_LIMITS, ...SCALED_LIMITS[scale].entries };
  const byteLimits = { ...MEMO_BYTE_LIMITS, ...SCALED_LIMITS[scale].bytes };
  const memos = Object.fromEntries(Object.entries(limits).map(([name, limit]) => [name, boundedMemo<unknown>(limit, byteLimits[name as MemoName])]));
  return {
    memos: memos as Record<MemoName, Memo<unknown>>,
    seeds,
  };
}

/** A catalog's memo `name`, with the value type of the one module that fills it. */
export const memoOf =
  <V>(name: MemoName) =>
  (owner: { caches: Caches }): Memo<V> =>
    owner.caches.memos[name] as Memo<V>;

/** The seeds of a catalog's memo `name`, in the form the one module that fills it reads. */
export const seedsOf =
  <S>(name: MemoName) =>
  (owner: { caches: Caches }): ReadonlyMap<string, S> | undefined =>
    owner.caches.seeds[name] as ReadonlyMap<string, S> | undefined;

/**
 * A memo split by tolerance: entries at the default tolerance in `atDefault`, all others in
 * `atOther`, so that a stream of free tolerances evicts only its own kind.
 */
export const memoByTolerance = <V>(atDefault: MemoName, atOther: MemoName) => {
  const [byDefault, byOther] = [memoOf<V>(atDefault), memoOf<V>(atOther)];
  return (owner: { caches: Caches }, tolerance: number): Memo<V> => (tolerance === DEFAULT_CENTS_TOLERANCE ? byDefault : byOther)(owner);
};
