/**
 * `npm run bench [-- --reuse]`: measures the build (as a child process: wall time, CPU time, peak
 * memory), the static tree, the cost of each precompression, requests/second for pre-rendered
 * answers through our server, `serve` and `http-server` on one URL set (autocannon, loopback
 * only), the latency of fallback-computed answers per endpoint, GET /maqamat/all for every tuning
 * system × starting note from a server without files, and the route-search benchmark
 * (scripts/bench-routes.ts, in a child process). Writes docs/benchmarks.md.
 * `--reuse` keeps an existing build/ and skips the build measurement. Every load test is bounded
 * (BENCH_SECONDS each, default 4).
 */
import { execFile, spawn } from "node:child_process";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { mb, type Manifest } from "./manifest.js";
import { staticFileOf } from "../src/api/staticPath.js";
import type { RouteBenchFigures } from "./bench-routes.js";
import { ALL_WARM_PASSES, allMaqamatLatency, coldLatency, compressionCosts, hammer, type Measured, type Spread, startAndWait, stop } from "./benchMeasures.js";
import { freePort } from "./freePort.js";
import { PROFILES } from "./profiles.js";
import { treeSize } from "./treeSize.js";
import { writeSections } from "./benchDoc.js";
import { builtFiles, evenSample, recordedRequests, specUrlOf } from "./benchRequests.js";

const root = resolve(import.meta.dirname, "..");
const buildDir = join(root, "build");
const reuse = process.argv.includes("--reuse");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const LATENCY_SECONDS = Math.max(1, SECONDS / 2);
const URL_SAMPLE = 400;
const command = `${process.env.BENCH_SECONDS ? `BENCH_SECONDS=${SECONDS} ` : ""}npm run bench${reuse ? " -- --reuse" : ""}`;
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", fail);
    child.on("exit", (code) => done(code ?? 1));
  });
}

interface BuildFigures {
  wallSeconds: number;
  seconds: number;
  workers: number;
  maxRssBytes: number;
  loadBefore: string;
}

async function measureBuild(): Promise<BuildFigures> {
  const stats = join(mkdtempSync(join(tmpdir(), "maqam-bench-")), "stats.json");
  const loadBefore = load();
  const started = performance.now();
  const code = await run(process.execPath, ["scripts/run.mjs", "scripts/build.ts"], { BUILD_STATS: stats, BUILD_DIR: buildDir });
  if (code !== 0) throw new Error(`bench: the build failed (${code})`);
  const wallSeconds = (performance.now() - started) / 1000;
  const figures = JSON.parse(readFileSync(stats, "utf8"));
  rmSync(stats, { force: true });
  return { wallSeconds, loadBefore, ...figures };
}

const fileUrlOf = (file: string) => `/api/${encodeURI(file)}`;

/** The same bytes as the file, from a server (after gunzip when it compressed on its own). */
async function servesFile(base: string, path: string, file: string): Promise<boolean> {
  const r = await fetch(base + path, { headers: { "Accept-Encoding": "identity" } });
  const body = Buffer.from(await r.arrayBuffer());
  const expected = readFileSync(join(buildDir, "api", file));
  return r.ok && (body.equals(expected) || (body[0] === 0x1f && gunzipSync(body).equals(expected)));
}

const ROUTE_BENCH_COMMAND = ["--import", "tsx", "scripts/bench-routes.ts", "--json"];

/** scripts/bench-routes.ts in its own process, so that its peak RSS is not the bench's. */
function routeSearch(): Promise<RouteBenchFigures & { wallSeconds: number }> {
  const started = performance.now();
  return new Promise((done, fail) =>
    execFile(process.execPath, ROUTE_BENCH_COMMAND, { cwd: root, maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return fail(new Error(`bench: the route-search benchmark failed: ${error.message}`));
      // The figures are the last line; anything printed before it is not ours to parse.
      const last = stdout.trim().split("\n").at(-1)!;
      done({ ...(JSON.parse(last) as RouteBenchFigures), wallSeconds: (performance.now() - started) / 1000 });
    }),
  );
}

/** Recorded spec requests the fallback computes (no file answers them), by endpoint. */
async function computedSamples(): Promise<Map<string, string[]>> {
  const { routes } = await import("../src/api/routes.js");
  const byRoute = new Map<string, string[]>();
  for (const c of recordedRequests()) {
    if (c.status !== 200) continue;
    const url = new URL(c.path, "http://x");
    const bare = url.pathname.replace(/\/+$/, "");
    const route = routes.find((r) => r.matcher.test(bare));
    if (!route) continue;
    const file = staticFileOf(url.pathname, url.searchParams);
    if (file && existsSync(join(buildDir, "api", file))) continue;
    const list = byRoute.get(route.name) ?? [];
    const path = `/api${c.path}`;
    if (list.length < 25 && !list.includes(path)) list.push(path);
    byRoute.set(route.name, list);
  }
  return new Map([...byRoute].sort(([a], [b]) => (a < b ? -1 : 1)));
}

// ---------------------------------------------------------------------------------------------

const build = reuse && existsSync(join(buildDir, "manifest.json")) ? undefined : await measureBuild();
const manifest: Manifest = JSON.parse(readFileSync(join(buildDir, "manifest.json"), "utf8"));
const files = builtFiles(buildDir);
const sample = evenSample(files, URL_SAMPLE);
const sampleSizes = sample.map((f) => readFileSync(join(buildDir, "api", f)).length).sort((a, b) => a - b);
console.log(`bench: ${files.length} files; ${sample.length} sampled for load tests`);

const compression = compressionCosts(buildDir, files);

const ports = { ours: await freePort(), serve: await freePort(), httpServer: await freePort() };
const ours = `http://127.0.0.1:${ports.ours}`;
const servers = [
  await startAndWait(root, "our server", process.execPath, ["--import", "tsx", "src/serve/main.ts"], `${ours}/api/tuning-systems`, {
    PORT: String(ports.ours),
    HOST: "127.0.0.1",
    BUILD_DIR: buildDir,
  }),
  await startAndWait(
    root,
    "serve",
    bin("serve"),
    [buildDir, "-l", `tcp://127.0.0.1:${ports.serve}`, "-L", "-n", "--no-port-switching"],
    `http://127.0.0.1:${ports.serve}/manifest.json`,
  ),
  await startAndWait(
    root,
    "http-server",
    bin("http-server"),
    [buildDir, "-a", "127.0.0.1", "-p", String(ports.httpServer), "-s", "-c3600"],
    `http://127.0.0.1:${ports.httpServer}/manifest.json`,
  ),
];

interface Row {
  server: string;
  urls: string;
  result: Measured;
  verified: boolean;
}
const rows: Row[] = [];
const latency: { route: string; urls: number; cold: { median: number; max: number }; result: Measured }[] = [];
try {
  const specPaths = sample.map(specUrlOf);
  const filePaths = sample.map(fileUrlOf);
  const check = (base: string, paths: string[]) =>
    Promise.all([0, 1, 2].map((i) => servesFile(base, paths[i * Math.floor(paths.length / 3)], sample[i * Math.floor(paths.length / 3)])));
  const runs: [string, string, string, string[]][] = [
    ["our server", "spec URLs (`/api/…?k=v`)", ours, specPaths],
    ["our server", "file URLs (`/api/…/@k=v.json`)", ours, filePaths],
    ["`serve` 14", "file URLs", `http://127.0.0.1:${ports.serve}`, filePaths],
    ["`http-server` 14", "file URLs", `http://127.0.0.1:${ports.httpServer}`, filePaths],
  ];
  for (const [server, urls, base, paths] of runs) {
    const verified = (await check(base, paths)).every(Boolean);
    await hammer(base, paths, 16, 1); // warm-up: caches, JIT, connections
    const result = await hammer(base, paths, 16, SECONDS);
    console.log(`bench: ${server} ${urls}: ${result.rps.toFixed(0)} req/s${verified ? "" : " (answers differ from the files!)"}`);
    rows.push({ server, urls, result, verified });
  }
  // A fresh server, so that the first pass finds caches as cold as after a start.
  await stop(servers[0]);
  servers[0] = await startAndWait(root, "our server", process.execPath, ["--import", "tsx", "src/serve/main.ts"], `${ours}/api/tuning-systems`, {
    PORT: String(ports.ours),
    HOST: "127.0.0.1",
    BUILD_DIR: buildDir,
  });
  for (const [route, paths] of await computedSamples()) {
    const cold = await coldLatency(ours, paths);
    const result = await hammer(ours, paths, 1, LATENCY_SECONDS);
    console.log(`bench: computed ${route}: first ${cold.median.toFixed(1)} ms (max ${cold.max.toFixed(1)}), then p50 ${result.p50} ms, p99 ${result.p99} ms`);
    latency.push({ route, urls: paths.length, cold, result });
  }
} finally {
  await Promise.all(servers.map(stop));
}

// A fresh server whose build directory is empty, so that every answer comes from the handler.
const emptyBuildDir = mkdtempSync(join(tmpdir(), "maqam-bench-empty-"));
const barePort = await freePort();
const bare = `http://127.0.0.1:${barePort}`;
const bareServer = await startAndWait(
  root,
  "our server without files",
  process.execPath,
  ["--import", "tsx", "src/serve/main.ts"],
  `${bare}/api/tuning-systems`,
  {
    PORT: String(barePort),
    HOST: "127.0.0.1",
    BUILD_DIR: emptyBuildDir,
  },
);
const allMaqamat = await allMaqamatLatency(bare).finally(async () => {
  await stop(bareServer);
  rmSync(emptyBuildDir, { recursive: true, force: true });
});
console.log(
  `bench: /maqamat/all over ${allMaqamat.pairs} pairs: cold median ${allMaqamat.cold.median.toFixed(1)} ms, worst ${allMaqamat.cold.worst.toFixed(1)} ms; warm median ${allMaqamat.warm.median.toFixed(1)} ms, worst ${allMaqamat.warm.worst.toFixed(1)} ms`,
);

const routeBench = await routeSearch();
console.log(
  `bench: route search, ${routeBench.queries} queries: median ${routeBench.medianMs.toFixed(1)} ms, p95 ${routeBench.p95Ms.toFixed(1)} ms, worst ${routeBench.worstMs.toFixed(1)} ms, peak RSS ${routeBench.peakRssMb.toFixed(0)} MB`,
);

// ---------------------------------------------------------------------------------------------

const verdict = (met: boolean) => (met ? "met" : "**not met**");
const ALL_TARGET_MS = 1000;
const ROUTE_TARGET_MS = 2000;
const ROUTE_TARGET_MB = 512;
const allRow = (name: string, requests: number, s: Spread) =>
  `| ${name} | ${requests} | ${s.median.toFixed(1)} | ${s.worst.toFixed(1)} | \`${s.worstPath}\` | < ${ALL_TARGET_MS} | ${verdict(s.worst < ALL_TARGET_MS)} |`;
const allMet = allMaqamat.cold.worst < ALL_TARGET_MS && allMaqamat.warm.worst < ALL_TARGET_MS && allMaqamat.failures.length === 0;
const routeMet = routeBench.worstMs < ROUTE_TARGET_MS && routeBench.peakRssMb < ROUTE_TARGET_MB && routeBench.failures.length === 0;

const oursRps = rows[0].result.rps;
const ratio = (r: Row) => (r === rows[0] ? "1.00" : (oursRps / r.result.rps).toFixed(2));
const published = treeSize(buildDir);
const publishLimit = PROFILES[manifest.profile].limits.tarBytes;
const lines = [
  "# Benchmarks",
  "",
  `Written by \`${command}\` (scripts/bench.ts); rerun it to refresh every figure below.`,
  "",
  `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.`,
  `Load average when the bench ended: ${load()} (1 / 5 / 15 min). Other work on the machine slows every figure below; a load above the core count means the figures are pessimistic.`,
  "",
  "## Build",
  "",
  build
    ? [
        `| figure | value | target |`,
        `|---|---:|---:|`,
        `| wall time of the build (child process \`node scripts/build.ts\`) | ${build.wallSeconds.toFixed(1)} s | ≤ 180 s |`,
        `| build time reported by the build (after start-up) | ${build.seconds.toFixed(1)} s | |`,
        `| worker threads | ${build.workers} | |`,
        `| peak memory (maxRSS of the build process, all threads) | ${mb(build.maxRssBytes)} | ≤ 2 GB |`,
        `| load average before the build | ${build.loadBefore} | |`,
      ].join("\n")
    : "Not measured (`--reuse`): the existing build/ was used.",
  "",
  "## Static tree",
  "",
  "| figure | value | target |",
  "|---|---:|---:|",
  `| pre-rendered files | ${manifest.files} | |`,
  `| bytes of the files | ${mb(manifest.bytes)} | |`,
  ...Object.entries(manifest.precompressed).map(([e, p]) => `| \`${e === "gzip" ? ".gz" : ".br"}\` siblings | ${p.files} files, ${mb(p.bytes)} | |`),
  `| everything in build/ (what a host publishes: API, siblings, site, pictures, root files; profile ${manifest.profile}) | ${published.files} files, ${mb(published.bytes)}; as its tar ${mb(published.tarBytes)} | ${publishLimit ? `tar ≤ ${mb(publishLimit)}` : ""} |`,
  `| largest file | ${kb(manifest.largest.bytes)} (\`${manifest.largest.file}\`) | ≤ 25 MB |`,
  `| median file | ${kb(manifest.medianBytes)} | |`,
  `| listed requests not answering 200 (not written) | ${manifest.skipped.count} | |`,
  "",
  "## Precompression cost",
  "",
  "Measured on the same 6 MB of built files over 1 KB, spread over the tree, on one core.",
  "",
  "| method | MB/s | compressed / original |",
  "|---|---:|---:|",
  ...compression.map((c) => `| ${c.name} | ${c.mbPerSecond.toFixed(1)} | ${(c.ratio * 100).toFixed(1)} % |`),
  "",
  "## Pre-rendered answers: requests per second",
  "",
  `${sample.length} built files sampled evenly (median ${kb(sampleSizes[Math.floor(sampleSizes.length / 2)])}, largest ${kb(sampleSizes.at(-1) ?? 0)}), requested in turn by autocannon over 16 connections for ${SECONDS} s per server after a 1 s warm-up, on 127.0.0.1, no compression asked. autocannon shares the two cores with the server under test. Our server keeps up to 32 MB of files with their compressed forms in memory (all of this sample); \`serve\` and \`http-server\` read the disk (the page cache) for each request.`,
  "",
  "| server | URLs | req/s | p50 ms | p99 ms | non-2xx | errors | ours ÷ this |",
  "|---|---|---:|---:|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.server} | ${r.urls} | ${r.result.rps.toFixed(0)} | ${r.result.p50} | ${r.result.p99} | ${r.result.non2xx} | ${r.result.errors} | ${ratio(r)} |`,
  ),
  "",
  rows.every((r) => r.verified)
    ? "Each server was checked to return the files' bytes before it was measured."
    : "**Some server did not return the files' bytes; see the bench output.**",
  "",
  "## Computed answers: latency per endpoint",
  "",
  latency.length
    ? `Recorded 200 requests of test/fixtures that no built file answers (up to 25 distinct per endpoint), to a freshly started server of ours: first each once in turn (\`first\`: client-measured, caches cold except what earlier endpoints warmed), then in a loop, one at a time, for ${LATENCY_SECONDS} s (autocannon, whole milliseconds: 0 means under 1 ms).`
    : "No recorded requests were found (test/fixtures missing).",
  "",
  ...(latency.length
    ? [
        "| endpoint | URLs | first: median ms | first: slowest ms | loop: requests | loop: p50 ms | loop: p99 ms | non-2xx |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        ...latency.map(
          (l) =>
            `| \`${l.route}\` | ${l.urls} | ${l.cold.median.toFixed(1)} | ${l.cold.max.toFixed(1)} | ${l.result.requests} | ${l.result.p50} | ${l.result.p99} | ${l.result.non2xx} |`,
        ),
      ]
    : []),
  "",
  "## GET /maqamat/all from the fallback",
  "",
  `Every tuning system × starting note (${allMaqamat.pairs} pairs) requested as \`/api/maqamat/all?tuningSystem=…&startingNote=…\` from a freshly started server of ours (\`BUILD_DIR=<empty directory> HOST=127.0.0.1 node --import tsx src/serve/main.ts\`), so that no file answers and every answer is computed by the handler; each answer was checked to be a 200 with \`X-Answer-Source: computed\`. One request at a time, client-measured until the whole body is read, with Node's fetch (answers came ${allMaqamat.encoding}-encoded; largest body ${kb(allMaqamat.largestBytes)} once decoded). Cold: the first request for each pair, in turn, which pays for that pair's shared work (the transpositions, families and modulation counts of its maqāmāt); what pairs share (loaded data, compiled code) is warmed by the first pair and the start-up probe. Warm: ${ALL_WARM_PASSES} more passes over every pair.`,
  "",
  "| requests | count | median ms | worst ms | slowest request | target ms | result |",
  "|---|---:|---:|---:|---|---:|---|",
  allRow("cold (first per pair)", allMaqamat.pairs, allMaqamat.cold),
  allRow("warm", allMaqamat.pairs * ALL_WARM_PASSES, allMaqamat.warm),
  "",
  `Answers other than a computed 200: ${allMaqamat.failures.length}${
    allMaqamat.failures.length
      ? ` (${allMaqamat.failures
          .slice(0, 5)
          .map((f) => `\`${f}\``)
          .join(", ")})`
      : ""
  }.`,
  `Target, every answer under ${ALL_TARGET_MS / 1000} s cold and warm: ${verdict(allMet)}.`,
  "",
  "## Route search",
  "",
  `\`benchRoutes()\` of scripts/bench-routes.ts: ${routeBench.queries} fixed \`GET /modulation-routes\` queries (four per tuning system × starting note with at least four realisable maqāmāt: a short search and three at maxHops=20 with waypoints, return routes and many routes), answered one after another through the handler, graph builds included, in a child process of their own (\`node ${ROUTE_BENCH_COMMAND.join(" ")}\`, ${routeBench.wallSeconds.toFixed(1)} s in all) so that the peak RSS is the benchmark's alone. Wall is elapsed time; CPU is the process's CPU time during the answer (garbage-collector threads included, so it can exceed wall). The latency target is judged on wall time.`,
  "",
  "| figure | wall | CPU | target | result |",
  "|---|---:|---:|---:|---|",
  `| median latency | ${routeBench.medianMs.toFixed(1)} ms | ${routeBench.medianCpuMs.toFixed(1)} ms | | |`,
  `| p95 latency | ${routeBench.p95Ms.toFixed(1)} ms | ${routeBench.p95CpuMs.toFixed(1)} ms | | |`,
  `| worst latency | ${routeBench.worstMs.toFixed(1)} ms | ${routeBench.worstCpuMs.toFixed(1)} ms | < ${ROUTE_TARGET_MS} ms | ${verdict(routeBench.worstMs < ROUTE_TARGET_MS)} |`,
  `| peak RSS of the process | ${routeBench.peakRssMb.toFixed(0)} MB | | < ${ROUTE_TARGET_MB} MB | ${verdict(routeBench.peakRssMb < ROUTE_TARGET_MB)} |`,
  `| answers other than 200 | ${routeBench.failures.length} | | 0 | ${verdict(routeBench.failures.length === 0)} |`,
  `| answers with \`searchLimitReached\` | ${routeBench.limitReached} | | | |`,
  "",
  `Slowest query (wall): \`/modulation-routes?${routeBench.worstQuery}\`.`,
  `Targets, worst under ${ROUTE_TARGET_MS / 1000} s and memory under ${ROUTE_TARGET_MB} MB: ${verdict(routeMet)}.`,
  "",
];
writeSections(lines.join("\n"));
console.log("bench: wrote docs/benchmarks.md");
