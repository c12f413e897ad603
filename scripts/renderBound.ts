/**
 * Where a build's rendering stops (renderSlice's Bounded): the fit keeps a prefix of the value
 * ranking (scripts/budget.ts), so once the files already known — the datasets, the answers
 * rendered and those taken over from the previous build — pass the host's limits before a class,
 * nothing of that class or after it can be kept, and rendering it would only feed the fit's
 * removals. The known files are a part of what the fit will see, and the tar of a part of a
 * ranking is never larger than the whole's up to the same place: the stop never leaves out a
 * file the fit would keep, so the tree is the one a build rendering everything publishes.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { SIBLING_SUFFIX, type Encoding } from "../src/serve/handler.js";
import { listTree } from "./treeSize.js";
import type { Catalog } from "../src/theory/catalog.js";
import { bundle } from "./bundle.js";
import { siteAside, type SiteAside } from "./site.js";
import { ROOT_FILES_RESERVE } from "./fitTree.js";
import { DATASETS_PATH } from "../src/api/datasets/files.js";
import type { Job, Rendered } from "./buildWorker.js";
import type { Planned } from "./manifest.js";
import { isPlannedRealisation, pictureFileOf } from "./pictures.js";
import { byValue, datasetClassOf, datasetOrderOf, startFit, VALUE_RANK, type Candidate, type HostLimits, type NotRendered, type ValueClass } from "./budget.js";

/**
 * A place in the value ranking: the files of `valueClass` whose order (for an answer, its index in
 * the plan) is `from` or more. A rendering in value order asks whether to go on at the start of
 * each class and at a few places within it.
 */
export interface Place {
  valueClass: ValueClass;
  from: number;
}

/** The start of a class. */
export const classStart = (valueClass: ValueClass): Place => ({ valueClass, from: Number.NEGATIVE_INFINITY });

/**
 * A rendering in value order that stops where the host's limits would cut the tree anyway: the
 * answers place by place (scripts/budget.ts), then the pictures, each part once the one before is
 * wholly rendered and only while `goOn` says the next can still be kept. What is never rendered is
 * what the fit would have left out.
 */
export interface Bounded {
  /** The place at which a planned request is rendered: its class, and the part of the class it falls in. */
  placeOf: (index: number) => Place;
  /** Whether anything from `place` on can still be kept, every file ranked before it rendered (`results`) or taken over. */
  goOn: (place: Place, results: readonly Rendered[]) => boolean;
  /** The pictures still to draw once every answer is rendered ("only" jobs). */
  pictureJobs: (results: readonly Rendered[]) => Job[];
  /**
   * Once the rendering has been told not to go on, whether a request lies past where a build
   * rendering the whole plan in value order stops: the first of the plan's places after the first
   * file the fit could not keep (undefined while it may go on). A rendering that took parts of the
   * plan over asks only where it has work, so it may be told later than that build, and what it
   * took over past this place that build never makes.
   */
  pastStop: () => ((index: number) => boolean) | undefined;
}

const rankOf = (c: ValueClass) => VALUE_RANK[c];

/** Places in value order (compared, not subtracted: a class's start is at -∞, and -∞ - -∞ is NaN). */
export const byPlace = (a: Place, b: Place): number => rankOf(a.valueClass) - rankOf(b.valueClass) || (a.from === b.from ? 0 : a.from < b.from ? -1 : 1);

/** Items grouped by the place each falls in (`placeOf` gives one object per place), the places in value order. */
export function inPlaces<T>(items: Iterable<T>, placeOf: (item: T) => Place): [Place, T[]][] {
  const parts = new Map<Place, T[]>();
  for (const item of items) {
    const place = placeOf(item);
    const part = parts.get(place);
    if (part) part.push(item);
    else parts.set(place, [item]);
  }
  return [...parts].sort(([a], [b]) => byPlace(a, b));
}

/** Whether `c` is ranked before `place`. */
const isBefore = (c: Candidate, place: Place) => {
  const d = rankOf(c.valueClass) - rankOf(place.valueClass);
  return d < 0 || (d === 0 && c.order < place.from);
};

/**
 * The shares of a class's requests, in plan order, at which the rendering asks again: where the
 * host's limit falls at the start of a class (the tree full but for a few hundred kB), it renders
 * a 16,384th of the class (for the 30,000 variants, their first request: the first are 12-tone sets
 * of up to 2 MB, seconds of a worker each, which the fit would leave out) rather than all of it;
 * where it falls further in, at most four times what is kept of the class, and never more than a
 * quarter of the class in vain (an archive twice today's fills GitHub Pages within its exports:
 * without the halves and three quarters, 238,370 of them were rendered to be left out, 19 s of an
 * 85 s build). Each share is a barrier (the workers wait for the part's last batch), so there are
 * few; one that falls on no request of a small class is none.
 */
export const PART_SHARES = [1 / 16384, 1 / 4096, 1 / 1024, 1 / 256, 1 / 64, 1 / 16, 1 / 4, 1 / 2, 3 / 4];

/** The places of a plan's requests: each class cut where PART_SHARES of its requests, in plan order, are behind; and all of them in order, the pictures' last. */
function placesOf(planned: readonly Planned[], classOf: (index: number) => ValueClass): { placeOf: (index: number) => Place; all: Place[] } {
  const indices = new Map<ValueClass, number[]>();
  for (let i = 0; i < planned.length; i++) {
    const c = classOf(i);
    const list = indices.get(c);
    if (list) list.push(i);
    else indices.set(c, [i]);
  }
  const starts = new Map<ValueClass, Place[]>();
  for (const [c, list] of indices) {
    const from = [...new Set(PART_SHARES.map((share) => list[Math.floor(list.length * share)]))].filter((i) => i > list[0]);
    starts.set(c, [classStart(c), ...from.map((i) => ({ valueClass: c, from: i }))]);
  }
  const placeOf = (index: number) => {
    const places = starts.get(classOf(index)) ?? [];
    let at = 0;
    while (at + 1 < places.length && places[at + 1].from <= index) at++;
    return places[at];
  };
  return { placeOf, all: [...[...starts.values()].flat().sort(byPlace), classStart("picture")] };
}

/** The files below `dir`/`folder` (none when it is missing): paths relative to `dir`, and bytes. */
function filesOf(dir: string, folder = ""): [path: string, bytes: number][] {
  if (!existsSync(join(dir, folder))) return [];
  return [...listTree(join(dir, folder)).files].map(([path, bytes]) => [folder ? `${folder}/${path}` : path, bytes]);
}

/** The dataset files below the tree being made, as the fit ranks them. */
const datasetCandidates = (partial: string): Candidate[] =>
  filesOf(partial, `api${DATASETS_PATH}`).map(([path, bytes]) => ({
    path,
    bytes,
    valueClass: datasetClassOf(path.slice(4)),
    order: datasetOrderOf(path.slice(4)),
  }));

/**
 * The site and the bundles as the finishing will write them, made aside before the rendering: the
 * site's and the Lambda's bytes do not depend on it (the service worker's version, a digest of
 * what was rendered, has a fixed length); the worker's bundle lists the shapes of the plan's
 * requests, inlined as one literal, so made with none (before the plan) it is no larger than the final one.
 * The site is made into `siteDir` and kept there, to be placed into the tree once rendered (placeSite).
 */
export async function siteCandidates(
  baseUrl: string,
  catalog: Catalog,
  partial: string,
  siteDir: string,
): Promise<{ candidates: Candidate[]; site: SiteAside }> {
  // Made where the build places them (their source maps name the inputs from there), so that the
  // Lambda's is the one the build keeps and copies; the worker's is made again once the written
  // shapes are known.
  const bundles = [join("_lambda", "index.mjs"), "_worker.js"];
  await bundle({ entry: "src/serve/lambda.ts", outFile: join(partial, bundles[0]), baseUrl });
  await bundle({ entry: "src/serve/worker.ts", outFile: join(partial, bundles[1]), baseUrl, written: {} });
  const site = await siteAside(siteDir, baseUrl, catalog);
  const files = [
    ...bundles.flatMap((file) => [file, `${file}.map`].map((path): [string, number] => [path, statSync(join(partial, path)).size])),
    ...filesOf(siteDir),
  ];
  return { candidates: files.map(([path, bytes]): Candidate => ({ path, bytes, valueClass: "site", order: 0 })), site };
}

/** The files of the answers (and their siblings), as the fit ranks them; `classOf` remembers each request's class. */
function answerCandidates(results: readonly Rendered[], planned: readonly Planned[], classOf: (index: number) => ValueClass): Candidate[] {
  const out: Candidate[] = [];
  for (const r of results) {
    if (r.status !== 200) continue;
    const path = `api/${planned[r.index].file}`;
    const valueClass = classOf(r.index);
    out.push({ path, bytes: r.bytes, valueClass, order: r.index });
    for (const [e, bytes] of Object.entries(r.encoded) as [Encoding, number][]) out.push({ path: path + SIBLING_SUFFIX[e], bytes, valueClass, order: r.index });
  }
  return out;
}

export interface BoundSetup {
  /** The tree being made, with the datasets already written. */
  partial: string;
  /** The site's files (siteCandidates). */
  site: readonly Candidate[];
  limits: HostLimits;
  /** Whether the profile draws pictures. */
  pictures: boolean;
  /** The results taken over from the previous build, and the pictures files it drew (below pictures/), read when the rendering asks. */
  taken: () => { results: readonly Rendered[]; pictureFiles: ReadonlySet<string> };
}

/** Whether `limits` can cut anything: without a limit on bytes or files, everything is rendered in one stage. */
export const limitsBound = (limits: HostLimits) => limits.tarBytes !== undefined || limits.files !== undefined;

/** The stop of a rendering of `planned` into `setup.partial`. */
export function renderBound(setup: BoundSetup): (planned: Planned[]) => Bounded {
  return (planned) => {
    const classOf = (index: number): ValueClass => planned[index].valueClass;
    let places: ReturnType<typeof placesOf> | undefined;
    const placesOfPlan = () => {
      places ??= placesOf(planned, classOf);
      return places;
    };
    // The fit goes on place by place as the rendering does: the files ranked before the place asked about are all
    // known by then (rendered or taken over), and a fit keeps a prefix of the ranking, so only they decide.
    let fit = startFit(setup.limits, ROOT_FILES_RESERVE);
    let fitted = classStart("site");
    let firstLeft: Candidate | undefined;
    // The site's, the datasets' and the taken-over files, ranked once and fitted from `next` on; the rendered ones as they come.
    let known: Candidate[] | undefined;
    let next = 0;
    let seen: readonly Rendered[] = [];
    let seenCount = 0;
    let later: Candidate[] = [];
    const restart = () => {
      fit = startFit(setup.limits, ROOT_FILES_RESERVE);
      fitted = classStart("site");
      firstLeft = undefined;
      next = 0;
      seen = [];
      seenCount = 0;
      later = [];
    };
    const goOn = (place: Place, results: readonly Rendered[]): boolean => {
      if (!limitsBound(setup.limits)) return true;
      if (byPlace(place, fitted) < 0 || results !== seen || results.length < seenCount) restart();
      if (firstLeft) return false;
      known ??= [...setup.site, ...datasetCandidates(setup.partial), ...answerCandidates(setup.taken().results, planned, classOf)].sort(byValue);
      const fresh = [...later, ...answerCandidates(results.slice(seenCount), planned, classOf)];
      // A rendered file ranked before what is already fitted: the results are not those of a rendering in order; fit afresh.
      if (seenCount > 0 && fresh.some((c) => isBefore(c, fitted))) {
        restart();
        return goOn(place, results);
      }
      seen = results;
      seenCount = results.length;
      const now = fresh.filter((c) => isBefore(c, place));
      later = fresh.filter((c) => !isBefore(c, place));
      while (next < known.length && isBefore(known[next], place)) now.push(known[next++]);
      firstLeft = now.sort(byValue).find((c) => !fit.add(c));
      fitted = place;
      return firstLeft === undefined;
    };
    return {
      placeOf: (index) => placesOfPlan().placeOf(index),
      goOn,
      pastStop: () => {
        const left = firstLeft;
        const { all, placeOf } = placesOfPlan();
        const stop = left && all.find((place) => isBefore(left, place));
        return stop && ((index) => byPlace(placeOf(index), stop) >= 0);
      },
      pictureJobs(results) {
        if (!setup.pictures) return [];
        const { results: taken, pictureFiles } = setup.taken();
        const jobs: Job[] = [];
        for (const r of [...taken, ...results]) {
          const p = planned[r.index];
          if (r.status === 200 && r.picture === undefined && isPlannedRealisation(p) && !pictureFiles.has(pictureFileOf(p.file)))
            jobs.push([r.index, p.request, p.file, "only"]);
        }
        return jobs;
      },
    };
  };
}

/** The planned requests with no result, by class, and the pictures missing when the profile draws them (`pictures` drawn or taken over). */
export function notRenderedOf(planned: readonly Planned[], results: readonly Rendered[], drawsPictures: boolean, pictures: number): NotRendered {
  // By plan index, 0 where there is no result: an array, not a map of a quarter of a million entries.
  const status = new Uint16Array(planned.length);
  for (const r of results) status[r.index] = r.status;
  const out: NotRendered = { requests: 0, byClass: {}, pictures: 0 };
  let realisations = 0;
  for (const [index, p] of planned.entries()) {
    const answered = status[index];
    if (drawsPictures && (answered || 200) === 200 && isPlannedRealisation(p)) realisations++;
    if (answered) continue;
    out.requests++;
    out.byClass[p.valueClass] = (out.byClass[p.valueClass] ?? 0) + 1;
  }
  out.pictures = Math.max(0, realisations - pictures);
  return out;
}

/**
 * What a build on one machine renders of a plan whose every answer the slices of a sharded build
 * rendered: place by place in value order while `bounded` goes on, then the pictures if it still
 * goes on. A merge keeps these alone, so that its tree and manifest are those of the one build, which
 * stops where the host's limits are reached.
 */
export function renderedByOneBuild(bounded: Bounded, results: readonly Rendered[]): { results: Rendered[]; pictures: boolean } {
  // The one build decides before drawing any picture: its answers' sizes are all it knows.
  const answered: Rendered[] = [];
  const kept: Rendered[] = [];
  for (const [place, part] of inPlaces(results, (r) => bounded.placeOf(r.index))) {
    if (!bounded.goOn(place, answered)) return { results: answered, pictures: false };
    for (const r of part) {
      kept.push(r);
      answered.push({ ...r, picture: undefined });
    }
  }
  const pictures = bounded.goOn(classStart("picture"), answered);
  return { results: pictures ? kept : answered, pictures };
}
