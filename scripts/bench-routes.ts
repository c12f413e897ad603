/**
 * Route-search benchmark: a fixed set of GET /modulation-routes queries answered in-process
 * through the handler (graph builds included, as a cold server would pay them), with median,
 * 95th percentile and worst latency and the process's peak RSS.
 *
 * `npx tsx scripts/bench-routes.ts` prints the figures (`--json`: as one JSON object, which
 * `npm run bench` reads from a child process so that the peak RSS is this benchmark's alone);
 * `benchRoutes()` returns them.
 */
import { pathToFileURL } from "node:url";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { isPossibleIn } from "../src/theory/realisation.js";
import { toIdName } from "../src/theory/idName.js";

const catalog = createCatalog(readFacts());

export interface RouteBenchFigures {
  queries: number;
  /** Wall-clock latency; on a busy machine it includes waiting for a core. */
  medianMs: number;
  p95Ms: number;
  worstMs: number;
  worstQuery: string;
  /** CPU time of the answer, what the latency would be on an idle core. */
  medianCpuMs: number;
  p95CpuMs: number;
  worstCpuMs: number;
  /** Peak resident set size of the process, in MB (10^6 bytes). */
  peakRssMb: number;
  /** Answers that reported `searchLimitReached`. */
  limitReached: number;
  /** Answers other than 200 (there should be none). */
  failures: string[];
}

/**
 * Four queries per tuning system × starting note whose maqāmāt are spread over the file: a usual
 * short search, and three at maxHops=20 — all flags with return routes and many routes, waypoints
 * with shortest routes only, and five waypoints with all flags, return routes and many routes.
 */
export function benchQueries(): string[] {
  const queries: string[] = [];
  for (const ts of catalog.tuningSystems)
    for (const note of ts.startingNotes) {
      const usable = catalog.maqamat.filter((m) => isPossibleIn(catalog, m, ts, note)).map((m) => encodeURIComponent(m.idName));
      if (usable.length < 4) continue;
      const pick = (k: number) => usable[(k * 7919) % usable.length];
      const base = `tuningSystem=${ts.id}&startingNote=${toIdName(note)}`;
      queries.push(
        `${base}&fromMaqam=${pick(0)}&toMaqam=${pick(1)}&maxHops=4`,
        `${base}&fromMaqam=${pick(2)}&toMaqam=${pick(3)}&maxHops=20&maxRoutes=1000&returnToStartingMaqam=true&allowOctaveJumps=true&allowDownwardModulation=true`,
        `${base}&fromMaqam=${pick(1)}&toMaqam=${pick(2)}&maxHops=20&maxRoutes=100&limitToShortestHops=true&waypoints=${pick(3)},${pick(4)}`,
        `${base}&fromMaqam=${pick(3)}&toMaqam=${pick(0)}&maxHops=20&maxRoutes=1000&returnToStartingMaqam=true&allowOctaveJumps=true&allowDownwardModulation=true&waypoints=${[5, 6, 7, 8, 9].map(pick).join(",")}`,
      );
    }
  return queries;
}

/** Nearest-rank percentile of ascending values: the smallest value with at least `p` of them at or below it. */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export function benchRoutes(queries: readonly string[] = benchQueries()): RouteBenchFigures {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let worstMs = 0;
  let worstQuery = "";
  let limitReached = 0;
  const failures: string[] = [];
  for (const q of queries) {
    const started = performance.now();
    const startedCpu = cpuMs();
    const response = dispatch(routes, { catalog, baseUrl: "http://localhost:3000", path: "/modulation-routes", query: new URLSearchParams(q) });
    // Serialising is part of answering; a huge body must show in the latency.
    JSON.stringify(response.body);
    const ms = performance.now() - started;
    times.push(ms);
    cpuTimes.push(cpuMs() - startedCpu);
    if (ms > worstMs) [worstMs, worstQuery] = [ms, q];
    if (response.status !== 200) failures.push(`${response.status} ${q}`);
    else if ((response.body as { searchLimitReached?: boolean }).searchLimitReached) limitReached++;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const sortedCpu = [...cpuTimes].sort((a, b) => a - b);
  return {
    queries: queries.length,
    medianMs: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    worstMs,
    worstQuery,
    medianCpuMs: percentile(sortedCpu, 0.5),
    p95CpuMs: percentile(sortedCpu, 0.95),
    worstCpuMs: sortedCpu[sortedCpu.length - 1],
    // maxRSS is in KiB.
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
    limitReached,
    failures,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const f = benchRoutes();
  if (process.argv.includes("--json")) console.log(JSON.stringify(f));
  else {
    console.log(`route search: ${f.queries} queries`);
    console.log(`  median ${f.medianMs.toFixed(1)} ms, p95 ${f.p95Ms.toFixed(1)} ms, worst ${f.worstMs.toFixed(1)} ms`);
    console.log(`  worst query: /modulation-routes?${f.worstQuery}`);
    console.log(`  CPU time: median ${f.medianCpuMs.toFixed(1)} ms, p95 ${f.p95CpuMs.toFixed(1)} ms, worst ${f.worstCpuMs.toFixed(1)} ms`);
    console.log(`  peak RSS ${f.peakRssMb.toFixed(0)} MB; search limit reached in ${f.limitReached}; non-200 answers: ${f.failures.length}`);
    for (const failure of f.failures) console.log(`    ${failure}`);
  }
}
