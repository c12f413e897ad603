/** What `npm run bench` measures with: load, start-up, compression cost and latency over one server. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import autocannon from "autocannon";
import { readFacts } from "../src/data/load.js";
import { tuningSystemOf } from "../src/theory/tuningSystem.js";
import { toIdName } from "../src/theory/idName.js";
import { percentile } from "./bench-routes.js";

/** Passes over every tuning system × starting note after the cold one, in allMaqamatLatency. */
export const ALL_WARM_PASSES = 5;

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export async function hammer(base: string, paths: string[], connections: number, seconds: number): Promise<Measured> {
  const r = await autocannon({
    url: base,
    connections,
    duration: seconds,
    timeout: 20,
    requests: paths.map((path) => ({ method: "GET", path })),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

export async function startAndWait(cwd: string, name: string, cmd: string, args: string[], probe: string, env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(probe).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`bench: ${name} did not answer ${probe}`);
}

export const stop = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });

export interface CompressionCost {
  name: string;
  mbPerSecond: number;
  ratio: number;
}

/**
 * Compression speed and size on the same files over 1 KB, spread over the whole tree (6 MB, so
 * that brotli 11 takes a few seconds); faster methods repeat the pass for at least a second.
 */
export function compressionCosts(buildDir: string, files: string[]): CompressionCost[] {
  const stride = Math.max(1, Math.floor(files.length / 2000));
  const bodies: Buffer[] = [];
  let total = 0;
  for (let i = 0; i < files.length && total < 6e6; i += stride) {
    const b = readFileSync(join(buildDir, "api", files[i]));
    if (b.length <= 1024) continue;
    bodies.push(b);
    total += b.length;
  }
  const br = (q: number) => (b: Buffer) => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: q, [zlib.BROTLI_PARAM_SIZE_HINT]: b.length } });
  const methods: [string, (b: Buffer) => Buffer][] = [
    ["gzip -6 (written)", (b) => gzipSync(b, { level: 6 })],
    ["gzip -9", (b) => gzipSync(b, { level: 9 })],
    ["brotli 5 (PRECOMPRESS=gzip,br)", br(5)],
    ["brotli 11", br(11)],
  ];
  return methods.map(([name, fn]) => {
    const started = performance.now();
    let out = 0;
    let passes = 0;
    do {
      out = bodies.reduce((sum, b) => sum + fn(b).length, 0);
      passes++;
    } while (performance.now() - started < 1000);
    const s = (performance.now() - started) / 1000;
    return { name, mbPerSecond: (total * passes) / 1e6 / s, ratio: out / total };
  });
}

/** Each path once, in turn, before anything warmed the caches its answer needs: median and slowest ms. */
export async function coldLatency(base: string, paths: string[]): Promise<{ median: number; max: number }> {
  const times: number[] = [];
  for (const path of paths) {
    const started = performance.now();
    const r = await fetch(base + path);
    await r.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), max: times.at(-1)! };
}

export interface Spread {
  median: number;
  worst: number;
  worstPath: string;
}

function spreadOf(samples: { path: string; ms: number }[]): Spread {
  const sorted = [...samples].sort((a, b) => a.ms - b.ms);
  const worst = sorted.at(-1)!;
  return {
    median: percentile(
      sorted.map((s) => s.ms),
      0.5,
    ),
    worst: worst.ms,
    worstPath: worst.path,
  };
}

export interface AllMaqamatFigures {
  pairs: number;
  cold: Spread;
  warm: Spread;
  /** Answers that were not a computed 200 (there should be none). */
  failures: string[];
  largestBytes: number;
  encoding: string;
}

/**
 * GET /maqamat/all for every tuning system × starting note, one request at a time, client-measured
 * until the whole body is read: first each pair once (cold: it pays for that pair's analytical
 * forms), then ALL_WARM_PASSES more passes over every pair (warm).
 */
export async function allMaqamatLatency(base: string): Promise<AllMaqamatFigures> {
  const paths = readFacts()
    .tuningSystems.map(tuningSystemOf)
    .flatMap((ts) =>
      ts.startingNotes.map((note) => `/api/maqamat/all?tuningSystem=${encodeURIComponent(ts.id)}&startingNote=${encodeURIComponent(toIdName(note))}`),
    );
  const failures: string[] = [];
  let largestBytes = 0;
  let encoding = "";
  const get = async (path: string) => {
    const started = performance.now();
    const r = await fetch(base + path);
    const body = await r.arrayBuffer();
    const ms = performance.now() - started;
    const source = r.headers.get("x-answer-source");
    if (r.status !== 200 || source !== "computed") failures.push(`${r.status} ${source} ${path}`);
    largestBytes = Math.max(largestBytes, body.byteLength);
    encoding = r.headers.get("content-encoding") ?? "identity";
    return { path, ms };
  };
  const cold: { path: string; ms: number }[] = [];
  for (const path of paths) cold.push(await get(path));
  const warm: { path: string; ms: number }[] = [];
  for (let pass = 0; pass < ALL_WARM_PASSES; pass++) for (const path of paths) warm.push(await get(path));
  return { pairs: paths.length, cold: spreadOf(cold), warm: spreadOf(warm), failures, largestBytes, encoding };
}
