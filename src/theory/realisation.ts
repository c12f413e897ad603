/**
 * Realising a maqām or jins in a tuning system (taḥlīl by note-name lookup), feasibility against a
 * set of note names, and availability across tuning systems and starting notes.
 */
import type { PitchClass } from "./pitchClass.js";
import { pitchClassesOf } from "./pitchClass.js";
import type { TuningSystem } from "./tuningSystem.js";
import type { Entity } from "./entity.js";
import { memoOf } from "./caches.js";
import { attachedCache } from "./memo.js";
import type { Catalog } from "./catalog.js";

export interface Tahlil {
  /** Maqām ascending cells, or the jins cells, in pitch order. */
  ascending: PitchClass[];
  /** Maqām descending cells, top-down (empty for a jins). */
  descending: PitchClass[];
}

/** Cells of P whose names the entity lists, in pitch order; the descending list reversed. */
export function tahlilOf(entity: Entity, pcs: readonly PitchClass[]): Tahlil {
  if (entity.kind === "jins") {
    const names = new Set(entity.notes);
    return { ascending: pcs.filter((pc) => names.has(pc.noteName)), descending: [] };
  }
  const asc = new Set(entity.ascending);
  const desc = new Set(entity.descending);
  return {
    ascending: pcs.filter((pc) => asc.has(pc.noteName)),
    descending: pcs.filter((pc) => desc.has(pc.noteName)).reverse(),
  };
}

/** Every note name the entity needs. */
export const requiredNames = (entity: Entity): string[] => (entity.kind === "jins" ? entity.notes : [...entity.ascending, ...entity.descending]);

/** Feasibility is pure name membership: every required name is in the set. */
export function isPossible(entity: Entity, names: ReadonlySet<string>): boolean {
  return requiredNames(entity).every((n) => names.has(n));
}

/** Names of the 4N generated pitch classes of a tuning system × starting note (from pitchClassesOf). */
export function namesOf(pcs: readonly PitchClass[]): ReadonlySet<string> {
  return generatedNames(pcs, () => new Set(pcs.map((pc) => pc.noteName)));
}
/** Names of the pitch classes of a `pitchClasses` entry. */
const generatedNames = attachedCache<readonly PitchClass[], ReadonlySet<string>>();

const adjacentMemo = memoOf<ReadonlySet<string>>("adjacentOctaveNames");

/** A note-name set with its neighbours one octave below and above (the archive's list checks). */
export function adjacentOctaveNames(cat: Catalog, ts: TuningSystem, setIndex: number): ReadonlySet<string> {
  return adjacentMemo(cat)(`${ts.id}:${setIndex}`, () => {
    const set = ts.record.noteNames[setIndex];
    const { shiftName } = cat.notes;
    return new Set([...set.map((x) => shiftName(x, -1)), ...set, ...set.map((x) => shiftName(x, 1))]);
  });
}

/** Feasible in the adjacent-octave name set of some starting note of the tuning system. */
export const isPossibleInSomeSet = (cat: Catalog, entity: Entity, ts: TuningSystem): boolean =>
  ts.record.noteNames.some((_, i) => isPossible(entity, adjacentOctaveNames(cat, ts, i)));

/** Feasible in the requested starting note's generated pitch classes (octaves 0–3). */
export const isPossibleIn = (cat: Catalog, entity: Entity, ts: TuningSystem, startingNote: string): boolean =>
  isPossible(entity, namesOf(pitchClassesOf(cat, ts, startingNote)));

export interface Availability {
  tuningSystem: TuningSystem;
  /** Starting notes (display names) whose adjacent-octave set realises the entity, in set order. */
  startingNotes: string[];
}

/** Starting notes (display names, in set order) of one tuning system whose adjacent-octave note-name sets realise the entity. */
export function availableIn(cat: Catalog, entity: Entity, ts: TuningSystem): string[] {
  const startingNotes: string[] = [];
  ts.record.noteNames.forEach((set, i) => {
    if (isPossible(entity, adjacentOctaveNames(cat, ts, i))) startingNotes.push(set[0]);
  });
  return startingNotes;
}

/** Tuning systems (file order) and starting notes whose adjacent-octave note-name sets realise the entity. */
export function availabilityOf(cat: Catalog, entity: Entity): Availability[] {
  const result: Availability[] = [];
  for (const ts of cat.tuningSystems) {
    const startingNotes = availableIn(cat, entity, ts);
    if (startingNotes.length) result.push({ tuningSystem: ts, startingNotes });
  }
  return result;
}
