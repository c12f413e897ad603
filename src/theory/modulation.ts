/**
 * Modulations (intiqālāt) after al-Shawwā (1946): which maqāmāt and ajnās a maqām transposition
 * may move to, by the degree of the source scale the new tonic stands on (I, III, IV, V, VI),
 * with the alternative third (a two-part note below the third) and the sixth when there is no third.
 */
import type { NoteNameIndex } from "./noteName.js";
import { memoByTolerance } from "./caches.js";
import { attachedCache } from "./memo.js";
import type { Catalog } from "./catalog.js";
import type { ShawwaClass } from "../data/schemas.js";
import { pitchClassesOf, type PitchClass } from "./pitchClass.js";
import { pitchClassesPerOctave, type TuningSystem } from "./tuningSystem.js";
import { type Entity, type Maqam, transpositionDisplayName, transpositionIdName } from "./entity.js";
import { tahlilOf, isPossible, namesOf } from "./realisation.js";
import { transpositionsOf, type Transposition } from "./transposition.js";

/** The eight lists of a modulation block, in output order. */
export const MODULATION_CATEGORIES = [
  "firstDegree",
  "thirdDegree",
  "altThirdDegree",
  "fourthDegree",
  "fifthDegree",
  "sixthDegreeAsc",
  "sixthDegreeDesc",
  "sixthDegreeIfNoThird",
] as const;
export type ModulationCategory = (typeof MODULATION_CATEGORIES)[number];

/** A maqām or jins rendering one may modulate to: the entity and its realisation on a tonic. */
export interface ModulationTarget {
  entity: Entity;
  transposition: Transposition;
}

/** The eight lists; they may share arrays with the cache, so they are read-only. */
export type ModulationLists = Record<ModulationCategory, readonly ModulationTarget[]>;

export interface Modulations {
  maqamat: ModulationLists;
  ajnas: ModulationLists;
  /** Display name of the first two-part note at or below the third, or `""`. */
  noteName2pBelowThird: string;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const namesOfCells = (cells: readonly PitchClass[]): string[] => cells.map((pc) => pc.noteName);

// ---------------------------------------------------------------------------------------------
// al-Shawwā positions

/** Class of a scale degree; a degree the scale does not have is outside the framework. */
const classOf = (notes: NoteNameIndex, name: string | undefined): ShawwaClass => (name === undefined ? "/" : notes.shawwaClassOf(name));

/**
 * The first two-part note walking down the tuning from the third degree (the third itself
 * included), never below octave 1; `""` when there is none or the third lies below octave 1.
 */
export function twoPartNoteBelowThird(notes: NoteNameIndex, third: string | undefined, pcs: readonly PitchClass[], perOctave: number): string {
  const t3 = third === undefined ? -1 : pcs.findIndex((pc) => pc.noteName === third);
  if (t3 < perOctave) return "";
  for (let i = t3; i >= perOctave; i--) if (notes.shawwaClassOf(pcs[i].noteName) === "2p") return pcs[i].noteName;
  return "";
}

/** What the degree rules need to know about the source scale. */
interface SourceDegrees {
  /** Ascending note names. */
  a: string[];
  /** Descending note names read bottom-up. */
  dB: string[];
  noteName2pBelowThird: string;
  /** The two-part note is a genuine alternative third: six positions above I, two above II. */
  check2p: boolean;
  checkSixAsc: boolean;
  checkSixDesc: boolean;
  /** VI is a natural note 16 or 17 positions above I. */
  checkSixNoThird: boolean;
}

function sourceDegreesOf(notes: NoteNameIndex, source: Transposition, pcs: readonly PitchClass[], perOctave: number): SourceDegrees {
  const { shawwaPosition } = notes;
  const a = namesOfCells(source.ascending);
  const dB = namesOfCells(source.descending).reverse();
  const noteName2pBelowThird = twoPartNoteBelowThird(notes, a[2], pcs, perOctave);
  const p2 = shawwaPosition(noteName2pBelowThird);
  const sixthAbove = shawwaPosition(a[5]) - shawwaPosition(a[0]);
  return {
    a,
    dB,
    noteName2pBelowThird,
    check2p: noteName2pBelowThird !== "" && p2 - shawwaPosition(a[0]) === 6 && p2 - shawwaPosition(a[1]) === 2,
    checkSixAsc: classOf(notes, a[4]) === "n" && classOf(notes, a[6]) === "n",
    checkSixDesc: classOf(notes, dB[4]) === "n" && classOf(notes, dB[6]) === "n",
    checkSixNoThird: (sixthAbove === 16 || sixthAbove === 17) && classOf(notes, a[5]) === "n",
  };
}

// ---------------------------------------------------------------------------------------------
// Candidates

interface Candidate extends ModulationTarget {
  /** The entity realised by note-name lookup rather than taken from its transposition list. */
  byLookup: boolean;
}

/** The candidates of one mode on one tonic, in candidate order. */
interface CandidateGroup {
  candidates: Candidate[];
  /** Entities present, to skip the per-source filter when the source's maqām is absent. */
  entities: Set<Entity>;
  lookups: Candidate[];
}

/** Candidates of one mode grouped by tonic. */
type CandidatePool = Map<string, CandidateGroup>;

/** The analytical form by note-name lookup, shaped like a transposition-list entry. */
function lookupRealisation(entity: Entity, pcs: readonly PitchClass[]): Transposition {
  const { ascending, descending } = tahlilOf(entity, pcs);
  return { name: entity.name, idName: entity.idName, tonic: ascending[0]?.noteName ?? "", isTransposed: false, isBaseForm: true, ascending, descending };
}

const dataNamesOf = (entity: Entity): string[] => (entity.kind === "maqam" ? entity.ascending : entity.notes);

/**
 * Every realisable entity's lookup form, then its transpositions except the one that repeats the
 * lookup form note for note; which of them a given source may use is decided per source.
 */
function candidatePool(cat: Catalog, entities: readonly Entity[], ts: TuningSystem, startingNote: string, tolerance: number): CandidatePool {
  const pcs = pitchClassesOf(cat, ts, startingNote);
  const names = namesOf(pcs);
  const pool: CandidatePool = new Map();
  const add = (c: Candidate) => {
    let group = pool.get(c.transposition.tonic);
    if (!group) {
      group = { candidates: [], entities: new Set(), lookups: [] };
      pool.set(c.transposition.tonic, group);
    }
    group.candidates.push(c);
    group.entities.add(c.entity);
    if (c.byLookup) group.lookups.push(c);
  };
  for (const entity of entities) {
    if (!isPossible(entity, names)) continue;
    add({ entity, transposition: lookupRealisation(entity, pcs), byLookup: true });
    for (const transposition of transpositionsOf(cat, entity, ts, startingNote, tolerance))
      if (!sameList(namesOfCells(transposition.ascending), dataNamesOf(entity))) add({ entity, transposition, byLookup: false });
  }
  return pool;
}

export interface Pools {
  maqamat: CandidatePool;
  ajnas: CandidatePool;
}

const poolsMemo = memoByTolerance<Pools>("modulationPools", "modulationPoolsAtOtherTolerances");
const poolsOf = (cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number): Pools =>
  poolsMemo(cat, tolerance)(`${ts.id}\u0000${startingNote}\u0000${tolerance}`, () => ({
    maqamat: candidatePool(cat, cat.maqamat, ts, startingNote, tolerance),
    ajnas: candidatePool(cat, cat.ajnas, ts, startingNote, tolerance),
  }));

/**
 * Candidates on `tonic` a source may modulate to. The source's own scale is never a target: a
 * lookup form whose names are the source's, and the source's own maqām on the source's tonic.
 */
function candidatesOn(pool: CandidatePool, tonic: string | undefined, sourceMaqam: Maqam | undefined, a: readonly string[]): readonly Candidate[] {
  const group = tonic === undefined ? undefined : pool.get(tonic);
  if (!group) return [];
  const isSourceScale = (c: Candidate) => c.byLookup && sameList(dataNamesOf(c.entity), a);
  const isSource = (c: Candidate) => c.entity === sourceMaqam && c.transposition.tonic === a[0];
  // Most groups hold neither; they are shared as they are (every graph node asks for eight).
  const mayHoldSource = tonic === a[0] && sourceMaqam !== undefined && group.entities.has(sourceMaqam);
  if (!mayHoldSource && !group.lookups.some(isSourceScale)) return group.candidates;
  return group.candidates.filter((c) => !isSourceScale(c) && !isSource(c));
}

// ---------------------------------------------------------------------------------------------
// Degree rules

/**
 * The eight lists for one mode. Each list holds candidates on one tonic, so candidate order is
 * kept by taking that tonic's group. III, the alternative III and VI-if-no-III form one if/else
 * chain per candidate; then the alternatives are emptied when a real third exists.
 */
function degreeLists(notes: NoteNameIndex, pool: CandidatePool, source: SourceDegrees, sourceMaqam: Maqam | undefined): ModulationLists {
  const { a, dB, noteName2pBelowThird } = source;
  const on = (tonic: string | undefined) => candidatesOn(pool, tonic, sourceMaqam, a);
  const thirdIsFramed = classOf(notes, a[2]) !== "/";
  const isThird = (tonic: string) => thirdIsFramed && tonic === a[2];
  const isAltThird = (tonic: string) => !isThird(tonic) && source.check2p && tonic === noteName2pBelowThird;

  const thirdDegree = thirdIsFramed ? on(a[2]) : [];
  const altThirdDegree = source.check2p && !isThird(noteName2pBelowThird) ? on(noteName2pBelowThird) : [];
  const sixthIfNoThird = source.checkSixNoThird && a[5] !== undefined && !isThird(a[5]) && !isAltThird(a[5]) ? on(a[5]) : [];
  return {
    firstDegree: on(a[0]),
    thirdDegree,
    altThirdDegree: thirdDegree.length ? [] : altThirdDegree,
    fourthDegree: classOf(notes, a[3]) !== "/" ? on(a[3]) : [],
    fifthDegree: classOf(notes, a[4]) !== "/" ? on(a[4]) : [],
    sixthDegreeAsc: source.checkSixAsc ? on(a[5]) : [],
    sixthDegreeDesc: source.checkSixDesc ? on(dB[5]) : [],
    sixthDegreeIfNoThird: thirdDegree.length || altThirdDegree.length ? [] : sixthIfNoThird,
  };
}

function sourceOf(cat: Catalog, source: Transposition, ts: TuningSystem, startingNote: string): SourceDegrees {
  return sourceDegreesOf(cat.notes, source, pitchClassesOf(cat, ts, startingNote), pitchClassesPerOctave(ts));
}

/** The maqāmāt a maqām transposition may modulate to (the route graph needs only these). */
export function maqamModulationsOf(
  cat: Catalog,
  maqam: Maqam,
  source: Transposition,
  ts: TuningSystem,
  startingNote: string,
  tolerance: number,
): ModulationLists {
  return degreeLists(cat.notes, poolsOf(cat, ts, startingNote, tolerance).maqamat, sourceOf(cat, source, ts, startingNote), maqam);
}

/**
 * Maqāmāt and ajnās a maqām transposition (an entry of its transposition list, with the same
 * tolerance) may modulate to, per degree rule. Cached per tuning system × starting note ×
 * tolerance and source.
 */
export function modulationsOf(cat: Catalog, maqam: Maqam, source: Transposition, ts: TuningSystem, startingNote: string, tolerance: number): Modulations {
  const pools = poolsOf(cat, ts, startingNote, tolerance);
  return modulationCache(pools, () => attachedCache<Transposition, Modulations>())(source, () => {
    const degrees = sourceOf(cat, source, ts, startingNote);
    return {
      maqamat: degreeLists(cat.notes, pools.maqamat, degrees, maqam),
      ajnas: degreeLists(cat.notes, pools.ajnas, degrees, undefined),
      noteName2pBelowThird: degrees.noteName2pBelowThird,
    };
  });
}
/** Modulations of a source transposition, per `modulationPools` entry. */
const modulationCache = attachedCache<Pools, (source: Transposition, compute: () => Modulations) => Modulations>();

/** An object with one value per category, in output order. */
export function perCategory<T>(value: (category: ModulationCategory) => T): Record<ModulationCategory, T> {
  return Object.fromEntries(MODULATION_CATEGORIES.map((k) => [k, value(k)])) as Record<ModulationCategory, T>;
}

/** Summed length of the eight lists. */
export const modulationCount = (lists: ModulationLists): number => MODULATION_CATEGORIES.reduce((n, k) => n + lists[k].length, 0);

/**
 * `stats.numberOfMaqamModulations` / `numberOfAjnasModulations`: counted on the analytical form
 * (transposition-list entry 0) whatever rendering is displayed; 0 when the maqām has no rendering.
 */
export function modulationCounts(cat: Catalog, maqam: Maqam, ts: TuningSystem, startingNote: string, tolerance: number): { maqamat: number; ajnas: number } {
  const tahlil = transpositionsOf(cat, maqam, ts, startingNote, tolerance)[0];
  if (!tahlil) return { maqamat: 0, ajnas: 0 };
  const m = modulationsOf(cat, maqam, tahlil, ts, startingNote, tolerance);
  return { maqamat: modulationCount(m.maqamat), ajnas: modulationCount(m.ajnas) };
}

// ---------------------------------------------------------------------------------------------
// One octave lower (includeModulations8vb)

/** The same cells one octave down, or undefined when one falls below the tuning's octave 0. */
function octaveBelow(cells: readonly PitchClass[], pcs: readonly PitchClass[], perOctave: number): PitchClass[] | undefined {
  const lowered: PitchClass[] = [];
  for (const pc of cells) {
    const k = pc.octave * perOctave + pc.index - perOctave;
    if (k < 0) return undefined;
    lowered.push(pcs[k]);
  }
  return lowered;
}

/**
 * A target moved down an octave and renamed on its new tonic. The name is the entity's name with
 * `al-<tonic>`, so it is always `<base>_al_<tonic>` (the reference cut names at their first
 * ` al-`, which mangled `rāḥat al-arwāḥ`). `isTransposed` keeps the original flag.
 */
function targetOctaveBelow(target: ModulationTarget, pcs: readonly PitchClass[], perOctave: number): ModulationTarget | undefined {
  const ascending = octaveBelow(target.transposition.ascending, pcs, perOctave);
  const descending = octaveBelow(target.transposition.descending, pcs, perOctave);
  if (!ascending || !descending || ascending.length === 0) return undefined;
  const tonic = ascending[0].noteName;
  return {
    entity: target.entity,
    transposition: {
      name: transpositionDisplayName(target.entity, tonic),
      idName: transpositionIdName(target.entity, tonic),
      tonic,
      isTransposed: target.transposition.isTransposed,
      isBaseForm: false,
      ascending,
      descending,
    },
  };
}

function listsOctaveBelow(lists: ModulationLists, pcs: readonly PitchClass[], perOctave: number): ModulationLists {
  const lowered = (targets: readonly ModulationTarget[]) =>
    targets.flatMap((t) => {
      const low = targetOctaveBelow(t, pcs, perOctave);
      return low ? [low] : [];
    });
  return perCategory((k) => lowered(lists[k]));
}

/** Every modulation target one octave lower; targets that would leave the tuning are dropped. */
export function lowerOctaveModulations(
  cat: Catalog,
  modulations: Modulations,
  ts: TuningSystem,
  startingNote: string,
): { maqamat: ModulationLists; ajnas: ModulationLists } {
  const pcs = pitchClassesOf(cat, ts, startingNote);
  const n = pitchClassesPerOctave(ts);
  return { maqamat: listsOctaveBelow(modulations.maqamat, pcs, n), ajnas: listsOctaveBelow(modulations.ajnas, pcs, n) };
}
