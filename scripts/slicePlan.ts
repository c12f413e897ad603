import { availableParallelism } from "node:os";
import { createHash } from "node:crypto";
import { routes } from "../src/api/routes.js";
import type { Route } from "../src/api/route.js";
import { prerenderRequests } from "./prerender/index.js";
import type { ListOf } from "../src/api/shared/prerender.js";
import { requestParts, staticFileOf } from "../src/api/staticPath.js";
import type { Encoding } from "../src/serve/handler.js";
import { readFacts } from "../src/data/load.js";
import type { Facts } from "../src/data/facts.js";
import { createCatalog, type Catalog } from "../src/theory/catalog.js";
import type { Job } from "./buildWorker.js";
import type { Planned } from "./manifest.js";
import { PROFILES, profileNamed, type HostProfile } from "./profiles.js";
import { limitsOf, withinFileLimit } from "./fitTree.js";
import { valueClassOfParts, type HostLimits } from "./budget.js";
import { SITE_FILES } from "./site.js";

/** One of n slices of the plan. */
export interface Shard {
  index: number;
  count: number;
}

export const WHOLE: Shard = { index: 0, count: 1 };

/** A build option it cannot take, a slice that cannot be made, or slices that cannot be merged: the build says why in a sentence. */
export class ShardError extends Error {}

/** BUILD_SHARD as the build takes it: `i/n` with 0 ≤ i < n, or a clear error. */
export function shardOf(raw: string | undefined): Shard {
  if (raw === undefined || raw === "") return WHOLE;
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const [index, count] = m ? [Number(m[1]), Number(m[2])] : [Number.NaN, Number.NaN];
  if (!(count >= 1 && index < count)) throw new ShardError(`BUILD_SHARD must be i/n with 0 ≤ i < n, e.g. 0/3 (got '${raw}')`);
  return { index, count };
}

/**
 * The cache the theory modules would reuse for a request: its tuning system × starting note
 * (query parameters, `/tuning-systems/{id}/{note}/…` or an export's path), else its entity path.
 */
export function cacheGroupOfParts(pathname: string, query: URLSearchParams): string {
  const ts = query.get("tuningSystem");
  const note = query.get("startingNote");
  if (ts && note) return `${ts} × ${note}`;
  const m = /^\/tuning-systems\/([^/]+)\/([^/]+)\//.exec(pathname);
  if (m) return `${m[1]} × ${m[2]}`;
  // Exports: …/{tuningSystem}/{startingNote}.ext (tuning systems, maqāmāt, ajnās) or …/{tuningSystem}/{startingNote}/{set}.ext.
  const file = /^\/exports\/(?:pitch-class-sets\/([^/]+)\/([^/]+)\/|.*\/([^/]+)\/([^/.]+?)(?:-descending|-names)?\.[a-z]+$)/.exec(pathname);
  if (file) return `${file[1] ?? file[3]} × ${file[2] ?? file[4]}`;
  return pathname.split("/").slice(0, 3).join("/");
}

/** cacheGroupOfParts of a request, split by hand (requestParts). */
export const cacheGroupOf = (request: string): string => cacheGroupOfParts(...requestParts(request));

/** Batches of jobs, one per cache group (`groupOf`, by default its request's), largest first so that the last batches are short. */
export function planBatches(jobs: Job[], groupOf = (job: Job) => cacheGroupOf(job[1])): Job[][] {
  const groups = new Map<string, Job[]>();
  for (const job of jobs) {
    const key = groupOf(job);
    const group = groups.get(key);
    if (group) group.push(job);
    else groups.set(key, [job]);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

/**
 * The batches of one shard: the cache groups in the order of their names, every n-th from the
 * i-th. Whole groups, so no two machines compute the same tuning system × starting note.
 */
export function batchesOfShard(batches: Job[][], shard: Shard): Job[][] {
  const names = batches.map((b) => cacheGroupOf(b[0][1])).sort();
  const position = new Map(names.map((name, i) => [name, i]));
  return batches.filter((b) => (position.get(cacheGroupOf(b[0][1])) ?? 0) % shard.count === shard.index);
}

/** The shard's batches of a plan. */
export const batchesOf = (planned: readonly Planned[], shard: Shard): Job[][] =>
  // Four elements from the start, the picture's mark unset: a rendering in value order sets it in place (stagesOf).
  batchesOfShard(
    planBatches(
      planned.map((p, i): Job => [i, p.request, p.file, undefined]),
      (job) => planned[job[0]].group,
    ),
    shard,
  );

/**
 * The name of the route a path matches, the first in dispatch order. Only the routes whose first
 * segment is a parameter or the path's own first segment, and whose path's text after its last
 * parameter ends the path, are tried: the others cannot match (the exports have some forty routes).
 */
function routeNamer(): (path: string) => string {
  const byFirst = new Map<string, readonly Route[]>();
  const firstOf = (path: string) => path.split("/")[1] ?? "";
  const tails = new Map(routes.map((r) => [r, r.path.slice(r.path.lastIndexOf("}") + 1)]));
  return (path) => {
    const trimmed = path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") : path;
    const first = firstOf(trimmed);
    let candidates = byFirst.get(first);
    if (!candidates) {
      candidates = routes.filter((r) => firstOf(r.path).includes("{") || firstOf(r.path) === first);
      byFirst.set(first, candidates);
    }
    return candidates.find((r) => trimmed.endsWith(tails.get(r) ?? "") && r.matcher.test(trimmed))?.name ?? "(no route)";
  };
}

/** The string held for `value` in `held`, `value` itself the first time. */
function interned(held: Map<string, string>, value: string): string {
  const known = held.get(value);
  if (known !== undefined) return known;
  held.set(value, value);
  return value;
}

/**
 * `text` as one sequential string. The enumerators build requests, and staticFileOf files, by
 * concatenation: V8 holds such a string as a tree of its parts until something reads it whole.
 * Held so, today's plan of 920,000 requests took 377 MB where it takes 339 MB, and the finishing's
 * sort by file flattened them all at once: on 1.8 M such files, 0.29 GB more at its height, and
 * 8.5 s where 5.0 s. `normalize` returns the same characters (requests and files are ASCII) as a
 * string of its own.
 */
const sequential = (text: string): string => text.normalize();

function plan(requests: Iterable<string>): Planned[] {
  const seen = new Set<string>();
  const planned: Planned[] = [];
  const routeNameOf = routeNamer();
  // The few distinct query shapes, each held once rather than once per request.
  const shapes = new Map<string, string>();
  const shapeOf = (query: URLSearchParams) => interned(shapes, [...query.keys()].join("&"));
  // And each group's name once (some 10,000 of them), the same string for all its requests.
  const groups = new Map<string, string>();
  for (const planning of requests) {
    const request = sequential(planning);
    const [path, query] = requestParts(request);
    const made = staticFileOf(path, query);
    // A file without a query is a slice of its request, sharing its characters.
    const file = made && query.size > 0 ? sequential(made) : made;
    if (!file) throw new Error(`build: '${request}' is not a canonical request (sort its parameters)`);
    if (seen.has(file)) continue;
    seen.add(file);
    const group = interned(groups, cacheGroupOfParts(path, query));
    planned.push({ request, file, route: routeNameOf(path), query: shapeOf(query), valueClass: valueClassOfParts(path, query), group });
  }
  return planned;
}

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

/** The plan after its first cut, the same on every machine given the same facts and options. */
export function planOf(options: {
  requests?: Iterable<string>;
  dataDir?: string;
  /** The facts of dataDir when the caller has read them already. */
  facts?: Facts;
  /** The catalog to enumerate over, when the caller goes on with it; by default one of the facts', let go once the plan is made. */
  catalog?: Catalog;
  profile: HostProfile;
  limits: HostLimits;
  listOf?: ListOf;
}): Planned[] {
  // The planning catalog is let go once the plan is made: while the workers render, each with
  // a catalog of its own, it would only add its caches to the build's peak memory.
  const prerender = { ...PROFILES[options.profile].prerender, listOf: options.listOf };
  const requests = options.requests ?? prerenderRequests(options.catalog ?? createCatalog(options.facts ?? readFacts(options.dataDir), "build"), prerender);
  return withinFileLimit(plan(requests), options.limits.files, ROOT_FILES.length + SITE_FILES);
}

/** What identifies a plan: slices of different plans must not be merged. */
export const planDigestOf = (planned: Planned[]): string => {
  const digest = createHash("sha256");
  for (const p of planned) digest.update(`${p.request}\t${p.file}\n`);
  return digest.digest("hex");
};

export interface SliceOptions {
  baseUrl: string;
  requests?: Iterable<string>;
  /** Worker threads; default BUILD_WORKERS or the number of cores. */
  workers?: number;
  /** Siblings written for files over COMPRESS_MIN_BYTES; default PRECOMPRESS or the profile's. */
  encodings?: Encoding[];
  /** Heap in use after a batch beyond which a worker drops its caches; default BUILD_RECYCLE_MB or 100 MB. */
  recycleHeapBytes?: number;
  /** What to pre-render and how (scripts/profiles.ts); default HOST_PROFILE, else github-pages. */
  profile?: HostProfile;
  /** Directory of the fact files; default DATA_DIR, else data/. */
  dataDir?: string;
  /** How the plan's per-tuning-system parts are listed (scripts/planListing.ts); by default computed. */
  listOf?: ListOf;
  /** The host's limits, over the profile's; default HOST_LIMITS (`tarBytes=N,files=N,fileBytes=N`). */
  limits?: HostLimits;
  onProgress?: (done: number, total: number) => void;
}

const defaultEncodings = (profile: HostProfile): Encoding[] => {
  if (process.env.PRECOMPRESS === undefined) return PROFILES[profile].encodings;
  const wanted = process.env.PRECOMPRESS.split(",").map((s) => s.trim());
  return wanted.filter((e): e is Encoding => e === "gzip" || e === "br");
};

/** The options with their defaults from the environment and the profile. */
export function resolveSlice(options: SliceOptions) {
  const profile = options.profile ?? profileNamed(process.env.HOST_PROFILE);
  return {
    ...options,
    profile,
    limits: options.limits ?? limitsOf(PROFILES[profile].limits, process.env.HOST_LIMITS),
    encodings: options.encodings ?? defaultEncodings(profile),
    workers: Math.max(1, options.workers ?? Number(process.env.BUILD_WORKERS ?? availableParallelism())),
    dataDir: options.dataDir ?? process.env.DATA_DIR,
  };
}
