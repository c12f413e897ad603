/**
 * `npm run prism-replay`: the API as its OpenAPI document describes it, checked by Prism's
 * validation proxy (a tool nobody here wrote). The Node server (no pre-rendered files: every
 * answer computed) runs behind `prism proxy`; a slice of the recorded cases and of the fuzz
 * requests is replayed through it. Prism reports, per answer, where the request or the response
 * breaks the document (`sl-violations`); an answer that breaks it, or a request the document
 * forbids that still gets a 2xx, is a violation. Prints each and their count; exit 1 when any.
 *
 * Usage: npm run prism-replay [-- --step 10 --fuzz 80]   (every step-th recorded case, fuzz requests)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { createCatalog } from "../src/theory/catalog.js";
import { readFacts } from "../src/data/load.js";
import { fuzzArbitrary } from "./fuzz.js";
import { freePort } from "./freePort.js";
import { startNodeServer } from "./runtimes.js";
import { recordedCases } from "../test/support/recorded.js";

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const step = option("step", 10);
const fuzzCount = option("fuzz", 80);

interface Violation {
  location: string[];
  message: string;
}

const dir = mkdtempSync(join(tmpdir(), "prism-replay-"));
const server = await startNodeServer({ buildDir: join(dir, "build") });
const document = await (await fetch(`${server.origin}/api/openapi.json`)).text();
const file = join(dir, "openapi.json");
writeFileSync(file, document);
const port = await freePort();
const prism = spawn(
  resolve(import.meta.dirname, "../node_modules/.bin/prism"),
  ["proxy", file, `${server.origin}/api`, "--port", String(port), "--host", "127.0.0.1"],
  {
    stdio: ["ignore", "pipe", "pipe"],
  },
);
let printed = "";
prism.stdout.on("data", (chunk: Buffer) => {
  printed += chunk.toString();
});
prism.stderr.on("data", (chunk: Buffer) => {
  printed += chunk.toString();
});
const deadline = Date.now() + 120_000;
while (!printed.includes("Prism is listening")) {
  if (Date.now() > deadline) throw new Error(`prism proxy did not start: ${printed.slice(-500)}`);
  await new Promise((done) => setTimeout(done, 200));
}
const proxy = `http://127.0.0.1:${port}`;

/** The violations of one request through the proxy that count: any of the response, any on a 2xx. */
async function violationsOf(pathBelowApi: string): Promise<string[]> {
  const response = await fetch(proxy + pathBelowApi);
  await response.arrayBuffer();
  const header = response.headers.get("sl-violations") ?? "[]";
  // Past a number of violations Prism writes a sentence instead of the list.
  if (!header.startsWith("[")) return [`${response.status} ${pathBelowApi}: ${header.slice(0, 300)}`];
  return (JSON.parse(header) as Violation[])
    .filter((v) => v.location[0] === "response" || response.status < 300)
    .map((v) => `${response.status} ${pathBelowApi}: ${v.location.join(".")} ${v.message}`);
}

const recorded = recordedCases()
  .filter((_, i) => i % step === 0)
  .map((c) => c.path);
const catalog = createCatalog(readFacts());
const fuzzed = fc.sample(fuzzArbitrary(catalog), { seed: 20261125, numRuns: fuzzCount }).map((g) => g.target.slice("/api".length));
const violations: string[] = [];
let requestsWithViolations = 0;
try {
  for (const path of [...recorded, ...fuzzed]) {
    const found = await violationsOf(path);
    if (found.length) requestsWithViolations++;
    violations.push(...found);
  }
} finally {
  prism.kill("SIGTERM");
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
for (const v of violations) console.log(v);
console.log(
  `prism-replay: ${recorded.length} recorded and ${fuzzed.length} fuzz requests, ${requestsWithViolations} with violations (${violations.length} violations)`,
);
process.exit(violations.length ? 1 : 0);
