/**
 * Pre-renders every request the endpoint groups list into build/api/, through the same dispatch
 * the server uses, on worker threads (one per core). Writes build/manifest.json (base URL, totals
 * per route, content digest; no timestamps, so equal sources give equal bytes), `.gz` siblings,
 * and the edge configurations (build/_redirects, build/serve.json, deploy/).
 *
 * Usage: npm run build   (BASE_URL=https://example.org sets the host of absolute links;
 *                         BUILD_DIR, BUILD_WORKERS, PRECOMPRESS=gzip|gzip,br|none, BUILD_RECYCLE_MB,
 *                         DATA_DIR for another copy of the facts)
 */
import { Worker } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { routes } from "../src/api/routes.js";
import { prerenderRequests } from "./prerender/index.js";
import { staticFileOf } from "../src/api/staticPath.js";
import type { Encoding } from "../src/serve/handler.js";
import { readFacts } from "../src/data/load.js";
import { DataError } from "../src/data/facts.js";
import { createCatalog } from "../src/theory/catalog.js";
import { cloudfrontFunction, cloudfrontOrigins, netlifyRedirects, nginxConfig, notFoundPage, serveConfig } from "../src/serve/deploy.js";
import type { FromWorker, Job, Rendered, WorkerSetup } from "./buildWorker.js";
import { kb, layoutTable, mb, queryShapesOf, summarise, type Manifest, type Planned } from "./manifest.js";
import { bundle } from "./bundle.js";
import { PROFILES, profileNamed, type HostProfile } from "./profiles.js";
import { fitTree, limitsOf, withinFileLimit, OverLimitError, type TreeFit } from "./fitTree.js";
import { HEADROOM, limitPassed, type HostLimits } from "./budget.js";
import { buildSite, SITE_FILES } from "./site.js";
import { prepareSwap, swapIn, writeFileWhole } from "./swap.js";
import { treeSize } from "./treeSize.js";

export const DEFAULT_BASE_URL = "http://localhost:3000";
/** FALLBACK_URL as the generators take it: an absolute http(s) URL without a trailing slash, or a clear error. */
export function fallbackUrlOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  // No credentials: the address is written into files the host publishes (_redirects).
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash || url.username || url.password)
    throw new Error(`FALLBACK_URL must be an absolute http(s) URL without credentials, query or fragment, e.g. https://fallback.example.org (got '${raw}')`);
  return url.href.replace(/\/+$/, "");
}

export interface BuildOptions {
  outDir: string;
  baseUrl: string;
  requests?: Iterable<string>;
  /** Worker threads; default BUILD_WORKERS or the number of cores. */
  workers?: number;
  /** Siblings written for files over COMPRESS_MIN_BYTES; default PRECOMPRESS or gzip only. */
  encodings?: Encoding[];
  /** Heap in use after a batch beyond which a worker is replaced; default BUILD_RECYCLE_MB or 400 MB. */
  recycleHeapBytes?: number;
  /** What to pre-render and how (scripts/profiles.ts); default HOST_PROFILE, else github-pages. */
  profile?: HostProfile;
  /** Where requests without a file go on hosts that proxy (Netlify rules, CloudFront origin group); default FALLBACK_URL. */
  fallbackUrl?: string;
  /** The S3 bucket's domain for the CloudFront origins; default S3_BUCKET_DOMAIN. */
  bucketDomain?: string;
  /** Directory of the fact files; default DATA_DIR, else data/. */
  dataDir?: string;
  /** The host's limits, over the profile's; default HOST_LIMITS (`tarBytes=N,files=N,fileBytes=N`). */
  limits?: HostLimits;
  onProgress?: (done: number, total: number) => void;
}

/**
 * The cache the theory modules would reuse for a request: its tuning system × starting note
 * (query parameters, `/tuning-systems/{id}/{note}/…` or an export's path), else its entity path.
 */
export function cacheGroupOf(request: string): string {
  const url = new URL(request, "http://x");
  const ts = url.searchParams.get("tuningSystem");
  const note = url.searchParams.get("startingNote");
  if (ts && note) return `${ts} × ${note}`;
  const m = /^\/tuning-systems\/([^/]+)\/([^/]+)\//.exec(url.pathname);
  if (m) return `${m[1]} × ${m[2]}`;
  // Exports: …/{tuningSystem}/{startingNote}.ext (tuning systems, maqāmāt, ajnās) or …/{tuningSystem}/{startingNote}/{set}.ext.
  const file = /^\/exports\/(?:pitch-class-sets\/([^/]+)\/([^/]+)\/|.*\/([^/]+)\/([^/.]+?)(?:-descending)?\.[a-z]+$)/.exec(url.pathname);
  if (file) return `${file[1] ?? file[3]} × ${file[2] ?? file[4]}`;
  return url.pathname.split("/").slice(0, 3).join("/");
}

/** Batches of jobs, one per cache group, largest first so that the last batches are short. */
export function planBatches(jobs: Job[]): Job[][] {
  const groups = new Map<string, Job[]>();
  for (const job of jobs) {
    const key = cacheGroupOf(job[1]);
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

const defaultEncodings = (profile: HostProfile): Encoding[] => {
  if (process.env.PRECOMPRESS === undefined) return PROFILES[profile].encodings;
  const wanted = process.env.PRECOMPRESS.split(",").map((s) => s.trim());
  return wanted.filter((e): e is Encoding => e === "gzip" || e === "br");
};

/** What Workers with static assets do not publish of build/: the code of the worker and of the Lambda, the CloudFront origins. */
export const ASSETS_IGNORE = "_worker.js\n_worker.js.map\n_lambda\n_aws\n";

/** Files the build writes beside build/api: the worker, its source map and the root files below. */
const ROOT_FILES = [
  "_worker.js",
  "_worker.js.map",
  "_lambda/index.mjs",
  "_lambda/index.mjs.map",
  "_aws/cloudfront-origins.json",
  "manifest.json",
  "_redirects",
  "serve.json",
  "404.html",
  ".nojekyll",
  ".assetsignore",
];

/**
 * A worker whose heap holds more than this after a batch is replaced by a fresh one: the theory
 * caches of past tuning system × starting note groups are of no use to the next group, and
 * dropping them keeps the peak memory and the garbage collector's work bounded.
 */
const RECYCLE_HEAP_BYTES = Number(process.env.BUILD_RECYCLE_MB ?? 400) * 1e6;

/** Starts a build worker; it loads the data while the main thread plans. */
function startWorker(setup: Omit<WorkerSetup, "entry">): Worker {
  const entry = new URL("./buildWorker.ts", import.meta.url).href;
  return new Worker(new URL("./tsx-worker.mjs", import.meta.url), { workerData: { ...setup, entry } satisfies WorkerSetup, execArgv: [] });
}

interface Progress {
  results: Rendered[];
  gcSeconds: number;
  recycled: number;
}

/**
 * Feeds the batches to the workers as each becomes free, replaces workers whose heap grew past
 * `recycleHeapBytes`, and stops them all at the end. Listeners must be attached before the
 * workers' first message can be handled, so no await may separate startWorker from this call.
 */
function renderOn(initial: Worker[], batches: Job[][], setup: Omit<WorkerSetup, "entry">, recycleHeapBytes: number, onResults: (n: number) => void) {
  return new Promise<Progress>((done, fail) => {
    const progress: Progress = { results: [], gcSeconds: 0, recycled: 0 };
    const live = new Set<Worker>();
    let next = 0;
    let busy = 0;
    let failed = false;
    const stopAll = () => Promise.all([...live].map((w) => w.terminate()));
    const feed = (w: Worker) => {
      if (next < batches.length) {
        busy++;
        w.postMessage(batches[next++]);
      } else if (busy === 0) void stopAll().then(() => done(progress));
    };
    const attach = (w: Worker) => {
      live.add(w);
      w.on("message", (m: FromWorker) => {
        if (failed) return;
        if (m.type === "ready") return feed(w);
        if (m.type === "rendered") {
          for (const r of m.results) progress.results.push(r);
          progress.gcSeconds += m.gcMs / 1000;
          onResults(m.results.length);
          return;
        }
        busy--;
        if (m.heapUsedBytes > recycleHeapBytes && next < batches.length) {
          live.delete(w);
          void w.terminate();
          progress.recycled++;
          attach(startWorker(setup));
        } else feed(w);
      });
      w.on("error", (e) => {
        if (failed) return;
        failed = true;
        void stopAll().then(() => fail(e));
      });
    };
    initial.forEach(attach);
  });
}

export interface RouteTimes {
  requests: number;
  computeSeconds: number;
  writeSeconds: number;
}

/** Worker time per route (not in the manifest: timings differ between builds). */
function timesOf(planned: Planned[], results: Rendered[]): Record<string, RouteTimes> {
  const times: Record<string, RouteTimes> = {};
  for (const r of results) {
    const route = planned[r.index].route;
    times[route] ??= { requests: 0, computeSeconds: 0, writeSeconds: 0 };
    const t = times[route];
    t.requests++;
    t.computeSeconds += r.computeMs / 1000;
    t.writeSeconds += r.writeMs / 1000;
  }
  return times;
}

/**
 * Renders into `<outDir>.partial` and swaps it in whole at the end (scripts/swap.ts), so a server
 * reading `outDir` never sees half a build, and a build killed half way leaves the previous one.
 */
export async function build(
  options: BuildOptions,
): Promise<{ manifest: Manifest; seconds: number; workers: number; recycled: number; gcSeconds: number; times: Record<string, RouteTimes> }> {
  const started = performance.now();
  const outDir = resolve(options.outDir);
  const profile = options.profile ?? profileNamed(process.env.HOST_PROFILE);
  const { prerender, pictures } = PROFILES[profile];
  const limits = options.limits ?? limitsOf(PROFILES[profile].limits, process.env.HOST_LIMITS);
  const encodings = options.encodings ?? defaultEncodings(profile);
  const count = Math.max(1, options.workers ?? Number(process.env.BUILD_WORKERS ?? availableParallelism()));

  const dataDir = options.dataDir ?? process.env.DATA_DIR;
  const partial = prepareSwap(outDir);
  mkdirSync(join(partial, "api"), { recursive: true });
  const setup = { apiDir: join(partial, "api"), baseUrl: options.baseUrl, encodings, dataDir };
  const workers = Array.from({ length: count }, () => startWorker(setup));
  try {
    let planned: Planned[];
    try {
      // The planning catalog is let go once the plan is made: while the workers render, each with
      // a catalog of its own, it would only add its caches to the build's peak memory.
      planned = plan(options.requests ?? prerenderRequests(createCatalog(readFacts(dataDir), "build"), prerender));
      planned = withinFileLimit(planned, limits.files, ROOT_FILES.length + SITE_FILES);
    } catch (e) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw e;
    }
    let done = 0;
    const jobs = planned.map((p, i): Job => [i, p.request, p.file]);
    const recycleAt = options.recycleHeapBytes ?? RECYCLE_HEAP_BYTES;
    const { results, gcSeconds, recycled } = await renderOn(workers, planBatches(jobs), setup, recycleAt, (n) => {
      done += n;
      options.onProgress?.(done, planned.length);
    });
    await bundle({ entry: "src/serve/lambda.ts", outFile: join(partial, "_lambda", "index.mjs"), baseUrl: options.baseUrl });
    const fallbackUrl = fallbackUrlOf(options.fallbackUrl ?? process.env.FALLBACK_URL);
    const bucketDomain = options.bucketDomain ?? process.env.S3_BUCKET_DOMAIN;
    if (fallbackUrl && bucketDomain) {
      mkdirSync(join(partial, "_aws"));
      writeFileSync(join(partial, "_aws", "cloudfront-origins.json"), cloudfrontOrigins(fallbackUrl, bucketDomain));
    }
    const rendered = summarise(planned, results, options.baseUrl, encodings);
    const worker = {
      bytes: await bundle({ entry: "src/serve/worker.ts", outFile: join(partial, "_worker.js"), baseUrl: options.baseUrl, written: queryShapesOf(rendered) }),
    };
    const written = results.filter((r) => r.status === 200).map((r) => planned[r.index].request);
    const catalog = createCatalog(readFacts(dataDir), "build");
    // The service worker is versioned by what was rendered: the same facts give the same worker.
    const drawn = await buildSite({ outDir: partial, baseUrl: options.baseUrl, digest: rendered.digest, written, catalog, pictures });
    const fit = fitTree(partial, new Map(planned.map((p, order) => [p.file, { request: p.request, order }])), limits);
    const kept = results.filter((r) => fit.keptApiFiles.has(planned[r.index].file) || r.status !== 200);
    const summary = fit.leftOut.files ? summarise(planned, kept, options.baseUrl, encodings) : rendered;
    const site = { ...drawn, pictures: picturesKept(drawn.pictures, fit) };
    const manifest: Manifest = { ...summary, profile, worker, site, published: { limits, ...fit.measured, leftOut: fit.leftOut } };
    writeFileSync(join(partial, "_redirects"), netlifyRedirects(queryShapesOf(manifest), routes, fallbackUrl));
    writeFileSync(join(partial, "serve.json"), serveConfig());
    writeFileSync(join(partial, "404.html"), notFoundPage());
    // Workers with static assets publish the whole directory but these (wrangler refuses a _worker.js asset).
    writeFileSync(join(partial, ".assetsignore"), ASSETS_IGNORE);
    // GitHub Pages would otherwise run Jekyll, which drops files starting with `_`.
    writeFileSync(join(partial, ".nojekyll"), "");
    // Last, so that a directory with a manifest is a whole build (recoverSwap relies on it).
    writeFileSync(join(partial, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
    // The root files written after the fit live in its headroom; the tree as published must still pass.
    const final = treeSize(partial);
    const passed = limitPassed(limits, final, Math.max(manifest.largest.bytes, worker.bytes));
    if (passed) throw new OverLimitError(passed);
    swapIn(outDir);
    const seconds = (performance.now() - started) / 1000;
    return { manifest, seconds, workers: count, recycled, gcSeconds, times: timesOf(planned, results) };
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
}

/** The pictures the fit kept: those drawn less those it left out. */
const picturesKept = (drawn: { files: number; bytes: number }, fit: TreeFit) => {
  const left = fit.leftOut.byClass.picture ?? { files: 0, bytes: 0 };
  return { files: drawn.files - left.files, bytes: drawn.bytes - left.bytes };
};

const TABLE_START = "<!-- generated by npm run build: per-endpoint table -->";
const TABLE_END = "<!-- end of generated table -->";

/**
 * Rewrites the generated parts of the repository: the layout table and deploy/. The table is
 * documented for the default base URL and profile (link lengths change the byte counts), so a
 * build for another address or profile leaves it as it is.
 */
function writeGenerated(root: string, manifest: Manifest) {
  const doc = join(root, "docs", "static-layout.md");
  if (manifest.baseUrl === DEFAULT_BASE_URL && manifest.profile === "github-pages" && existsSync(doc)) {
    const text = readFileSync(doc, "utf8");
    const start = text.indexOf(TABLE_START);
    const end = text.indexOf(TABLE_END);
    if (start >= 0 && end > start)
      writeFileWhole(
        doc,
        `${text.slice(0, start + TABLE_START.length)}\n${layoutTable(
          manifest,
          routes.map((r) => r.name),
        )}\n${text.slice(end)}`,
      );
  }
  mkdirSync(join(root, "deploy"), { recursive: true });
  writeFileWhole(join(root, "deploy", "nginx.conf"), nginxConfig());
  writeFileWhole(join(root, "deploy", "cloudfront-viewer-request.js"), cloudfrontFunction());
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
  const built = await build({ outDir, baseUrl, onProgress: progress }).catch((e: unknown) => {
    // Invalid facts, and an output its host would refuse, stop the build with a sentence, no stack.
    if (!(e instanceof DataError || e instanceof OverLimitError)) throw e;
    if (tty) process.stderr.write("\r\x1b[K");
    const profile = process.env.HOST_PROFILE ?? "github-pages";
    console.error(
      e instanceof DataError ? `build: refusing to build: ${e.message}` : `build: the output would not deploy on its host (profile ${profile}): ${e.message}`,
    );
    process.exit(1);
  });
  const { manifest: m, seconds, workers, recycled, gcSeconds, times } = built;
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
  const slowest = Object.entries(times)
    .sort(([, a], [, b]) => b.computeSeconds + b.writeSeconds - (a.computeSeconds + a.writeSeconds))
    .slice(0, 4)
    .map(([name, t]) => `${name} ${t.computeSeconds.toFixed(1)} s + ${t.writeSeconds.toFixed(1)} s writing (${t.requests})`);
  console.log(`build: worker time by route: ${slowest.join("; ")}; garbage collection ${gcSeconds.toFixed(1)} s; ${recycled} workers replaced`);
  // What the host publishes: every file of the output, site and pictures included, as the host counts it.
  const published = treeSize(outDir);
  const { limits, leftOut } = m.published;
  const shown = [
    limits.tarBytes && `tar ≤ ${mb(limits.tarBytes)}`,
    limits.files && `≤ ${limits.files} files`,
    limits.fileBytes && `files ≤ ${mb(limits.fileBytes)}`,
  ].filter(Boolean);
  console.log(
    `build: ${outDir} holds ${published.files} files, ${mb(published.bytes)}, a tar of ${mb(published.tarBytes)}` +
      (shown.length ? ` (profile ${m.profile}: ${shown.join(", ")}, less ${HEADROOM * 100} % headroom)` : ""),
  );
  if (leftOut.files) {
    const classes = Object.entries(leftOut.byClass).map(([c, t]) => `${c} ${t.files} files, ${mb(t.bytes)}`);
    console.log(
      `build: left out to fit the host, computed on request instead: ${leftOut.files} files, ${mb(leftOut.bytes)} (${classes.join("; ")}); see manifest.json`,
    );
  }
  const budget: [boolean, string][] = [
    [seconds > 180, `took ${seconds.toFixed(0)} s (budget 180 s)`],
    [maxRssBytes > 2e9, `peak memory ${mb(maxRssBytes)} (budget 2 GB)`],
  ];
  for (const [over, what] of budget) if (over) console.log(`build: OVER BUDGET: ${what}`);
  // For npm run bench, which runs the build as a child process.
  if (process.env.BUILD_STATS) writeFileSync(process.env.BUILD_STATS, JSON.stringify({ seconds, workers, maxRssBytes }) + "\n");
}
