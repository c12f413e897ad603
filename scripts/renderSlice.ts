/**
 * The rendering half of the build: the plan, its first cut (the file limit, which depends on the
 * plan alone), and the rendering of one slice of it on worker threads into `<dir>/api/` (with the
 * pictures of its realisations in `<dir>/pictures/`). A plain build renders the one slice 0/1;
 * `BUILD_SHARD=i/n` renders every n-th tuning system × starting note group, so n machines render
 * the whole plan and scripts/build.ts merges their slices.
 */
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { routes } from "../src/api/routes.js";
import type { Route } from "../src/api/route.js";
import { prerenderRequests } from "./prerender/index.js";
import type { ListOf } from "../src/api/shared/prerender.js";
import { requestParts, staticFileOf } from "../src/api/staticPath.js";
import type { Encoding } from "../src/serve/handler.js";
import { DATA_DIR, readFacts } from "../src/data/load.js";
import type { Facts } from "../src/data/facts.js";
import { createCatalog, type Catalog } from "../src/theory/catalog.js";
import type { Drawn, FromWorker, Job, Rendered, WorkerSetup } from "./buildWorker.js";
import type { Planned } from "./manifest.js";
import { PROFILES, profileNamed, type HostProfile } from "./profiles.js";
import { limitsOf, withinFileLimit } from "./fitTree.js";
import { valueClassOfParts, type HostLimits } from "./budget.js";
import { byPlace, classStart, inPlaces, type Bounded, type Place } from "./renderBound.js";
import { SITE_FILES } from "./site.js";
import { threadEntry } from "./threadBundle.js";

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
export function cacheGroupOf(request: string): string {
  // Split by hand (requestParts): this runs for every request of the plan.
  const [pathname, query] = requestParts(request);
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
  batchesOfShard(planBatches(planned.map((p, i): Job => [i, p.request, p.file, undefined])), shard);

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
    const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
    const first = firstOf(trimmed);
    let candidates = byFirst.get(first);
    if (!candidates) {
      candidates = routes.filter((r) => firstOf(r.path).includes("{") || firstOf(r.path) === first);
      byFirst.set(first, candidates);
    }
    return candidates.find((r) => trimmed.endsWith(tails.get(r) ?? "") && r.matcher.test(trimmed))?.name ?? "(no route)";
  };
}

function plan(requests: Iterable<string>): Planned[] {
  const seen = new Set<string>();
  const planned: Planned[] = [];
  const routeNameOf = routeNamer();
  // The few distinct query shapes, each held once rather than once per request.
  const shapes = new Map<string, string>();
  const shapeOf = (query: URLSearchParams) => {
    const shape = [...query.keys()].join("&");
    const known = shapes.get(shape);
    if (known !== undefined) return known;
    shapes.set(shape, shape);
    return shape;
  };
  for (const request of requests) {
    const [path, query] = requestParts(request);
    const file = staticFileOf(path, query);
    if (!file) throw new Error(`build: '${request}' is not a canonical request (sort its parameters)`);
    if (seen.has(file)) continue;
    seen.add(file);
    planned.push({ request, file, route: routeNameOf(path), query: shapeOf(query), valueClass: valueClassOfParts(path, query) });
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

/**
 * A worker whose heap holds more than this after a batch drops its caches (scripts/buildWorker.ts).
 * Dropping costs only the recomputation of what the next batches share, so the bound is low: a
 * github-pages build peaked at 1,143 MB with 100 MB against 1,336 MB with 200 MB, in about the same
 * time (docs/benchmarks.md).
 */
const RECYCLE_HEAP_BYTES = Number(process.env.BUILD_RECYCLE_MB ?? 100) * 1e6;

/** Starts a build worker; it posts its first message once it has loaded the data. */
function startWorker(setup: WorkerSetup): Worker {
  return new Worker(threadEntry("scripts/buildWorker.ts"), { workerData: setup, execArgv: [] });
}

interface Progress {
  results: Rendered[];
  /** Pictures drawn alone, after the answers (a rendering in value order). */
  drawn: Drawn[];
  gcSeconds: number;
  /** Times a worker dropped its caches. */
  recycled: number;
}

/**
 * Feeds the batches of each stage to the workers (ready: their first message came) as each becomes
 * free, and stops them all at the end. A stage starts once the previous one is wholly rendered:
 * `nextStage` gives its batches, or undefined to end.
 */
function renderOn(workers: Worker[], nextStage: (progress: Progress) => Job[][] | undefined, onResults: (n: number) => void) {
  return new Promise<Progress>((done, fail) => {
    const progress: Progress = { results: [], drawn: [], gcSeconds: 0, recycled: 0 };
    const idle: Worker[] = [...workers];
    let batches: Job[][] = [];
    let next = 0;
    let busy = 0;
    let ended = false;
    const stopAll = () => Promise.all(workers.map((w) => w.terminate()));
    const feedIdle = () => {
      while (idle.length && next < batches.length) {
        busy++;
        idle.pop()!.postMessage(batches[next++]);
      }
      if (ended || next < batches.length || busy > 0) return;
      const stage = nextStage(progress);
      if (stage === undefined) {
        ended = true;
        void stopAll().then(() => done(progress));
        return;
      }
      batches = stage;
      next = 0;
      feedIdle();
    };
    const attach = (w: Worker) => {
      w.on("message", (m: FromWorker) => {
        if (ended) return;
        if (m.type === "rendered") {
          for (const r of m.results) progress.results.push(r);
          for (const d of m.drawn) progress.drawn.push(d);
          progress.gcSeconds += m.gcMs / 1000;
          onResults(m.results.length + m.drawn.length);
          return;
        }
        if (m.type !== "batchDone") return;
        busy--;
        if (m.dropped) progress.recycled++;
        idle.push(w);
        feedIdle();
      });
      w.on("error", (e) => {
        if (ended) return;
        ended = true;
        void stopAll().then(() => fail(e));
      });
    };
    workers.forEach(attach);
    feedIdle();
  });
}

/** The batches split by place (renderBound), in value order, each place's batches largest first; the answers only (their pictures come last). */
function stagesOf(batches: Job[][], placeOf: (index: number) => Place): [Place, Job[][]][] {
  const stages = new Map<Place, Job[][]>();
  for (const batch of batches)
    for (const [place, part] of inPlaces(batch, (job) => placeOf(job[0]))) {
      // Marked in place, not copied: the plan's jobs, a quarter of a million, are held once.
      for (const job of part) job[3] = "none";
      const stage = stages.get(place);
      if (stage) stage.push(part);
      else stages.set(place, [part]);
    }
  return [...stages].sort(([a], [b]) => byPlace(a, b)).map(([place, stage]) => [place, stage.sort((a, b) => b.length - a.length)]);
}

/** The stages of a rendering: all batches at once, or in value order while `bounded` says they can be kept. */
function stagesFor(batches: Job[][], bounded: Bounded | undefined): (progress: Progress) => Job[][] | undefined {
  if (!bounded) {
    let given = false;
    return () => {
      if (given) return undefined;
      given = true;
      return batches;
    };
  }
  const stages = stagesOf(batches, bounded.placeOf);
  let at = 0;
  let pictures = false;
  return ({ results }) => {
    if (at < stages.length) {
      const [place, batches] = stages[at++];
      return bounded.goOn(place, results) ? batches : undefined;
    }
    if (pictures) return undefined;
    pictures = true;
    return bounded.goOn(classStart("picture"), results) ? planBatches(bounded.pictureJobs(results)) : undefined;
  };
}

export interface Slice extends Progress {
  planned: Planned[];
  workers: number;
}

/** The plan and the shard's batches to render. */
export interface Made {
  planned: Planned[];
  batches: Job[][];
}

/**
 * Makes the plan and chooses which of the shard's batches are rendered (an incremental build takes
 * the others over). `startWorkers` starts the render workers before the plan is given, when the plan
 * maker knows there is room for them (each holds its facts and catalog, about 100 MB): their start,
 * a second or two, then overlaps the rest of its work.
 */
export type PlanMaker = (o: ReturnType<typeof resolveSlice>, shard: Shard, startWorkers: () => void) => Made | Promise<Made>;

/** The plan made on this thread, every batch of the shard rendered. */
const planHere: PlanMaker = (o, shard) => {
  const planned = planOf(o);
  return { planned, batches: batchesOf(planned, shard) };
};

/**
 * Plans (by `makePlan`), and renders the shard's batches it gives into `<dir>/api/` (which must
 * exist), their pictures into `<dir>/pictures/` when the profile wants them; with `bounded`, in
 * value order up to where the host's limits stop.
 */
export async function renderSlice(
  dir: string,
  options: SliceOptions,
  shard: Shard = WHOLE,
  makePlan: PlanMaker = planHere,
  bound?: (planned: Planned[]) => Bounded,
): Promise<Slice> {
  const o = resolveSlice(options);
  const picturesDir = PROFILES[o.profile].pictures ? join(dir, "pictures") : undefined;
  // The facts' folder named even when it is data/: the bundle the worker runs lives elsewhere.
  const setup = {
    apiDir: join(dir, "api"),
    baseUrl: o.baseUrl,
    encodings: o.encodings,
    dataDir: o.dataDir ?? DATA_DIR,
    picturesDir,
    dropCachesBytes: o.recycleHeapBytes ?? RECYCLE_HEAP_BYTES,
  };
  // Started once the plan is made, or before when the plan maker says so (PlanMaker).
  const launch = () => {
    const workers = Array.from({ length: o.workers }, () => startWorker(setup));
    // The first message of each (it has read the facts), listened for from the start: it may come before the plan.
    const ready = Promise.all(workers.map((w) => once(w, "message")));
    ready.catch(() => undefined);
    return { workers, ready };
  };
  let started: ReturnType<typeof launch> | undefined;
  let failed = false;
  let made: Made;
  try {
    made = await makePlan(o, shard, () => {
      if (!failed) started ??= launch();
    });
  } catch (e) {
    failed = true;
    await Promise.all((started?.workers ?? []).map((w) => w.terminate()));
    throw e;
  }
  const { planned, batches } = made;
  started ??= launch();
  const { workers } = started;
  try {
    await started.ready;
  } catch (e) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw e;
  }
  const total = batches.reduce((n, b) => n + b.length, 0);
  let done = 0;
  const progress = await renderOn(workers, stagesFor(batches, bound?.(planned)), (n) => {
    done += n;
    o.onProgress?.(done, total);
  });
  return { ...progress, planned, workers: o.workers };
}
