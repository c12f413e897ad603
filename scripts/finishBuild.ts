/**
 * Everything a build does after the rendering, on a directory holding the rendered api/ of the
 * whole plan: the bundles, the site, the second cut (which measures the rendered
 * tree, so it runs once all slices are together), the manifest and the root files, and the check
 * of the host's limits.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { routes } from "../src/api/routes.js";
import { DATASETS_PATH } from "../src/api/datasets/files.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog, type Catalog } from "../src/theory/catalog.js";
import { cloudfrontOrigins, netlifyRedirects, notFoundPage, serveConfig } from "../src/serve/deploy.js";
import type { Rendered } from "./buildWorker.js";
import { queryShapesOf, summarise, type Manifest, type Planned } from "./manifest.js";
import { bundle } from "./bundle.js";
import { PROFILES } from "./profiles.js";
import { fitTree, OverLimitError, type TreeFit } from "./fitTree.js";
import { limitPassed } from "./budget.js";
import { buildSite } from "./site.js";
import { writeDatasets } from "./datasets.js";
import { treeSize, type TreeSize } from "./treeSize.js";
import { resolveSlice, type SliceOptions } from "./renderSlice.js";
import { keepOrWrite, knownSizes, NOTHING_KEPT, writeState, type BuildState, type Kept, type StepState } from "./buildCache.js";
import { datasetsHash } from "./sliceHash.js";

/** Where the datasets are written, below the tree. */
const DATASETS_DIR = `api${DATASETS_PATH}`;

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
}

/** What Workers with static assets do not publish of build/: the code of the worker and of the Lambda, the CloudFront origins. */
export const ASSETS_IGNORE = "_worker.js\n_worker.js.map\n_lambda\n_aws\n";

/**
 * What an incremental build carries into the finishing: where its cache is made, what it took
 * over, the groups' hashes, the previous build (its tree and state) and the engine's version.
 */
export interface Keeping {
  cache: string;
  kept: Kept;
  hashes: ReadonlyMap<string, string>;
  /** The previous build's tree (its cache beside it) and state. */
  previousDir: string;
  previous?: BuildState;
  engine: string;
  /** The datasets' hash and files, written (or taken over) before the rendering. */
  datasets?: StepState;
}

/**
 * Writes the datasets below the tree, or takes them over from the previous build when their hash
 * is unchanged (`previous`). Before the rendering, on a catalog of their own let go afterwards: a
 * few hundred MB that would otherwise add to the main thread's plan and results at the build's
 * peak. Skipped for a build of a list of requests unless asked for.
 */
export async function writeDatasetsStep(
  partial: string,
  options: BuildOptions,
  facts: Catalog["facts"],
  previous?: Pick<Keeping, "previousDir" | "previous" | "engine">,
): Promise<StepState | undefined> {
  if (!(options.datasets ?? options.requests === undefined)) return undefined;
  const catalog = createCatalog(facts, "build");
  const write = () => writeDatasets(join(partial, "api"), catalog);
  // Minutes of work: taken over from the previous build when the facts and the code they are made by are the same.
  if (previous) return keepOrWrite(partial, DATASETS_DIR, previous.previousDir, previous.previous?.datasets, datasetsHash(catalog, previous.engine), write);
  await write();
  return undefined;
}

/** The finished tree: its manifest, and the tree as the host counts it (with the root files written after the fit). */
export interface Finished {
  manifest: Manifest;
  published: TreeSize;
}

/**
 * Everything after the rendering, on a directory holding the rendered api/ of the whole plan:
 * the bundles, the site, the second cut (which measures the rendered tree, so it runs once all
 * slices are together), the manifest and the root files, and the check of the host's limits.
 * `fresh` are the results rendered now; with `keeping`, the pictures of the groups taken over are
 * not drawn again, and the fit's leftovers and the state go into the cache being made.
 */
export async function finishBuild(
  partial: string,
  options: BuildOptions,
  planned: Planned[],
  fresh: Rendered[],
  keeping?: Keeping,
  facts?: Catalog,
): Promise<Finished> {
  const { baseUrl, profile, limits, encodings, dataDir } = resolveSlice(options);
  const taken = keeping?.kept ?? NOTHING_KEPT;
  const results = taken.results.length ? [...taken.results, ...fresh] : fresh;
  await bundle({ entry: "src/serve/lambda.ts", outFile: join(partial, "_lambda", "index.mjs"), baseUrl });
  const fallbackUrl = fallbackUrlOf(options.fallbackUrl ?? process.env.FALLBACK_URL);
  const bucketDomain = options.bucketDomain ?? process.env.S3_BUCKET_DOMAIN;
  if (fallbackUrl && bucketDomain) {
    mkdirSync(join(partial, "_aws"));
    writeFileSync(join(partial, "_aws", "cloudfront-origins.json"), cloudfrontOrigins(fallbackUrl, bucketDomain));
  }
  const rendered = summarise(planned, results, baseUrl, encodings);
  const worker = {
    bytes: await bundle({ entry: "src/serve/worker.ts", outFile: join(partial, "_worker.js"), baseUrl, written: queryShapesOf(rendered) }),
  };
  const written = fresh.filter((r) => r.status === 200).map((r) => planned[r.index].request);
  const catalog = facts ?? createCatalog(readFacts(dataDir), "build");
  // The service worker is versioned by what was rendered: the same facts give the same worker.
  const { pictures } = PROFILES[profile];
  const pictured = new Map<string, number>();
  const site = await buildSite({ outDir: partial, baseUrl, digest: rendered.digest, written, catalog, pictures, onPicture: (r, n) => pictured.set(r, n) });
  const drawn = { ...site, pictures: { files: site.pictures.files + taken.pictures.files, bytes: site.pictures.bytes + taken.pictures.bytes } };
  const sizes = knownSizes(planned, results, taken, pictured);
  const requestOfFile = new Map(planned.map((p, order) => [p.file, { request: p.request, order }]));
  const fit = fitTree(partial, requestOfFile, limits, keeping && { dir: keeping.cache, holds: taken.cached }, sizes);
  const kept = results.filter((r) => fit.keptApiFiles.has(planned[r.index].file) || r.status !== 200);
  const summary = fit.leftOut.files ? summarise(planned, kept, baseUrl, encodings) : rendered;
  const manifest: Manifest = {
    ...summary,
    profile,
    worker,
    site: { ...drawn, pictures: picturesKept(drawn.pictures, fit) },
    published: { limits, ...fit.measured, leftOut: fit.leftOut },
  };
  writeFileSync(join(partial, "_redirects"), netlifyRedirects(queryShapesOf(manifest), routes, fallbackUrl));
  writeFileSync(join(partial, "serve.json"), serveConfig());
  writeFileSync(join(partial, "404.html"), notFoundPage());
  // Workers with static assets publish the whole directory but these (wrangler refuses a _worker.js asset).
  writeFileSync(join(partial, ".assetsignore"), ASSETS_IGNORE);
  // GitHub Pages would otherwise run Jekyll, which drops files starting with `_`.
  writeFileSync(join(partial, ".nojekyll"), "");
  // Last, so that a directory with a manifest is a whole build (recoverSwap relies on it).
  const manifestText = JSON.stringify(manifest, null, 2) + "\n";
  writeFileSync(join(partial, "manifest.json"), manifestText);
  if (keeping) writeState(keeping.cache, manifestText, planned, results, keeping.hashes, taken, pictured, keeping.datasets);
  // The root files written after the fit live in its headroom; the tree as published must still pass.
  const final = treeSize(partial);
  const passed = limitPassed(limits, final, Math.max(manifest.largest.bytes, worker.bytes));
  if (passed) throw new OverLimitError(passed);
  return { manifest, published: final };
}

/** The pictures the fit kept: those drawn less those it left out. */
const picturesKept = (drawn: { files: number; bytes: number }, fit: TreeFit) => {
  const left = fit.leftOut.byClass.picture ?? { files: 0, bytes: 0 };
  return { files: drawn.files - left.files, bytes: drawn.bytes - left.bytes };
};
