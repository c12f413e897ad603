/**
 * A thread of the datasets' pool (scripts/datasetsPool.ts), which computes the slices that are
 * missing: a catalog of its own, made from the facts it is given when it starts.
 */
import { workerData } from "piscina";
import { createCatalog } from "../src/theory/catalog.js";
import type { DatasetsTask, SliceThreadData } from "./datasetsPool.js";
import { runTask } from "./datasetTasks.js";

const cat = createCatalog((workerData as SliceThreadData).facts, "build");

export default (task: DatasetsTask) => runTask(cat, task);
