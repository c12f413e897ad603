// A thread of the datasets' pool: worker threads do not inherit tsx's loader hooks, so
// the thread registers them itself and then loads the TypeScript module whose default export runs a task.
import { register } from "tsx/esm/api";

register();
const { default: run } = await import("./datasetSliceWorker.ts");
export default run;
