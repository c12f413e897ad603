/** `npm run serve`: serves build/ plus the fallback until SIGINT/SIGTERM (DATA_DIR: another copy of the facts). */
import { resolve } from "node:path";
import { readFacts } from "../data/load.js";
import { DataError } from "../data/facts.js";
import { createCatalog, type Catalog } from "../theory/catalog.js";
import { startServer, buildBaseUrl } from "./server.js";

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

const server = await startServer({ catalog, buildDir, baseUrl }, port, host);
console.log(`Maqam archive API at http://localhost:${port}/api (links use ${baseUrl}; static files from ${buildDir})`);
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
