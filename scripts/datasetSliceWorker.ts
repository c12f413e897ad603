/**
 * A thread of the datasets' pool (scripts/datasetSlices.ts): a catalog of its own, made from the
 * facts it is given when it starts; a task computes and keeps one tuning system's slice, or builds
 * the database from the slices kept and the reference tables.
 */
import { workerData } from "piscina";
import { createCatalog } from "../src/theory/catalog.js";
import { databaseOf } from "./datasetDatabase.js";
import { computeSlice, tableRowsOf, type DatabaseTask, type SliceTask, type SliceThreadData } from "./datasetSlices.js";

const cat = createCatalog((workerData as SliceThreadData).facts, "build");

export default async function run(task: SliceTask | DatabaseTask): Promise<number | undefined> {
  if (task.kind === "database") return databaseOf(tableRowsOf(cat, new Map(task.keys), task.dir), task.file);
  const ts = cat.findTuningSystem(task.tuningSystem);
  if (!ts) throw new Error(`datasets: no tuning system ${task.tuningSystem} in the facts the thread was given`);
  computeSlice(cat, ts, task.key, task.dir);
  return undefined;
}
