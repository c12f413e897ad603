/**
 * The API as its OpenAPI document describes it, checked by Prism's validation proxy (a tool nobody
 * here wrote): the Node server (no pre-rendered files: every answer computed) on loopback behind
 * `prism proxy`. Prism reports, per answer, where the request or the response breaks the document
 * (`sl-violations`). Used by `npm run prism-replay` and test/prismReplay.test.ts.
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

const START_MS = 120_000;

interface Violation {
  location: string[];
  message: string;
}

/** One answer through the proxy: its status and the violations Prism lists for it. */
export interface CheckedAnswer {
  status: number;
  /** `location message` of each violation; Prism writes a sentence instead of the list past a number of them. */
  violations: string[];
}

export interface PrismProxy {
  check(pathBelowApi: string): Promise<CheckedAnswer>;
  stop(): Promise<void>;
}

/** Starts the Node server and Prism's proxy in front of it, with the document the server serves. */
export async function startPrismProxy(): Promise<PrismProxy> {
  const dir = mkdtempSync(join(tmpdir(), "prism-replay-"));
  const server = await startNodeServer({ buildDir: join(dir, "build") });
  const stopServer = async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const file = join(dir, "openapi.json");
  writeFileSync(file, await (await fetch(`${server.origin}/api/openapi.json`)).text());
  const port = await freePort();
  const prism = spawn(
    resolve(import.meta.dirname, "../node_modules/.bin/prism"),
    ["proxy", file, `${server.origin}/api`, "--port", String(port), "--host", "127.0.0.1"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let printed = "";
  const keep = (chunk: Buffer) => {
    printed += chunk.toString();
  };
  prism.stdout.on("data", keep);
  prism.stderr.on("data", keep);
  const stop = async () => {
    prism.kill("SIGTERM");
    await stopServer();
  };
  const deadline = Date.now() + START_MS;
  while (!printed.includes("Prism is listening")) {
    if (Date.now() > deadline || prism.exitCode !== null) {
      await stop();
      throw new Error(`prism proxy did not start: ${printed.slice(-500)}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  const proxy = `http://127.0.0.1:${port}`;
  return {
    async check(pathBelowApi) {
      const response = await fetch(proxy + pathBelowApi);
      await response.arrayBuffer();
      const header = response.headers.get("sl-violations") ?? "[]";
      const violations = header.startsWith("[")
        ? (JSON.parse(header) as Violation[]).map((v) => `${v.location.join(".")} ${v.message}`)
        : [header.slice(0, 300)];
      return { status: response.status, violations };
    },
    stop,
  };
}

/**
 * The violations that count: any in the response, and any in the request of a 2xx (a request the
 * document forbids that the API still answers). A request violation on a 4xx is the API agreeing.
 */
export const countedViolations = ({ status, violations }: CheckedAnswer): string[] =>
  violations.filter((v) => v.startsWith("response") || status < 300 || !v.startsWith("request"));

/** Every `step`-th recorded case and `fuzzCount` fuzz requests (fixed seed), as paths below /api. */
export function replayRequests(step: number, fuzzCount: number): string[] {
  const recorded = recordedCases()
    .filter((_, i) => i % step === 0)
    .map((c) => c.path);
  const fuzzed = fc.sample(fuzzArbitrary(createCatalog(readFacts())), { seed: 20261125, numRuns: fuzzCount }).map((g) => g.target.slice("/api".length));
  // Prism's proxy itself dies on a path that is not valid percent-encoding (a lone `%`); the API's
  // 400 to those is checked by test/errors.test.ts, so they are left out of the replay.
  const decodable = (path: string) => {
    try {
      decodeURIComponent(path.split("?")[0]);
      return true;
    } catch {
      return false;
    }
  };
  return [...recorded, ...fuzzed].filter(decodable);
}

/** Each request through the proxy; the counted violations, prefixed with status and request. */
export async function replay(proxy: PrismProxy, requests: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of requests) {
    const answer = await proxy.check(path);
    found.push(...countedViolations(answer).map((v) => `${answer.status} ${path}: ${v}`));
  }
  return found;
}
