/**
 * `npm run serve`: serves build/ (the API's files and the site) plus the computed answers until
 * SIGINT/SIGTERM, which let answers in flight finish (DATA_DIR: another copy of the facts; pool
 * settings: POOL_THREADS, POOL_QUEUE, POOL_TIME_LIMIT_MS, POOL_HEAP_MB).
 */
import { resolve } from "node:path";
import { readFacts } from "../data/load.js";
import { DataError } from "../data/facts.js";
import { createCatalog, type Catalog } from "../theory/catalog.js";
import { startServer, stopServer, buildBaseUrl, serverState } from "./server.js";
import { listenFailure } from "./listenFailure.js";

// A fault outside any answer is written down; the server goes on answering.
process.on("uncaughtException", (e) => console.error(`uncaught exception (still serving): ${e.stack ?? e}`));
process.on("unhandledRejection", (e) => console.error(`unhandled rejection (still serving): ${(e as Error)?.stack ?? e}`));

let catalog: Catalog;
try {
  catalog = createCatalog(readFacts(process.env.DATA_DIR));
} catch (e) {
  // Invalid data is refused with the loader's message (file, record id, field).
  if (!(e instanceof DataError)) throw e;
  console.error(`refusing to start: ${e.message}`);
  process.exit(1);
}

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const buildDir = resolve(process.env.BUILD_DIR ?? "build");
const baseUrl = process.env.BASE_URL ?? buildBaseUrl(buildDir) ?? `http://localhost:${port}`;

const server = await startServer({ catalog, buildDir, baseUrl, dataDir: process.env.DATA_DIR }, port, host).catch((e: NodeJS.ErrnoException) => {
  const why = listenFailure(e, port, host);
  if (why === undefined) throw e;
  console.error(why);
  process.exit(1);
});
const pool = serverState(server)!.pool;
console.log(
  `Maqam archive at http://localhost:${port}/ and its API at /api (links use ${baseUrl}; files from ${buildDir}; ` +
    `${pool.threads} computing threads, queue ${pool.queue}, ${pool.timeLimitMs / 1000} s per computed answer)`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  const drained = await stopServer(server);
  if (!drained) console.error("stopped with answers still in flight after 10 s");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
