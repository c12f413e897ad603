/**
 * What a thread of the datasets does with a task (scripts/datasetsPool.ts): computes and keeps one
 * tuning system's slice, writes the tables' CSV and Parquet files, or builds the database, from
 * the slices kept and the reference tables, over the thread's own catalog.
 */
import type { Catalog } from "../src/theory/catalog.js";
import { databaseOf } from "./datasetDatabase.js";
import { writeTableFiles } from "./datasetFiles.js";
import { computeSlice, tableRowsOf } from "./datasetSlices.js";
import type { DatasetsAnswer, DatasetsTask } from "./datasetsPool.js";
import { listTuningSystem } from "./planListing.js";

function keepSlice(cat: Catalog, tuningSystem: string, key: string, dir: string) {
  const ts = cat.findTuningSystem(tuningSystem);
  if (!ts) throw new Error(`datasets: no tuning system ${tuningSystem} in the facts the thread was given`);
  computeSlice(cat, ts, key, dir);
  return ts;
}

/** Computes and keeps in `dir` the slices (tuning system id → key) a database's task names first. */
export function computeFirst(cat: Catalog, first: readonly [string, string][], dir: string): void {
  for (const [tuningSystem, key] of first) keepSlice(cat, tuningSystem, key, dir);
}

export async function runTask(cat: Catalog, task: DatasetsTask): Promise<DatasetsAnswer[DatasetsTask["kind"]]> {
  if (task.kind === "database") return databaseOf(tableRowsOf(cat, new Map(task.keys), task.dir), task.file, task.sizeHint);
  if (task.kind === "files") return writeTableFiles(task.apiDir, cat, new Map(task.keys), task.dirs);
  const ts = keepSlice(cat, task.tuningSystem, task.key, task.dir);
  // The planning's parts, while the slice's transpositions are in the catalog.
  return task.listing && listTuningSystem(cat, ts, task.listing);
}
