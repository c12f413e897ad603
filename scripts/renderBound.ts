/**
 * Where a build's rendering stops (renderSlice's Bounded): the fit keeps a prefix of the value
 * ranking (scripts/budget.ts), so once the files already known — the datasets, the answers
 * rendered and those taken over from the previous build — pass the host's limits before a class,
 * nothing of that class or after it can be kept, and rendering it would only feed the fit's
 * removals. The known files are a part of what the fit will see, and the tar of a part of a
 * ranking is never larger than the whole's up to the same place: the stop never leaves out a
 * file the fit would keep, so the tree is the one a build rendering everything publishes.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SIBLING_SUFFIX, type Encoding } from "../src/serve/handler.js";
import { listTree } from "./treeSize.js";
import type { Catalog } from "../src/theory/catalog.js";
import { bundle } from "./bundle.js";
import { buildSite } from "./site.js";
import { ROOT_FILES_RESERVE } from "./fitTree.js";
import { DATASETS_PATH } from "../src/api/datasets/files.js";
import type { Job, Rendered } from "./buildWorker.js";
import type { Planned } from "./manifest.js";
import { pictureFileOf, realisationOf } from "./pictures.js";
import {
  datasetClassOf,
  datasetOrderOf,
  fitToLimits,
  VALUE_CLASSES,
  valueClassOf,
  type Candidate,
  type HostLimits,
  type NotRendered,
  type ValueClass,
} from "./budget.js";

/**
 * A rendering in value order that stops where the host's limits would cut the tree anyway: the
 * answers class by class (scripts/budget.ts), then the pictures, each class once the one before is
 * wholly rendered and only while `goOn` says the next can still be kept. What is never rendered is
 * what the fit would have left out.
 */
export interface Bounded {
  /** Whether anything of `valueClass` can still be kept, every class ranked before it rendered (`results`). */
  goOn: (valueClass: ValueClass, results: readonly Rendered[]) => boolean;
  /** The pictures still to draw once every answer is rendered ("only" jobs). */
  pictureJobs: (results: readonly Rendered[]) => Job[];
}

const rankOf = (c: ValueClass) => VALUE_CLASSES.indexOf(c);

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
 */
export async function siteCandidates(baseUrl: string, catalog: Catalog): Promise<Candidate[]> {
  const dir = mkdtempSync(join(tmpdir(), "maqam-site-"));
  try {
    await bundle({ entry: "src/serve/lambda.ts", outFile: join(dir, "_lambda", "index.mjs"), baseUrl });
    await bundle({ entry: "src/serve/worker.ts", outFile: join(dir, "_worker.js"), baseUrl, written: {} });
    await buildSite({ outDir: dir, baseUrl, digest: "0".repeat(64), catalog });
    return filesOf(dir).map(([path, bytes]) => ({ path, bytes, valueClass: "site", order: 0 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files of the answers (and their siblings), as the fit ranks them; `classOf` remembers each request's class. */
function answerCandidates(planned: readonly Planned[], results: readonly Rendered[], classOf: (index: number) => ValueClass): Candidate[] {
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
    const classes = new Map<number, ValueClass>();
    const classOf = (index: number) => {
      let c = classes.get(index);
      if (c === undefined) {
        c = valueClassOf(planned[index].request);
        classes.set(index, c);
      }
      return c;
    };
    let datasets: Candidate[] | undefined;
    return {
      goOn(valueClass, results) {
        if (!limitsBound(setup.limits)) return true;
        datasets ??= datasetCandidates(setup.partial);
        const taken = setup.taken().results;
        const known = [...setup.site, ...datasets, ...answerCandidates(planned, results, classOf), ...answerCandidates(planned, taken, classOf)];
        const [firstLeft] = fitToLimits(known, setup.limits, ROOT_FILES_RESERVE).left;
        return firstLeft === undefined || rankOf(firstLeft.valueClass) >= rankOf(valueClass);
      },
      pictureJobs(results) {
        if (!setup.pictures) return [];
        const { results: taken, pictureFiles } = setup.taken();
        const jobs: Job[] = [];
        for (const r of [...taken, ...results]) {
          const { request, file } = planned[r.index];
          if (r.status === 200 && r.picture === undefined && realisationOf(request) && !pictureFiles.has(pictureFileOf(file)))
            jobs.push([r.index, request, file, "only"]);
        }
        return jobs;
      },
    };
  };
}

/** The planned requests with no result, by class, and the pictures missing when the profile draws them (`pictures` drawn or taken over). */
export function notRenderedOf(planned: readonly Planned[], results: readonly Rendered[], drawsPictures: boolean, pictures: number): NotRendered {
  const status = new Map(results.map((r) => [r.index, r.status]));
  const out: NotRendered = { requests: 0, byClass: {}, pictures: 0 };
  let realisations = 0;
  for (const [index, { request }] of planned.entries()) {
    const answered = status.get(index);
    if (drawsPictures && (answered ?? 200) === 200 && realisationOf(request)) realisations++;
    if (answered !== undefined) continue;
    const valueClass = valueClassOf(request);
    out.requests++;
    out.byClass[valueClass] = (out.byClass[valueClass] ?? 0) + 1;
  }
  out.pictures = Math.max(0, realisations - pictures);
  return out;
}

/**
 * What a build on one machine renders of a plan whose every answer the slices of a sharded build
 * rendered: the classes in value order while `bounded` goes on, then the pictures if it still goes
 * on. A merge keeps these alone, so that its tree and manifest are those of the one build, which
 * stops where the host's limits are reached.
 */
export function renderedByOneBuild(bounded: Bounded, planned: readonly Planned[], results: readonly Rendered[]): { results: Rendered[]; pictures: boolean } {
  const byClass = new Map<ValueClass, Rendered[]>();
  for (const r of results) {
    const valueClass = valueClassOf(planned[r.index].request);
    const part = byClass.get(valueClass);
    if (part) part.push(r);
    else byClass.set(valueClass, [r]);
  }
  // The one build decides before drawing any picture: its answers' sizes are all it knows.
  const answered: Rendered[] = [];
  const kept: Rendered[] = [];
  for (const valueClass of VALUE_CLASSES) {
    const part = byClass.get(valueClass);
    if (!part) continue;
    if (!bounded.goOn(valueClass, answered)) return { results: answered, pictures: false };
    for (const r of part) {
      kept.push(r);
      answered.push({ ...r, picture: undefined });
    }
  }
  const pictures = bounded.goOn("picture", answered);
  return { results: pictures ? kept : answered, pictures };
}
