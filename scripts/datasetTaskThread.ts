/**
 * A thread of the datasets that runs one task (scripts/datasetsPool.ts's startApart): a catalog
 * made from the facts it is given, then the task it is sent; it posts the answer and ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createCatalog } from "../src/theory/catalog.js";
import type { DatasetsTask, SliceThreadData } from "./datasetsPool.js";
import { runTask } from "./datasetTasks.js";

const cat = createCatalog((workerData as SliceThreadData).facts, "build");
parentPort?.once("message", async (task: DatasetsTask) => parentPort?.postMessage(await runTask(cat, task)));
