/**
 * The rendering half of the build: one slice of the plan (scripts/slicePlan.ts) rendered on
 * worker threads into `<dir>/api/` (with the pictures of its realisations in `<dir>/pictures/`),
 * class after class where the host's limits may stop it. A plain build renders the one slice 0/1;
 * `BUILD_SHARD=i/n` renders every n-th group, and scripts/buildShards.ts merges the n slices.
 */
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { join } from "node:path";
import { DATA_DIR } from "../src/data/load.js";
import type { Drawn, FromWorker, Job, Rendered, ToWorker, TwelveToneSeeds, WorkerSetup } from "./buildWorker.js";
import type { Planned } from "./manifest.js";
import { PROFILES } from "./profiles.js";
import { byPlace, classStart, inPlaces, type Bounded, type Place } from "./renderBound.js";
import { threadEntry } from "./threadBundle.js";
import { addTime, type TimesByRoute } from "./buildReport.js";
import { batchesOf, planBatches, planOf, resolveSlice, WHOLE, type Shard, type SliceOptions } from "./slicePlan.js";

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
  /** The workers' time by route, added up as the results come. */
  times: TimesByRoute;
  /** Pictures drawn alone, after the answers (a rendering in value order). */
  drawn: Drawn[];
  gcSeconds: number;
  /** Times a worker dropped its caches. */
  recycled: number;
}

/**
 * Feeds the batches of each stage to the workers (ready: their first message came) as each becomes
 * free, and stops them all at the end. A stage starts once the previous one is wholly rendered:
 * `nextStage` gives its batches, or undefined to end. A batch is let go once sent (the worker has
 * its copy): the plan's jobs, 1.8 M arrays for a doubled archive, are not all held to the end.
 */
function renderOn(
  workers: Worker[],
  nextStage: (progress: Progress) => Job[][] | undefined,
  routeOf: (index: number) => string,
  onResults: (n: number) => void,
) {
  return new Promise<Progress>((done, fail) => {
    const progress: Progress = { results: [], times: {}, drawn: [], gcSeconds: 0, recycled: 0 };
    const idle: Worker[] = [...workers];
    let batches: Job[][] = [];
    let next = 0;
    let busy = 0;
    let ended = false;
    const stopAll = () => Promise.all(workers.map((w) => w.terminate()));
    const feedIdle = () => {
      while (idle.length && next < batches.length) {
        busy++;
        const batch = batches[next];
        batches[next++] = [];
        idle.pop()?.postMessage(batch);
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
          for (const [k, r] of m.results.entries()) {
            progress.results.push(r);
            addTime(progress.times, routeOf(r.index), m.times[2 * k], m.times[2 * k + 1]);
          }
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

/** The batches split by place (renderBound), in value order; the answers only (their pictures come last). */
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
  return [...stages].sort(([a], [b]) => byPlace(a, b));
}

/**
 * Small groups rendered together: consecutive ones packed into batches of up to this many jobs.
 * The availability of a maqām or jins is a group per idName (its base one and each transposed one,
 * two requests each, consecutive in the plan), and every transposed idName's answer reads the
 * entity's transposition lists in every tuning system × starting note. A worker drops its caches
 * between batches once its heap is past the bound, so one idName a batch had the lists made again
 * and again, more often the more tuning systems there are (each list set larger, the heap full
 * sooner): that work grew with the square of the archive (docs/benchmarks.md). A pack of 64 jobs
 * makes an entity's lists once or twice, and holds the lists of a few entities at most.
 */
export const PACKED_JOBS = 64;

/**
 * A stage's batches, none longer than a (2 × workers)-th of the stage's jobs, largest first. A batch
 * is one cache group, and a stage of few large groups (the exports of a tuning system of many notes)
 * otherwise ends with one worker rendering the last group while the others wait for the next stage:
 * 2.4 s of the workers' time in a clean build (docs/benchmarks.md). A group is cut into consecutive
 * runs of near-equal length, so the files of one rendering stay together; consecutive small groups
 * are packed together (PACKED_JOBS), within the same bound.
 */
export function balancedBatches(batches: readonly Job[][], workers: number): Job[][] {
  const jobs = batches.reduce((n, b) => n + b.length, 0);
  const longest = Math.max(1, Math.ceil(jobs / (2 * Math.max(1, workers))));
  const packLimit = Math.min(PACKED_JOBS, longest);
  const out: Job[][] = [];
  let pack: Job[] | undefined;
  for (const batch of batches) {
    if (pack && pack.length + batch.length <= packLimit) {
      pack.push(...batch);
      continue;
    }
    if (batch.length < packLimit) {
      pack = [...batch];
      out.push(pack);
      continue;
    }
    pack = undefined;
    const runs = Math.ceil(batch.length / longest);
    const length = Math.ceil(batch.length / runs);
    for (let at = 0; at < batch.length; at += length) out.push(batch.slice(at, at + length));
  }
  return out.sort((a, b) => b.length - a.length);
}

/** The stages of a rendering on `workers` workers: all batches at once, or in value order while `bounded` says they can be kept. */
function stagesFor(batches: Job[][], bounded: Bounded | undefined, workers: number): (progress: Progress) => Job[][] | undefined {
  // The stages are let go as they are given: no closure names `batches`, which would hold them all to the end.
  if (!bounded) {
    let all: Job[][] | undefined = batches;
    return () => {
      const given = all;
      all = undefined;
      return given && balancedBatches(given, workers);
    };
  }
  const stages = stagesOf(batches, bounded.placeOf);
  let pictures = false;
  return ({ results }) => {
    const stage = stages.shift();
    if (stage) return bounded.goOn(stage[0], results) ? balancedBatches(stage[1], workers) : undefined;
    if (pictures) return undefined;
    pictures = true;
    return bounded.goOn(classStart("picture"), results) ? balancedBatches(planBatches(bounded.pictureJobs(results)), workers) : undefined;
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
  /** 12-tone groupings the plan maker made, given to the workers (scripts/buildWorker.ts). */
  seeds?: TwelveToneSeeds;
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
  const { planned, batches, seeds } = made;
  started ??= launch();
  const { workers } = started;
  if (seeds?.length) for (const w of workers) w.postMessage({ seeds } satisfies ToWorker);
  try {
    await started.ready;
  } catch (e) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw e;
  }
  const total = batches.reduce((n, b) => n + b.length, 0);
  let done = 0;
  const routeOf = (index: number) => planned[index].route;
  // Returned, not awaited: this call's frame, and the plan's batches in it, are not held while the workers render.
  return renderOn(workers, stagesFor(batches, bound?.(planned), workers.length), routeOf, (n) => {
    done += n;
    o.onProgress?.(done, total);
  }).then((progress) => ({ ...progress, planned, workers: o.workers }));
}
