/**
 * A thread of the datasets that runs one task (scripts/datasetsPool.ts's startApart): a catalog
 * made from the facts it is given, then the task it is sent: it says when the slices a database's
 * task names first are kept (at once for any other task), posts the answer and ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createCatalog } from "../src/theory/catalog.js";
import type { ApartMessage, DatasetsTask, SliceThreadData } from "./datasetsPool.js";
import { computeFirst, runTask } from "./datasetTasks.js";

const cat = createCatalog((workerData as SliceThreadData).facts, "build");
const post = (message: ApartMessage) => parentPort?.postMessage(message);
parentPort?.once("message", async (task: DatasetsTask) => {
  if (task.kind === "database" && task.first) computeFirst(cat, task.first, task.dir);
  post({ computed: true });
  post({ answer: await runTask(cat, task) });
});
