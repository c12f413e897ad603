// Worker threads do not inherit tsx's loader hooks, so each worker registers them itself and then
// loads the TypeScript entry named in workerData.entry.
import { register } from "tsx/esm/api";
import { workerData } from "node:worker_threads";

register();
await import(workerData.entry);
