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

export async function runTask(cat: Catalog, task: DatasetsTask): Promise<DatasetsAnswer[DatasetsTask["kind"]]> {
  if (task.kind === "database") return databaseOf(tableRowsOf(cat, new Map(task.keys), task.dir), task.file, task.sizeHint);
  if (task.kind === "files") return writeTableFiles(task.apiDir, cat, new Map(task.keys), task.dirs);
  const ts = cat.findTuningSystem(task.tuningSystem);
  if (!ts) throw new Error(`datasets: no tuning system ${task.tuningSystem} in the facts the thread was given`);
  computeSlice(cat, ts, task.key, task.dir);
  return undefined;
}
