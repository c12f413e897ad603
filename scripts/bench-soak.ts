/**
 * Load and soak (part of `npm run bench`, or alone: `tsx scripts/bench-soak.ts [--write]`): 100
 * connections for SOAK_SECONDS (default 60) on a recorded mix — pre-rendered files, computed
 * answers, route searches and other requests with a free centsTolerance — against the Node server
 * (serving build/) and against build/_worker.js in workerd (build/ as its assets), after a warm-up
 * of SOAK_WARMUP_SECONDS (default 10). The server process's RSS is sampled every 5 s. Prints a
 * Markdown section, or with `--write` puts it into docs/benchmarks.md.
 */
import { join } from "node:path";
import autocannon from "autocannon";
import { routes } from "../src/api/routes.js";
import { staticFileOf } from "../src/api/staticPath.js";
import { builtFiles, evenSample, recordedRequests, specUrlOf } from "./benchRequests.js";
import { benchBuildDir, loadAverage, writeSection } from "./benchDoc.js";
import { rssMb, startNodeServer, startWorkerd, type RunningRuntime } from "./runtimes.js";

const buildDir = benchBuildDir;
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 10);
const CONNECTIONS = 100;
/** Of the connections, those that ask only for pre-rendered files, to measure files while computations run. */
const FILE_CONNECTIONS = 10;
const FILE_P99_TARGET_MS = 50;
const P99_TARGET_MS = 1000;
const SAMPLE_EVERY_MS = 5000;
const RSS_LIMIT_MB = 512;
const RSS_GROWTH_LIMIT = 1.25;
/** workerd's V8 heap bounded as Cloudflare bounds an isolate (the worker's catalog is sized for it). */
const WORKERD_FLAGS = ["--max-old-space-size=128"];

/** Share of each kind of request in the mix. */
const MIX = { prerendered: 0.45, computed: 0.45, routeSearch: 0.04, freeTolerance: 0.06 } as const;
type Kind = keyof typeof MIX;

/** Routes whose answers depend on centsTolerance, a number the client chooses freely. */
const TOLERANT = new Set([
  "GET /modulation-routes",
  "GET /maqamat/{idName}",
  "GET /maqamat/classification/maqam-pitch-class-sets",
  "GET /maqamat/classification/12-pitch-class-sets",
]);

/** mulberry32: a small seeded generator, so every run sends the same sequence. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const routeOf = (path: string) => {
  const bare = path.split("?")[0].replace(/\/+$/, "");
  return routes.find((r) => r.matcher.test(bare))?.name;
};

/** The request pools of the mix: recorded 200 requests split by whether a built file answers them. */
function soakPools(): Record<Kind, string[]> {
  const builtFileList = builtFiles(buildDir);
  const builtFileSet = new Set(builtFileList);
  const recorded = recordedRequests().filter((r) => r.status === 200);
  const computed: string[] = [];
  const tolerant: string[] = [];
  for (const { path } of recorded) {
    const url = new URL(path, "http://x");
    const file = staticFileOf(url.pathname, url.searchParams);
    const route = routeOf(path);
    if (route && TOLERANT.has(route) && url.searchParams.has("tuningSystem")) tolerant.push(path);
    if (!file || !builtFileSet.has(file)) computed.push(path);
  }
  return {
    prerendered: evenSample(builtFileList, 2000).map(specUrlOf),
    computed: computed.map((p) => `/api${p}`),
    routeSearch: tolerant.filter((p) => p.startsWith("/modulation-routes")).map((p) => `/api${p}`),
    freeTolerance: tolerant.filter((p) => !p.startsWith("/modulation-routes")).map((p) => `/api${p}`),
  };
}

/** A request of `kind`; the tolerant ones get a free centsTolerance (0–25 cents, two decimals). */
function picker(pools: Record<Kind, string[]>, random: () => number): () => string {
  const kinds = Object.entries(MIX) as [Kind, number][];
  return () => {
    let r = random();
    const [kind] =
      kinds.find(([, share]) => {
        r -= share;
        return r < 0;
      }) ?? kinds[0];
    const pool = pools[kind];
    const path = pool[Math.floor(random() * pool.length)];
    if (kind !== "routeSearch" && kind !== "freeTolerance") return path;
    const url = new URL(path, "http://x");
    url.searchParams.set("centsTolerance", (Math.floor(random() * 2500) / 100).toString());
    return url.pathname + url.search;
  };
}

interface SoakFigures {
  runtime: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  worst: number;
  errors: number;
  timeouts: number;
  status4xx: number;
  status5xx: number;
  /** 503s: refusals of a full queue or a time limit, deliberate. */
  status503: number;
  /** Latency of the file-only connections while the mix runs. */
  files: { requests: number; p50: number; p99: number; worst: number; errors: number; non2xx: number };
  /** RSS in MB at the end of the warm-up, then every 5 s. */
  rss: number[];
}

async function load(origin: string, seconds: number, next: () => string, connections = CONNECTIONS) {
  return autocannon({
    url: origin,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: next() }) }],
  });
}

/** Each path once, `parallel` at a time: the caches that recorded requests use are filled before measuring. */
async function visitAll(origin: string, paths: readonly string[], parallel = 4): Promise<void> {
  let next = 0;
  const visit = async (): Promise<void> => {
    while (next < paths.length) await fetch(origin + paths[next++]).then((r) => r.arrayBuffer());
  };
  await Promise.all(Array.from({ length: parallel }, visit));
}

async function soak(runtime: string, running: RunningRuntime, pools: Record<Kind, string[]>): Promise<SoakFigures> {
  const next = picker(pools, seeded(20261124));
  try {
    await visitAll(running.origin, [...pools.computed, ...pools.prerendered]);
    if (WARMUP_SECONDS > 0) await load(running.origin, WARMUP_SECONDS, next);
    const rss = [rssMb(running.pid)];
    const sampler = setInterval(() => rss.push(rssMb(running.pid)), SAMPLE_EVERY_MS);
    const files = seeded(7);
    const [r, f] = await Promise.all([
      load(running.origin, SECONDS, next, CONNECTIONS - FILE_CONNECTIONS),
      load(running.origin, SECONDS, () => pools.prerendered[Math.floor(files() * pools.prerendered.length)], FILE_CONNECTIONS),
    ]).finally(() => clearInterval(sampler));
    const codes = (r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
    const figures: SoakFigures = {
      runtime,
      requests: r.requests.total,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      worst: r.latency.max,
      errors: r.errors,
      timeouts: r.timeouts,
      status4xx: r["4xx"],
      status5xx: r["5xx"],
      status503: codes["503"]?.count ?? 0,
      files: { requests: f.requests.total, p50: f.latency.p50, p99: f.latency.p99, worst: f.latency.max, errors: f.errors + f.timeouts, non2xx: f.non2xx },
      rss,
    };
    console.log(`soak: ${runtime}: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    await running.stop();
  }
}

const peak = (f: SoakFigures) => Math.max(...f.rss);
const growth = (f: SoakFigures) => peak(f) / f.rss[0];
const met = (f: SoakFigures) =>
  f.errors === 0 &&
  f.status5xx === f.status503 &&
  peak(f) < RSS_LIMIT_MB &&
  growth(f) <= RSS_GROWTH_LIMIT &&
  f.p99 <= P99_TARGET_MS &&
  f.files.p99 <= FILE_P99_TARGET_MS &&
  f.files.errors === 0;

/** Why a runtime's file answers wait, and what to try next. */
const FILE_WAIT_CAUSE: Record<string, string> = {
  "Node server":
    "the thread that answers files shares the 2 cores with the computing thread (at nice 19, so it yields) and with autocannon, which is not niced and sends from the same machine; next step: measure with the load generator on another machine, then answer files before reading further requests of the connections that compute",
  workerd:
    "workerd answers every request of an isolate on one thread, so a file waits behind the computation that runs; on Cloudflare each request may get its own isolate and the static assets are answered before the worker runs, which this local run does not show; next step: none in the worker itself (the files are the host's to serve)",
};

/** What the RSS is made of: a diagnosis by hand, kept with the figures it explains. */
const MEMORY_NOTE = [
  "What bounds the memory: the catalog's caches at their scale (src/theory/caches.ts; `isolate` in each of the Node server's computing threads and in the worker: the transposition lists of a few tuning system × starting note pairs, a couple of set groupings and 8 MB of modulation graphs; the Node server's main thread computes nothing, so its catalog's caches stay empty), the modulation graphs' outgoing edges only (a route search builds the reverse index it needs), the Node server's file cache (32 MB with the compressed forms), and V8's heap bounds (`--max-old-space-size=256` for the Node server's main thread in `npm start`, `npm run serve` and here, `POOL_HEAP_MB` (128) for each computing thread; 128 MB for workerd, as Cloudflare bounds an isolate), without which V8 lets a heap grow into garbage it has not collected yet while a hundred connections keep it allocating.",
  "Before the caches were bounded by tolerance and by bytes, a soak with 30 % free-tolerance requests (this one has 10 %) grew from 517 to 1040 MB (Node) and from 393 to 1052 MB (workerd): transposition lists at free tolerances could fill a 40,000-entry memo (about 560 MB), four modulation graphs were rebuilt for every route search outside them, and 64 12-tone set groupings could hold about 640 MB.",
].join(" ");

function section(figures: SoakFigures[], pools: Record<Kind, string[]>): string {
  const ok = (b: boolean) => (b ? "met" : "**not met**");
  return [
    "## Load and soak",
    "",
    `Measured by \`npx tsx scripts/bench-soak.ts --write\` (the last step of \`npm run bench\`) on the build in \`build/\`. ${CONNECTIONS} connections (autocannon, on the same 2 cores as the server) for ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up with the same mix, on 127.0.0.1, no compression asked. Each request is drawn (seeded, so every run sends the same sequence) from recorded 200 requests of test/fixtures: ${MIX.prerendered * 100} % pre-rendered files (${pools.prerendered.length} spread over build/), ${MIX.computed * 100} % recorded requests no file answers (${pools.computed.length}), ${MIX.routeSearch * 100} % recorded route searches (${pools.routeSearch.length}) and ${MIX.freeTolerance * 100} % recorded maqām and classification requests (${pools.freeTolerance.length}), both with a free \`centsTolerance\` between 0 and 25 cents in steps of 0.01, so that most of them miss every cache. The Node server reads build/; workerd runs build/_worker.js with build/ as its assets service. RSS is the answering process's resident memory (/proc), at the end of the warm-up and then every ${SAMPLE_EVERY_MS / 1000} s.`,
    "",
    "| runtime | requests | req/s | p50 ms | p99 ms | worst ms | errors (timeouts) | 4xx | 5xx (of which deliberate 503) | files: requests | files: p50 ms | files: p99 ms | files: worst ms | RSS after warm-up | peak RSS | peak ÷ first | targets |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...figures.map((f) => {
      const bold = (s: string | number, miss: boolean) => (miss ? `**${s}**` : String(s));
      return `| ${f.runtime} | ${f.requests} | ${f.rps.toFixed(0)} | ${f.p50} | ${bold(f.p99, f.p99 > P99_TARGET_MS)} | ${f.worst} | ${bold(`${f.errors} (${f.timeouts})`, f.errors > 0)} | ${f.status4xx} | ${bold(`${f.status5xx} (${f.status503})`, f.status5xx !== f.status503)} | ${f.files.requests} | ${f.files.p50} | ${bold(f.files.p99, f.files.p99 > FILE_P99_TARGET_MS)} | ${f.files.worst} | ${f.rss[0].toFixed(0)} MB | ${bold(`${peak(f).toFixed(0)} MB`, peak(f) >= RSS_LIMIT_MB)} | ${growth(f).toFixed(2)} | ${ok(met(f))} |`;
    }),
    "",
    `RSS samples (MB): ${figures.map((f) => `${f.runtime}: ${f.rss.map((m) => m.toFixed(0)).join(", ")}`).join("; ")}.`,
    "",
    `Of the ${CONNECTIONS} connections, ${FILE_CONNECTIONS} ask only for pre-rendered files (drawn from the same ${pools.prerendered.length}) while the other ${CONNECTIONS - FILE_CONNECTIONS} send the mix: the \`files\` columns are the latency of file answers while computations and route searches run. The Node server computes on its pool of threads (\`POOL_THREADS\`, by default one per core but the main thread's, which answers files); a 503 is its deliberate refusal of a full queue (with \`Retry-After\`) or of a computation past its time limit.`,
    "",
    `Targets: no error and no 5xx other than deliberate 503s; overall p99 ≤ ${P99_TARGET_MS} ms; p99 of file answers ≤ ${FILE_P99_TARGET_MS} ms; RSS of the whole process (all threads) under ${RSS_LIMIT_MB} MB throughout and at most ${RSS_GROWTH_LIMIT}× its first sample.${figures.some((f) => f.status4xx > 0) ? " A 4xx is a recorded request that a free tolerance makes fail, such as a route search whose maqām no longer matches its own intervals (a 404 naming it)." : ""}`,
    "",
    MEMORY_NOTE,
    "",
    ...figures
      .filter((f) => f.status503 > 0)
      .map(
        (f) =>
          `The ${f.runtime}'s ${f.status503} deliberate 503s are refusals of a full queue (one computing thread per core but one, a queue of 64 per thread), answered at once with \`Retry-After: 2\` and asked again at once by autocannon, so they outnumber the computed answers, and refusals of computations past the 10 s limit (the worst answer, ${f.worst} ms, is one if it is over 10,000); the run does not tell them apart.\n`,
      ),
    ...figures
      .filter((f) => !met(f))
      .map((f) => {
        const gaps = [
          f.files.p99 > FILE_P99_TARGET_MS
            ? `file answers' p99 ${f.files.p99} ms (target ${FILE_P99_TARGET_MS}): ${FILE_WAIT_CAUSE[f.runtime] ?? ""} (load ${loadAverage()} when this section was written)`
            : "",
          f.p99 > P99_TARGET_MS
            ? `overall p99 ${f.p99} ms (target ${P99_TARGET_MS}): computations wait for a thread; next step: a quieter machine, then fewer recomputations (larger cache scale per thread)`
            : "",
          f.errors > 0 || f.status5xx !== f.status503 ? `${f.errors} errors and ${f.status5xx - f.status503} 5xx other than 503: read the server's log` : "",
          peak(f) >= RSS_LIMIT_MB || growth(f) > RSS_GROWTH_LIMIT
            ? `RSS peaked at ${peak(f).toFixed(0)} MB (${growth(f).toFixed(2)}× its first sample); next step: read what its memory holds during a soak (\`process.memoryUsage()\` every 5 s, before and after a forced collection), then lower that runtime's cache scale or heap bound`
            : "",
        ].filter(Boolean);
        return `Gap (${f.runtime}): ${gaps.join("; ")}.\n`;
      }),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pools = soakPools();
  const figures = [
    await soak("Node server", await startNodeServer({ buildDir }), pools),
    await soak("workerd", await startWorkerd({ script: join(buildDir, "_worker.js"), assetsDir: buildDir, v8Flags: WORKERD_FLAGS }), pools),
  ];
  const text = section(figures, pools);
  if (process.argv.includes("--write")) writeSection("## Load and soak", text);
  else console.log(text);
}
