/**
 * A thread of the Node server's pool (src/serve/pool.ts): answers the requests no file answers with
 * the web handler over a catalog of its own, made when the thread starts, at the cache scale the
 * pool names. The main thread sends the request's target, method and the two headers an answer
 * depends on; the answer goes back as status, header list and body.
 */
import { setPriority } from "node:os";
import { workerData } from "piscina";
import { readFacts } from "../data/load.js";
import { createCatalog } from "../theory/catalog.js";
import type { CacheScale } from "../theory/caches.js";
import { handleRequest } from "./handler.js";
import { requestUrl } from "./nodeRequest.js";
import type { ComputeTask, ComputedAnswer, PoolThreadData } from "./pool.js";

const setup = workerData as PoolThreadData;
// On Linux, pid 0 names the calling thread: this thread yields the cores to the main thread, which
// answers files (piscina's own niceIncrement needs an optional native package).
try {
  setPriority(0, setup.nice);
} catch (e) {
  console.error(`pool: could not lower a computing thread's priority: ${(e as Error).message}`);
}
const catalog = createCatalog(readFacts(setup.dataDir), setup.scale satisfies CacheScale);

export default async function answer(task: ComputeTask): Promise<ComputedAnswer> {
  if (task.warm) return { status: 204, headers: [] };
  const headers = new Headers();
  if (task.acceptEncoding !== undefined) headers.set("accept-encoding", task.acceptEncoding);
  if (task.ifNoneMatch !== undefined) headers.set("if-none-match", task.ifNoneMatch);
  const response = await handleRequest(new Request(requestUrl(task.target), { method: task.method, headers }), {
    catalog,
    baseUrl: setup.baseUrl,
    compress: true,
  });
  const list: string[] = [];
  response.headers.forEach((value, name) => {
    list.push(name, value);
  });
  return { status: response.status, headers: list, body: response.body ? new Uint8Array(await response.arrayBuffer()) : undefined };
}
