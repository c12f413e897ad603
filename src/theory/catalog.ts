/**
 * The catalog: the archive as a value. It indexes the validated facts once and owns every cache
 * (declared with its bound in caches.ts), so request handlers are pure over the catalog in their
 * context and nothing is read or computed when a module is imported. Two catalogs share nothing.
 */
import { DataError, FACT_FILES, type Facts } from "../data/facts.js";
import type { SourceRecord, FamilyRules } from "../data/schemas.js";
import { createCaches, type Caches, type CacheScale, type Seeds } from "./caches.js";
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

/**
 * Refuses facts where two records derive the same id: lookups would find one of them while lists
 * show both. Named like any invalid fact (file, both records, the shared id), so nothing starts.
 */
function refuseSharedIds(file: string, records: readonly { record: string; derived: string }[], from: string): void {
  const first = new Map<string, string>();
  const problems: string[] = [];
  for (const { record, derived } of records) {
    const earlier = first.get(derived);
    if (earlier) problems.push(`${file} records ${earlier} and ${record} both derive the id '${derived}' (from ${from}); each must be unique`);
    else first.set(derived, record);
  }
  if (problems.length) throw new DataError(`invalid data:\n  ${problems.join("\n  ")}`);
}

/**
 * `scale`: how much the catalog keeps (caches.ts); a build keeps everything, anything long-lived
 * serves. `seeds`: memo entries made from work done elsewhere on the same facts (caches.ts).
 */
export function createCatalog(facts: Facts, scale: CacheScale = "serving", seeds?: Seeds): Catalog {
  const notes = noteNameIndex(facts.noteNames);
  const tuningSystems = facts.tuningSystems.map(tuningSystemOf);
  const byId = new Map(tuningSystems.map((ts) => [ts.id, ts]));
  const maqamat = facts.maqamat.map(maqamOf);
  const ajnas = facts.ajnas.map(jinsOf);
  refuseSharedIds(
    FACT_FILES.tuningSystems,
    tuningSystems.map((ts) => ({ record: `'${ts.record.id}'`, derived: ts.id })),
    "creatorEnglish and year",
  );
  for (const [file, entities] of [
    [FACT_FILES.maqamat, maqamat],
    [FACT_FILES.ajnas, ajnas],
  ] as const)
    refuseSharedIds(
      file,
      entities.map((e) => ({ record: `'${e.id}' (${e.name})`, derived: e.idName })),
      "name",
    );
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
    caches: createCaches(scale, seeds),
  };
}
