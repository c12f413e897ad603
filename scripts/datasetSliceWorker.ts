/**
 * A thread of the datasets' pool (scripts/datasetsPool.ts), which computes the slices that are
 * missing from the facts it is given when it starts: a catalog of its own for each slice. A
 * tuning system's memos serve no other's slice, and kept they held the thread's heap at some 400 MB
 * where each slice alone needs about 150: the collector's marking of it took more time than the
 * memos saved (docs/benchmarks.md).
 */
import { workerData } from "piscina";
import { createCatalog } from "../src/theory/catalog.js";
import type { DatasetsTask, SliceThreadData } from "./datasetsPool.js";
import { runTask } from "./datasetTasks.js";

const { facts } = workerData as SliceThreadData;

export default (task: DatasetsTask) => runTask(createCatalog(facts, "build"), task);
