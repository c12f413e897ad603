/**
 * The rendering of the build alone, in one process: `tsx scripts/bench-render.ts [k]` plans the
 * github-pages profile over data/, keeps every k-th tuning system × starting note or entity group
 * (default 8, the groups a shard k would render) and answers them as a build worker does (dispatch
 * and serialize on one build catalog), writing nothing. Prints the seconds on the clock and of the
 * CPU, the garbage collector's share, and a SHA-256 over every request, status and body in order:
 * a change that only makes rendering faster must leave it as it was.
 */
import { createHash } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { GCProfiler } from "node:v8";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { serialize } from "../src/serve/handler.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { limitsOf } from "./fitTree.js";
import { PROFILES } from "./profiles.js";
import { batchesOf, planOf } from "./slicePlan.js";

const every = Number(process.argv[2] ?? 8);
if (!Number.isInteger(every) || every < 1) throw new Error(`usage: tsx scripts/bench-render.ts [k], k a positive integer (got '${process.argv[2]}')`);

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const cpuSeconds = (used: NodeJS.CpuUsage) => ((used.user + used.system) / 1e6).toFixed(1);

const planStart = performance.now();
const planned = planOf({ profile: "github-pages", limits: limitsOf(PROFILES["github-pages"].limits, undefined) });
const batches = batchesOf(planned, { index: 0, count: every });
const jobs = batches.flat();
console.log(
  `plan: ${planned.length} requests in ${seconds(performance.now() - planStart)} s; rendering ${jobs.length} (${batches.length} groups, every ${every}th)`,
);

const gc = new GCProfiler();
gc.start();

const load = loadavg()[0];
const start = performance.now();
const cpu = process.cpuUsage();
const catalog = createCatalog(readFacts(), "build");
const digest = createHash("sha256");
let bytes = 0;
for (const [, request] of jobs) {
  const url = new URL(request, "http://x");
  const response = dispatch(routes, { catalog, baseUrl: "http://localhost:3000", path: url.pathname, query: url.searchParams });
  const body = serialize(response);
  digest.update(`${request}\n${response.status}\n${body.length}\n`);
  digest.update(body);
  bytes += body.length;
}
const used = process.cpuUsage(cpu);
const wall = performance.now() - start;
const gcMs = (gc.stop()?.statistics ?? []).reduce((ms, s) => ms + s.cost / 1000, 0);
console.log(`rendered ${jobs.length} answers (${(bytes / 1e6).toFixed(1)} MB) in ${seconds(wall)} s wall, ${cpuSeconds(used)} s CPU, GC ${seconds(gcMs)} s`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}; load ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`);
console.log(`sha256 ${digest.digest("hex")}`);
