/** `npm run serve`: serves build/ plus the fallback until SIGINT/SIGTERM. */
import { resolve } from "node:path";
import { validateArchive, DataError } from "../data/load.js";

// Refuse invalid data with the loader's message (file, record id, field) before anything uses it.
try {
  validateArchive();
} catch (e) {
  if (!(e instanceof DataError)) throw e;
  console.error(`refusing to start: ${e.message}`);
  process.exit(1);
}
const { startServer, buildBaseUrl } = await import("./server.js");

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const buildDir = resolve(process.env.BUILD_DIR ?? "build");
const baseUrl = process.env.BASE_URL ?? buildBaseUrl(buildDir) ?? `http://localhost:${port}`;

const server = await startServer({ buildDir, baseUrl }, port, host);
console.log(`Maqam archive API at http://localhost:${port}/api (links use ${baseUrl}; static files from ${buildDir})`);
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
