/**
 * The catalog: the archive as a value. It indexes the validated facts once and owns every cache
 * (declared with its bound in caches.ts), so request handlers are pure over the catalog in their
 * context and nothing is read or computed when a module is imported. Two catalogs share nothing.
 */
import type { Facts } from "../data/facts.js";
import type { SourceRecord, FamilyRules } from "../data/schemas.js";
import { createCaches, type Caches, type CacheScale } from "./caches.js";
import { noteNameIndex, type NoteNameIndex } from "./noteName.js";
import { tuningSystemOf, type TuningSystem } from "./tuningSystem.js";
import { maqamOf, jinsOf, entityFinder, type Maqam, type Jins, type EntityReference } from "./entity.js";

export interface Catalog {
  facts: Facts;
  notes: NoteNameIndex;
  /** In file order. */
  tuningSystems: readonly TuningSystem[];
  /** Exact idName lookup (the spec accepts only exact ids); undefined when unknown. */
  findTuningSystem(id: string): TuningSystem | undefined;
  maqamat: readonly Maqam[];
  ajnas: readonly Jins[];
  maqamById: ReadonlyMap<string, Maqam>;
  jinsById: ReadonlyMap<string, Jins>;
  /** By numeric id, idName or transposition idName in any accepted spelling; undefined when unknown. */
  findMaqam(param: string): EntityReference<Maqam> | undefined;
  findJins(param: string): EntityReference<Jins> | undefined;
  sources: readonly SourceRecord[];
  familyRules: FamilyRules;
  caches: Caches;
}

/** `scale`: how much the catalog keeps (caches.ts); a build keeps everything, anything long-lived serves. */
export function createCatalog(facts: Facts, scale: CacheScale = "serving"): Catalog {
  const notes = noteNameIndex(facts.noteNames);
  const tuningSystems = facts.tuningSystems.map(tuningSystemOf);
  const byId = new Map(tuningSystems.map((ts) => [ts.id, ts]));
  const maqamat = facts.maqamat.map(maqamOf);
  const ajnas = facts.ajnas.map(jinsOf);
  return {
    facts,
    notes,
    tuningSystems,
    findTuningSystem: (id) => byId.get(id),
    maqamat,
    ajnas,
    maqamById: new Map(maqamat.map((m) => [m.id, m])),
    jinsById: new Map(ajnas.map((j) => [j.id, j])),
    findMaqam: entityFinder(maqamat, notes),
    findJins: entityFinder(ajnas, notes),
    sources: facts.sources,
    familyRules: facts.familyRules,
    caches: createCaches(scale),
  };
}
