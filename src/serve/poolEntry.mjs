// A pool thread's entry: worker threads do not inherit tsx's loader hooks, so the thread registers
// them itself and then loads the TypeScript module whose default export answers the pool's tasks.
import { register } from "tsx/esm/api";

register();
const { default: answer } = await import("./poolWorker.ts");
export default answer;
