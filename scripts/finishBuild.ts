/**
 * Everything a build does after the rendering, on a directory holding the rendered api/ of the
 * whole plan: the bundles, the site, the second cut (which measures the rendered
 * tree, so it runs once all slices are together), the manifest and the root files, and the check
 * of the host's limits.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { routes } from "../src/api/routes.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog, type Catalog } from "../src/theory/catalog.js";
import { cloudfrontOrigins, netlifyRedirects, notFoundPage, serveConfig } from "../src/serve/deploy.js";
import type { Rendered } from "./buildWorker.js";
import { plannedShapesOf, queryShapesOf, summarise, writtenDigest, writtenInFileOrder, type Manifest, type Planned } from "./manifest.js";
import { bundle } from "./bundle.js";
import { fitTree, keepEverything, OverLimitError, type TreeFit } from "./fitTree.js";
import { hasLimits, limitPassed, type HostLimits } from "./budget.js";
import { buildSite, placeSite, type SiteAside } from "./site.js";
import { databaseBytesIn, FEW_SLICES, writeDatasets, type DatasetsOptions } from "./datasets.js";
import { countTree, listTree, NOTHING_COUNTED, sizeOfListing, type Listing, type TreeSize } from "./treeSize.js";
import { resolveSlice, type SliceOptions } from "./slicePlan.js";
import { cacheOf, DATASETS_DIR, forEachKnown, knownSizes, NOTHING_KEPT, writeState, type Kept, type StepState } from "./buildCache.js";
import { keepOrWrite } from "./keptStep.js";
import { carrySlices } from "./datasetSlices.js";
import { notRenderedOf } from "./renderBound.js";
import { PROFILES } from "./profiles.js";
import { datasetsHash } from "./sliceHash.js";
import type { TuningSystemListed } from "./planListing.js";

/** Where the slices of the datasets are kept, below a build's cache. */
const DATASET_SLICES = "datasets";

/** FALLBACK_URL as the generators take it: an absolute http(s) URL without a trailing slash, or a clear error. */
export function fallbackUrlOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  // No credentials: the address is written into files the host publishes (_redirects).
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash || url.username || url.password)
    throw new Error(`FALLBACK_URL must be an absolute http(s) URL without credentials, query or fragment, e.g. https://fallback.example.org (got '${raw}')`);
  return url.href.replace(/\/+$/, "");
}

export interface BuildOptions extends SliceOptions {
  outDir: string;
  /** Where requests without a file go on hosts that proxy (Netlify rules, CloudFront origin group); default FALLBACK_URL. */
  fallbackUrl?: string;
  /** The S3 bucket's domain for the CloudFront origins; default S3_BUCKET_DOMAIN. */
  bucketDomain?: string;
  /** Write the datasets (minutes of work, writeDatasetsStep); by default when the whole plan is built, not a list of requests. */
  datasets?: boolean;
  /** The build (and its cache beside it) whose unchanged parts are taken over; default outDir itself, BUILD_PREVIOUS from the command line. */
  previousDir?: string;
  /**
   * Render every planned answer and picture even where the host's limits will leave them out (the
   * fit then removes them), instead of stopping where the limits are reached (scripts/renderBound.ts);
   * default BUILD_RENDER_ALL=1. The published tree is the same; the manifest then counts the files in leftOut rather than notRendered.
   */
  renderAll?: boolean;
}

/** What Workers with static assets do not publish of build/: the code of the worker and of the Lambda, the CloudFront origins. */
export const ASSETS_IGNORE = "_worker.js\n_worker.js.map\n_lambda\n_aws\n";

/**
 * What an incremental build carries into the finishing: where its cache is made, what it took
 * over, the groups' hashes, the previous build's tree and the engine's version (not the previous
 * state: some 90 MB, of which the groups kept hold what the finishing needs).
 */
export interface Keeping {
  cache: string;
  kept: Kept;
  hashes: ReadonlyMap<string, string>;
  /** The previous build's tree (its cache beside it). */
  previousDir: string;
  engine: string;
  /** The datasets' hash and files, written (or taken over) before the rendering. */
  datasets?: StepState;
}

/** Whether a build writes the datasets: when asked, by default when it builds the whole plan rather than a list of requests. */
export const writesDatasets = (options: Pick<BuildOptions, "datasets" | "requests">): boolean => options.datasets ?? options.requests === undefined;

/**
 * Writes the datasets below the tree, or takes them over from the previous build when their hash
 * is unchanged (`previous`). Before the rendering, on threads with catalogs of their own that end
 * afterwards: a few hundred MB that would otherwise add to the main thread's plan and results at
 * the build's peak. Skipped for a build of a list of requests unless asked for.
 */
export async function writeDatasetsStep(
  partial: string,
  options: BuildOptions,
  facts: Catalog["facts"],
  previous?: Pick<Keeping, "cache" | "previousDir" | "engine"> & { datasets?: StepState },
  events: Pick<DatasetsOptions, "onSlices" | "onFiles" | "onTasksGiven" | "listing"> = {},
): Promise<StepState | undefined> {
  if (!writesDatasets(options)) return undefined;
  const catalog = createCatalog(facts, "build");
  // The slices of the previous build's cache are read back, those of this one kept in its own.
  const slices = previous && { from: join(cacheOf(previous.previousDir), DATASET_SLICES), into: join(previous.cache, DATASET_SLICES) };
  // The database starts at the size of the previous build's, where there is one.
  const databaseHint = previous && databaseBytesIn(join(previous.previousDir, "api"));
  const write = () => writeDatasets(join(partial, "api"), catalog, { slices, engine: previous?.engine, databaseHint, ...events });
  if (!previous || !slices) {
    await write();
    return undefined;
  }
  // Minutes of work: taken over from the previous build when the facts and the code they are made by are the same.
  const datasets = await keepOrWrite(partial, DATASETS_DIR, previous.previousDir, previous.datasets, datasetsHash(catalog, previous.engine), write);
  if (datasets === previous.datasets) carrySlices(slices.from, slices.into);
  return datasets;
}

/** The datasets being written (startDatasets). */
export interface DatasetsStarted {
  /** Resolves once the planning may start. */
  planningMayStart: Promise<void>;
  /** Whether few slices are missing, or none (the datasets taken over whole): few tuning systems changed since the previous build. */
  fewChanged: () => boolean;
  /** Resolves once the datasets need nothing more of the main thread but their answer (written, or their threads given their tasks). */
  apart: Promise<void>;
  /** Their state for the next build; a failure is thrown here. */
  written: Promise<StepState | undefined>;
  /** When they were written (0 until then). */
  doneAt: () => number;
  /** The seconds the CSV and Parquet files took on the main thread, where they were written there (few slices missing). */
  filesHere: () => number | undefined;
  /**
   * The planning's parts of each tuning system whose slice the datasets' pool computed (listed
   * beside it), by tuning system id: handed over once, and no longer held here (some 20 MB).
   */
  takeListed: () => Map<string, TuningSystemListed>;
}

/**
 * writeDatasetsStep, with the planning started beside it when few slices are missing (an
 * incremental build: one core would otherwise wait for the database); when every tuning system's
 * slice and parts were made by the pool (a clean build), once the files' and the database's threads
 * have their tasks: the planning, its parts listed, is then light, where listing them too it took a
 * thread of its own for seconds and its heap added to theirs; otherwise once the CSV and Parquet
 * files are written.
 */
export function startDatasets(
  partial: string,
  options: BuildOptions,
  facts: Catalog["facts"],
  previous: Pick<Keeping, "cache" | "previousDir" | "engine"> & { datasets?: StepState },
): DatasetsStarted {
  let mayStart = () => {};
  const planningMayStart = new Promise<void>((start) => {
    mayStart = start;
  });
  let given = () => {};
  const apart = new Promise<void>((start) => {
    given = start;
  });
  let doneAt = 0;
  let few = false;
  // Tuning systems in all: the pool listed every one's parts when it listed as many.
  let total = Number.POSITIVE_INFINITY;
  let filesHere: number | undefined;
  let listed = new Map<string, TuningSystemListed>();
  const { full } = PROFILES[resolveSlice(options).profile].prerender;
  // Only a plan of the profile's requests lists parts: one of given requests lists none.
  const listing =
    options.requests === undefined
      ? { options: { full }, onListed: (tuningSystem: string, parts: TuningSystemListed) => listed.set(tuningSystem, parts) }
      : undefined;
  const written = writeDatasetsStep(partial, options, facts, previous, {
    listing,
    onSlices: (missing, all) => {
      few = missing <= FEW_SLICES;
      if (few) mayStart();
      total = all;
    },
    onFiles: (_, here) => {
      filesHere = here;
      mayStart();
    },
    onTasksGiven: () => {
      given();
      if (listed.size === total) mayStart();
    },
  }).then((state) => {
    doneAt = performance.now();
    // Taken over whole from the previous build: no slice was missing.
    if (state !== undefined && state === previous.datasets) few = true;
    return state;
  });
  for (const settled of [mayStart, given]) written.then(settled, settled);
  return {
    planningMayStart,
    fewChanged: () => few,
    apart,
    written,
    doneAt: () => doneAt,
    filesHere: () => filesHere,
    takeListed: () => {
      const taken = listed;
      listed = new Map();
      return taken;
    },
  };
}

/** Seconds of each step of the finishing. */
export type FinishSteps = {
  /** The Lambda's and the worker's bundles. */
  bundles: number;
  /** The pages, the client and the reference (the pictures are drawn with the rendering). */
  site: number;
  /** The listing of the tree and the fit. */
  fit: number;
  /** The manifest, the root files, the state for the next build and the published figures. */
  manifest: number;
};

/** The finished tree: its manifest, the tree as the host counts it (with the root files written after the fit), and the time of each step. */
export interface Finished {
  manifest: Manifest;
  published: TreeSize;
  steps: FinishSteps;
}

/**
 * Everything after the rendering, on a directory holding the rendered api/ of the whole plan:
 * the bundles, the site, the second cut (which measures the rendered tree, so it runs once all
 * slices are together), the manifest and the root files, and the check of the host's limits.
 * `fresh` are the results rendered now (with the sizes of the pictures drawn with them); with
 * `keeping`, the groups taken over (and their pictures) are counted in, and the fit's leftovers and
 * the state go into the cache being made.
 */
export async function finishBuild(
  partial: string,
  options: BuildOptions,
  planned: Planned[],
  fresh: Rendered[],
  keeping?: Keeping,
  facts?: Catalog,
  aside?: SiteAside,
): Promise<Finished> {
  const { baseUrl, profile, limits, encodings, dataDir } = resolveSlice(options);
  let mark = performance.now();
  const lap = () => {
    const now = performance.now();
    const seconds = (now - mark) / 1000;
    mark = now;
    return seconds;
  };
  const taken = keeping?.kept ?? NOTHING_KEPT;
  const results = taken.results.length ? [...taken.results, ...fresh] : fresh;
  // The two bundles made side by side (esbuild's own threads), or copied where kept.
  const [, workerBytes] = await Promise.all([
    bundle({ entry: "src/serve/lambda.ts", outFile: join(partial, "_lambda", "index.mjs"), baseUrl }),
    bundle({ entry: "src/serve/worker.ts", outFile: join(partial, "_worker.js"), baseUrl, written: plannedShapesOf(planned) }),
  ]);
  const fallbackUrl = fallbackUrlOf(options.fallbackUrl ?? process.env.FALLBACK_URL);
  const bucketDomain = options.bucketDomain ?? process.env.S3_BUCKET_DOMAIN;
  if (fallbackUrl && bucketDomain) {
    mkdirSync(join(partial, "_aws"));
    writeFileSync(join(partial, "_aws", "cloudfront-origins.json"), cloudfrontOrigins(fallbackUrl, bucketDomain));
  }
  const written = writtenInFileOrder(planned, results);
  const digest = writtenDigest(planned, written);
  const worker = { bytes: workerBytes };
  const bundles = lap();
  const catalog = facts ?? createCatalog(readFacts(dataDir), "build");
  // The service worker is versioned by what was rendered: the same facts give the same worker.
  const site = aside ? placeSite(aside, partial, digest) : await buildSite({ outDir: partial, baseUrl, digest, catalog });
  const drawn = { ...site, pictures: picturesOf(results, taken.pictures) };
  const siteSeconds = lap();
  const { listing, counted, fit } = fitBuilt(partial, planned, results, taken, limits, keeping?.cache);
  const fitSeconds = lap();
  const keptFile = (r: Rendered) => fit.keptAnswer(r.index);
  const kept = results.filter((r) => keptFile(r) || r.status !== 200);
  // Summarised once, after the fit: of the answers it kept, in the same file order.
  const summary =
    kept.length < results.length
      ? summarise(planned, kept, baseUrl, encodings, written.filter(keptFile))
      : summarise(planned, results, baseUrl, encodings, written, digest);
  const manifest: Manifest = {
    ...summary,
    profile,
    worker,
    site: { ...drawn, pictures: picturesKept(drawn.pictures, fit) },
    published: {
      limits,
      ...fit.measured,
      leftOut: fit.leftOut,
      notRendered: notRenderedOf(planned, results, PROFILES[profile].pictures, drawn.pictures.files),
    },
  };
  // The root files written after the fit live in its headroom: counted into the tree as published, which must still pass.
  const writeRoot = (file: string, text: string) => {
    writeFileSync(join(partial, file), text);
    listing.files.set(file, Buffer.byteLength(text));
  };
  writeRoot("_redirects", netlifyRedirects(queryShapesOf(manifest), routes, fallbackUrl));
  writeRoot("serve.json", serveConfig());
  writeRoot("404.html", notFoundPage());
  // Workers with static assets publish the whole directory but these (wrangler refuses a _worker.js asset).
  writeRoot(".assetsignore", ASSETS_IGNORE);
  // GitHub Pages would otherwise run Jekyll, which drops files starting with `_`.
  writeRoot(".nojekyll", "");
  // Last, so that a directory with a manifest is a whole build (recoverSwap relies on it).
  const manifestText = JSON.stringify(manifest, null, 2) + "\n";
  writeRoot("manifest.json", manifestText);
  if (keeping) writeState(keeping.cache, manifestText, planned, results, keeping.hashes, taken, fit.leftOutFiles, keeping.datasets);
  const final = sizeOfListing(listing, counted);
  const passed = limitPassed(limits, final, Math.max(manifest.largest.bytes, worker.bytes));
  if (passed) throw new OverLimitError(passed);
  return { manifest, published: final, steps: { bundles, site: siteSeconds, fit: fitSeconds, manifest: lap() } };
}

/**
 * The tree being finished, listed and cut to the host's limits (fitTree). The sizes and plan
 * orders of the files the build knows, a few million entries for the `full` profile, are let go on
 * return, before the state and the manifest are made. Under no limit, with nothing in a cache to
 * move back, the fit keeps every file: the files the build knows are then counted rather than
 * listed (countTree), some 3 M names and their Maps fewer at a doubled archive's peak.
 */
function fitBuilt(partial: string, planned: Planned[], results: readonly Rendered[], taken: Kept, limits: HostLimits, cache: string | undefined) {
  if (!hasLimits(limits) && taken.cached.size === 0) {
    const { listing, counted } = countTree(partial, (visit) => forEachKnown(planned, results, taken, visit), new Set([DATASETS_DIR]));
    return { listing, counted, fit: keepEverything(listing, counted) };
  }
  const { sizes, orders } = knownSizes(planned, results, taken);
  const listing = listBuilt(partial, sizes, taken.cached);
  const fit = fitTree(partial, listing, planned, limits, cache === undefined ? undefined : { dir: cache, holds: taken.cached }, sizes, orders);
  return { listing, counted: NOTHING_COUNTED, fit };
}

/**
 * The tree being finished, listed without reading what the build knows: the answers, their
 * siblings and the pictures (`sizes`, less the `cached` ones the cache holds) are the only files
 * below their folders but the datasets'; those, the bundles and the site are walked.
 */
function listBuilt(partial: string, sizes: ReadonlyMap<string, number>, cached: ReadonlySet<string>): Listing {
  return listTree(partial, sizes, new Set([DATASETS_DIR]), cached);
}

/** The pictures the workers drew now (the results with one) and those taken over. */
const picturesOf = (results: readonly Rendered[], taken: { files: number; bytes: number }) => {
  const drawn = results.filter((r) => r.picture !== undefined);
  return { files: taken.files + drawn.length, bytes: taken.bytes + drawn.reduce((sum, r) => sum + (r.picture ?? 0), 0) };
};

/** The pictures the fit kept: those drawn less those it left out. */
const picturesKept = (drawn: { files: number; bytes: number }, fit: TreeFit) => {
  const left = fit.leftOut.byClass.picture ?? { files: 0, bytes: 0 };
  return { files: drawn.files - left.files, bytes: drawn.bytes - left.bytes };
};
