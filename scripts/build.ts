/**
 * Pre-renders every request the endpoint groups list into build/api/, through the same dispatch
 * the server uses, on worker threads (one per core). Writes build/manifest.json (base URL, totals
 * per route, content digest; no timestamps, so equal sources give equal bytes), `.gz` siblings,
 * and the edge configurations (build/_redirects, build/serve.json, deploy/).
 *
 * Usage: npm run build   (BASE_URL=https://example.org sets the host of absolute links;
 *                         BUILD_DIR, BUILD_WORKERS, PRECOMPRESS=gzip|gzip,br|none)
 */
import { Worker } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { routes, prerenderRequests } from "../src/api/routes.js";
import { staticFileOf } from "../src/api/staticPath.js";
import type { Encoding } from "../src/serve/server.js";
import { cloudfrontFunction, netlifyRedirects, nginxConfig, serveConfig, type QueryShapes } from "../src/serve/deploy.js";
import type { FromWorker, Job, Rendered, WorkerSetup } from "./buildWorker.js";

export const DEFAULT_BASE_URL = "http://localhost:3000";
/** Origin that build/_redirects proxies to; replace it with where `npm run serve` runs. */
export const FALLBACK_ORIGIN_PLACEHOLDER = "https://fallback.example.org";

export interface BuildOptions {
  outDir: string;
  baseUrl: string;
  requests?: Iterable<string>;
  /** Worker threads; default BUILD_WORKERS or the number of cores. */
  workers?: number;
  /** Siblings written for files over COMPRESS_MIN_BYTES; default PRECOMPRESS or gzip only. */
  encodings?: Encoding[];
  onProgress?: (done: number, total: number) => void;
}

export interface FileRef {
  file: string;
  bytes: number;
}

export interface RouteTotals {
  files: number;
  bytes: number;
  compressedBytes: Partial<Record<Encoding, number>>;
  largest: FileRef;
  /** Parameter-name lists pre-rendered (`octave&pitchClassDataType`; `` for no query). */
  queries: string[];
}

export interface Manifest {
  baseUrl: string;
  files: number;
  bytes: number;
  largest: FileRef;
  medianBytes: number;
  precompressed: Partial<Record<Encoding, { files: number; bytes: number }>>;
  routes: Record<string, RouteTotals>;
  /** Listed requests that did not answer 200 (not written): count and the first few, sorted. */
  skipped: { count: number; examples: string[] };
  /** sha256 over the sorted `file<TAB>sha1` lines: equal digests, equal trees. */
  digest: string;
}

interface Planned {
  request: string;
  file: string;
  route: string;
  query: string;
}

/**
 * The cache the theory modules would reuse for a request: its tuning system × starting note
 * (query parameters or `/tuning-systems/{id}/{note}/…`), else its entity path.
 */
export function cacheGroupOf(request: string): string {
  const url = new URL(request, "http://x");
  const ts = url.searchParams.get("tuningSystem");
  const note = url.searchParams.get("startingNote");
  if (ts && note) return `${ts} × ${note}`;
  const m = /^\/tuning-systems\/([^/]+)\/([^/]+)\//.exec(url.pathname);
  if (m) return `${m[1]} × ${m[2]}`;
  return url.pathname.split("/").slice(0, 3).join("/");
}

/** Batches of jobs, one per cache group, largest first so that the last batches are short. */
export function planBatches(jobs: Job[]): Job[][] {
  const groups = new Map<string, Job[]>();
  for (const job of jobs) {
    const key = cacheGroupOf(job[0]);
    const group = groups.get(key);
    if (group) group.push(job);
    else groups.set(key, [job]);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

const routeNameOf = (path: string): string => {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return routes.find((r) => r.matcher.test(trimmed))?.name ?? "(no route)";
};

function plan(requests: Iterable<string>): Planned[] {
  const seen = new Set<string>();
  const planned: Planned[] = [];
  for (const request of requests) {
    const url = new URL(request, "http://x");
    const file = staticFileOf(url.pathname, url.searchParams);
    if (!file) throw new Error(`build: '${request}' is not a canonical request (sort its parameters)`);
    if (seen.has(file)) continue;
    seen.add(file);
    planned.push({ request, file, route: routeNameOf(url.pathname), query: [...url.searchParams.keys()].join("&") });
  }
  return planned;
}

const defaultEncodings = (): Encoding[] => {
  const wanted = (process.env.PRECOMPRESS ?? "gzip").split(",").map((s) => s.trim());
  return wanted.filter((e): e is Encoding => e === "gzip" || e === "br");
};

/** Renders the batches on `count` workers; resolves with every result, in no particular order. */
function renderOnWorkers(batches: Job[][], count: number, setup: Omit<WorkerSetup, "entry">, onResults: (n: number) => void) {
  return new Promise<Rendered[]>((done, fail) => {
    const results: Rendered[] = [];
    const workers: Worker[] = [];
    let next = 0;
    let busy = 0;
    let failed = false;
    const stopAll = () => Promise.all(workers.map((w) => w.terminate()));
    const feed = (w: Worker) => {
      if (next < batches.length) {
        busy++;
        w.postMessage(batches[next++]);
      } else if (busy === 0) void stopAll().then(() => done(results));
    };
    const entry = new URL("./buildWorker.ts", import.meta.url).href;
    for (let i = 0; i < count; i++) {
      const w = new Worker(new URL("./tsx-worker.mjs", import.meta.url), {
        workerData: { ...setup, entry } satisfies WorkerSetup,
        execArgv: [],
      });
      workers.push(w);
      w.on("message", (m: FromWorker) => {
        if (failed) return;
        if (m.type === "ready") return feed(w);
        results.push(...m.results);
        onResults(m.results.length);
        if (m.batchDone) {
          busy--;
          feed(w);
        }
      });
      w.on("error", (e) => {
        if (failed) return;
        failed = true;
        void stopAll().then(() => fail(e));
      });
    }
  });
}

function summarise(planned: Planned[], results: Rendered[], baseUrl: string, encodings: Encoding[]): Manifest {
  const byFile = new Map(planned.map((p) => [p.file, p]));
  const written = results.filter((r) => r.status === 200).sort((a, b) => (a.file < b.file ? -1 : 1));
  const skipped = results
    .filter((r) => r.status !== 200)
    .map((r) => `${r.status} ${byFile.get(r.file)!.request}`)
    .sort();
  const routeTotals: Record<string, RouteTotals> = {};
  const precompressed: Manifest["precompressed"] = {};
  for (const e of encodings) precompressed[e] = { files: 0, bytes: 0 };
  let largest: FileRef = { file: "", bytes: 0 };
  let bytes = 0;
  for (const r of written) {
    const p = byFile.get(r.file)!;
    const t = (routeTotals[p.route] ??= { files: 0, bytes: 0, compressedBytes: {}, largest: { file: "", bytes: 0 }, queries: [] });
    t.files++;
    t.bytes += r.bytes;
    bytes += r.bytes;
    if (r.bytes > t.largest.bytes) t.largest = { file: r.file, bytes: r.bytes };
    if (r.bytes > largest.bytes) largest = { file: r.file, bytes: r.bytes };
    if (!t.queries.includes(p.query)) t.queries.push(p.query);
    for (const [e, n] of Object.entries(r.encoded) as [Encoding, number][]) {
      t.compressedBytes[e] = (t.compressedBytes[e] ?? 0) + n;
      precompressed[e]!.files++;
      precompressed[e]!.bytes += n;
    }
  }
  for (const t of Object.values(routeTotals)) t.queries.sort();
  const sizes = written.map((r) => r.bytes).sort((a, b) => a - b);
  const digest = createHash("sha256");
  for (const r of written) digest.update(`${r.file}\t${r.hash}\n`);
  return {
    baseUrl,
    files: written.length,
    bytes,
    largest,
    medianBytes: sizes.length ? sizes[Math.floor((sizes.length - 1) / 2)] : 0,
    precompressed,
    routes: Object.fromEntries(Object.entries(routeTotals).sort(([a], [b]) => (a < b ? -1 : 1))),
    skipped: { count: skipped.length, examples: skipped.slice(0, 20) },
    digest: digest.digest("hex"),
  };
}

export const queryShapesOf = (manifest: Manifest): QueryShapes =>
  Object.fromEntries(Object.entries(manifest.routes).map(([name, t]) => [name, t.queries]));

/**
 * Renders into `<outDir>.partial` and swaps it in at the end, so a server reading `outDir`
 * never sees half a build.
 */
export async function build(options: BuildOptions): Promise<{ manifest: Manifest; seconds: number; workers: number }> {
  const started = performance.now();
  const outDir = resolve(options.outDir);
  const partial = `${outDir}.partial`;
  const old = `${outDir}.old`;
  const encodings = options.encodings ?? defaultEncodings();
  const planned = plan(options.requests ?? prerenderRequests());
  const batches = planBatches(planned.map((p) => [p.request, p.file]));
  const workers = Math.max(1, Math.min(options.workers ?? Number(process.env.BUILD_WORKERS ?? availableParallelism()), batches.length));

  rmSync(partial, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
  mkdirSync(join(partial, "api"), { recursive: true });
  try {
    let done = 0;
    const results = await renderOnWorkers(batches, workers, { apiDir: join(partial, "api"), baseUrl: options.baseUrl, encodings }, (n) => {
      done += n;
      options.onProgress?.(done, planned.length);
    });
    const manifest = summarise(planned, results, options.baseUrl, encodings);
    writeFileSync(join(partial, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
    writeFileSync(join(partial, "_redirects"), netlifyRedirects(queryShapesOf(manifest), routes, FALLBACK_ORIGIN_PLACEHOLDER));
    writeFileSync(join(partial, "serve.json"), serveConfig());
    // GitHub Pages would otherwise run Jekyll, which drops files starting with `_`.
    writeFileSync(join(partial, ".nojekyll"), "");
    if (existsSync(outDir)) renameSync(outDir, old);
    renameSync(partial, outDir);
    rmSync(old, { recursive: true, force: true });
    return { manifest, seconds: (performance.now() - started) / 1000, workers };
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** The per-endpoint table of docs/static-layout.md, from a manifest. */
export function layoutTable(manifest: Manifest): string {
  const rows = Object.entries(manifest.routes).map(([name, t]) => {
    const gz = t.compressedBytes.gzip;
    const queries = t.queries.map((q) => (q === "" ? "(none)" : `\`${q}\``)).join(", ");
    return `| \`${name}\` | ${t.files} | ${mb(t.bytes)} | ${gz === undefined ? "–" : mb(gz)} | ${kb(t.largest.bytes)} | ${queries} |`;
  });
  const gz = manifest.precompressed.gzip;
  return [
    "| endpoint | files | bytes | `.gz` bytes | largest file | parameter sets |",
    "|---|---:|---:|---:|---:|---|",
    ...rows,
    `| **total** | **${manifest.files}** | **${mb(manifest.bytes)}** | **${gz ? mb(gz.bytes) : "–"}** | **${kb(manifest.largest.bytes)}** | median file ${kb(manifest.medianBytes)} |`,
  ].join("\n");
}

const TABLE_START = "<!-- generated by npm run build: per-endpoint table -->";
const TABLE_END = "<!-- end of generated table -->";

/** Rewrites the generated parts of the repository: the layout table and deploy/. */
function writeGenerated(root: string, manifest: Manifest) {
  const doc = join(root, "docs", "static-layout.md");
  if (existsSync(doc)) {
    const text = readFileSync(doc, "utf8");
    const start = text.indexOf(TABLE_START);
    const end = text.indexOf(TABLE_END);
    if (start >= 0 && end > start)
      writeFileSync(doc, `${text.slice(0, start + TABLE_START.length)}\n${layoutTable(manifest)}\n${text.slice(end)}`);
  }
  mkdirSync(join(root, "deploy"), { recursive: true });
  writeFileSync(join(root, "deploy", "nginx.conf"), nginxConfig());
  writeFileSync(join(root, "deploy", "cloudfront-viewer-request.js"), cloudfrontFunction());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(import.meta.dirname, "..");
  const outDir = resolve(process.env.BUILD_DIR ?? "build");
  const baseUrl = (process.env.BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const tty = process.stderr.isTTY;
  const t0 = performance.now();
  let lastDraw = 0;
  const progress = (done: number, total: number) => {
    const now = performance.now();
    if (!tty || (now - lastDraw < 200 && done < total)) return;
    lastDraw = now;
    const rate = done / ((now - t0) / 1000);
    const eta = rate > 0 ? (total - done) / rate : 0;
    process.stderr.write(`\r\x1b[K${done}/${total} requests  ${rate.toFixed(0)}/s  ETA ${eta.toFixed(0)} s`);
  };
  const { manifest: m, seconds, workers } = await build({ outDir, baseUrl, onProgress: progress });
  if (tty) process.stderr.write("\r\x1b[K");
  writeGenerated(root, m);
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  const gz = m.precompressed.gzip;
  const br = m.precompressed.br;
  console.log(
    [
      `build: ${m.files} files, ${mb(m.bytes)}`,
      gz ? ` (+ ${gz.files} .gz, ${mb(gz.bytes)})` : "",
      br ? ` (+ ${br.files} .br, ${mb(br.bytes)})` : "",
      `, largest ${kb(m.largest.bytes)} (${m.largest.file}), median ${kb(m.medianBytes)}`,
      m.skipped.count ? `, ${m.skipped.count} non-200 requests not written (see manifest.json)` : "",
      `; ${seconds.toFixed(1)} s on ${workers} workers, peak memory ${mb(maxRssBytes)} → ${outDir}`,
    ].join(""),
  );
  // For npm run bench, which runs the build as a child process.
  if (process.env.BUILD_STATS) writeFileSync(process.env.BUILD_STATS, JSON.stringify({ seconds, workers, maxRssBytes }) + "\n");
}
