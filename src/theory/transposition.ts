/**
 * Transposition (taswīr): every tonic on which a maqām or jins keeps its interval pattern in a
 * tuning system × starting note, found by matching consecutive intervals within a tolerance.
 * The first entry of the list is the analytical form (taḥlīl); octave renderings of it keep
 * `isTransposed=false` but carry the tonic in their name.
 */
import type { PitchClass } from "./pitchClass.js";
import { pitchClassesOf } from "./pitchClass.js";
import { NONE, type NoteNameIndex } from "./noteName.js";
import type { TuningSystem } from "./tuningSystem.js";
import { type Entity, firstNoteOf, transpositionDisplayName, transpositionIdName } from "./entity.js";
import { tahlilOf } from "./realisation.js";
import { memoByTolerance } from "./caches.js";
import { DEFAULT_CENTS_TOLERANCE } from "./defaults.js";
import type { Catalog } from "./catalog.js";

export interface Transposition {
  /** Display name: the data name for the taḥlīl, else `<name> al-<tonic>`. */
  name: string;
  /** idName: the base idName for the taḥlīl, else `<base>_al_<tonic>`. */
  idName: string;
  /** Display note name of the first ascending cell. */
  tonic: string;
  /** The tonic is in another modal slot than the data tonic (octave renderings are not transposed). */
  isTransposed: boolean;
  /** This entry is the analytical form itself. */
  isBaseForm: boolean;
  /** Ascending cells (maqām) or the jins cells. */
  ascending: PitchClass[];
  /** Descending cells, top-down (empty for a jins). */
  descending: PitchClass[];
}

/** Consecutive intervals in cents (later − earlier); negative going down. */
export function intervalPattern(cells: readonly PitchClass[]): number[] {
  const pattern: number[] = [];
  for (let i = 1; i < cells.length; i++) pattern.push(cells[i].cents - cells[i - 1].cents);
  return pattern;
}

/**
 * At most one sequence per start cell: depth-first, candidates closest to the target interval
 * first (stable), stopping a scan once the interval overshoots the target plus tolerance.
 */
export function matchingSequences(cells: readonly PitchClass[], pattern: readonly number[], tolerance: number): PitchClass[][] {
  const extend = (sequence: PitchClass[], from: number, k: number): PitchClass[] | undefined => {
    if (k === pattern.length) return sequence;
    const last = sequence[sequence.length - 1];
    const target = pattern[k];
    const candidates: { j: number; deviation: number }[] = [];
    for (let j = from; j < cells.length; j++) {
      const c = cells[j].cents - last.cents;
      const deviation = Math.abs(c - target);
      if (deviation <= tolerance) candidates.push({ j, deviation });
      else if (Math.abs(target) + tolerance < Math.abs(c)) break;
    }
    candidates.sort((a, b) => a.deviation - b.deviation);
    for (const { j } of candidates) {
      const found = extend([...sequence, cells[j]], j + 1, k + 1);
      if (found) return found;
    }
    return undefined;
  };
  const sequences: PitchClass[][] = [];
  for (let i = 0; i < cells.length; i++) {
    const found = extend([cells[i]], i + 1, 0);
    if (found) sequences.push(found);
  }
  return sequences;
}

interface Candidate {
  ascending: PitchClass[];
  descending: PitchClass[];
}

function candidatesOf(entity: Entity, pcs: readonly PitchClass[], tolerance: number): Candidate[] {
  const tahlil = tahlilOf(entity, pcs);
  const named = pcs.filter((pc) => pc.noteName !== NONE);
  if (entity.kind === "jins") {
    if (entity.notes.length < 2 || tahlil.ascending.length === 0) return [];
    return matchingSequences(named, intervalPattern(tahlil.ascending), tolerance).map((ascending) => ({ ascending, descending: [] }));
  }
  if (entity.ascending.length < 2 || entity.descending.length < 2) return [];
  if (tahlil.ascending.length === 0 || tahlil.descending.length === 0) return [];
  const ascendingSequences = matchingSequences(named, intervalPattern(tahlil.ascending), tolerance);
  const descendingSequences = matchingSequences([...named].reverse(), intervalPattern(tahlil.descending), tolerance);
  const pairs: Candidate[] = [];
  for (const ascending of ascendingSequences) {
    const descending = descendingSequences.find((d) => d[d.length - 1].noteName === ascending[0].noteName);
    if (descending) pairs.push({ ascending, descending });
  }
  return pairs;
}

function computeTranspositions(notes: NoteNameIndex, entity: Entity, pcs: readonly PitchClass[], tolerance: number): Transposition[] {
  if (pcs.length === 0) return [];
  const dataTonic = firstNoteOf(entity);
  const pairs = candidatesOf(entity, pcs, tolerance);
  const base = pairs.find((p) => p.ascending[0].noteName === dataTonic) ?? pairs.find((p) => notes.sameSlot(p.ascending[0].noteName, dataTonic));
  const entry = (p: Candidate): Transposition => {
    const tonic = p.ascending[0].noteName;
    const isBaseForm = p === base;
    return {
      name: isBaseForm ? entity.name : transpositionDisplayName(entity, tonic),
      idName: isBaseForm ? entity.idName : transpositionIdName(entity, tonic),
      tonic,
      isTransposed: !isBaseForm && !notes.sameSlot(dataTonic, tonic),
      isBaseForm,
      ascending: p.ascending,
      descending: p.descending,
    };
  };
  return base ? [entry(base), ...pairs.filter((p) => p !== base).map(entry)] : pairs.map(entry);
}

const transpositionMemo = memoByTolerance<Transposition[]>("transpositions", "transpositionsAtOtherTolerances");

/**
 * The transposition list of an entity in a tuning system × starting note (display name):
 * the taḥlīl first (when the data tonic's slot is reachable), then every other tonic in pitch
 * order. Computed once per entity × tuning system × starting note × tolerance.
 */
export function transpositionsOf(
  cat: Catalog,
  entity: Entity,
  ts: TuningSystem,
  startingNote: string,
  tolerance = DEFAULT_CENTS_TOLERANCE,
): readonly Transposition[] {
  const key = `${entity.kind}:${entity.id}:${ts.id}:${startingNote}:${tolerance}`;
  return transpositionMemo(cat, tolerance)(key, () => computeTranspositions(cat.notes, entity, pitchClassesOf(cat, ts, startingNote), tolerance));
}

/** The genuinely transposed entries (other modal degrees), in pitch order. */
export const transposedOnly = (list: readonly Transposition[]): Transposition[] => list.filter((t) => t.isTransposed);
