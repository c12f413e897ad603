/**
 * Pre-renders every request the endpoint groups list into build/api/, through the same dispatch
 * the server uses, on worker threads (one per core). Writes build/manifest.json (base URL, totals
 * per route, content digest; no timestamps, so equal sources give equal bytes), `.gz` siblings,
 * and the edge configurations (build/_redirects, build/serve.json, deploy/).
 *
 * Usage: npm run build   (BASE_URL=https://example.org sets the host of absolute links;
 *                         BUILD_DIR, BUILD_WORKERS, PRECOMPRESS=gzip|gzip,br|none, BUILD_RECYCLE_MB,
 *                         DATA_DIR for another copy of the facts, BUILD_PREVIOUS for a build
 *                         elsewhere to take unchanged parts from, BUILD_DATASETS=0 to leave out
 *                         api/datasets/, minutes of work a quick build may not need,
 *                         BUILD_RENDER_ALL=1 to render what the host's limits leave out too)
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { routes } from "../src/api/routes.js";
import { DataError } from "../src/data/facts.js";
import { DATA_DIR, readFacts } from "../src/data/load.js";
import { createCatalog, type Catalog } from "../src/theory/catalog.js";
import { cloudfrontFunction, nginxConfig } from "../src/serve/deploy.js";
import type { Drawn, Rendered } from "./buildWorker.js";
import { limitsBound, renderBound, renderedByOneBuild, siteCandidates, type Bounded } from "./renderBound.js";
import type { SiteAside } from "./site.js";
import { pictureFileOf } from "./pictures.js";
import { SIBLING_SUFFIX, type Encoding } from "../src/serve/handler.js";
import { layoutTable, type Manifest, type Planned } from "./manifest.js";
import { PROFILES } from "./profiles.js";
import { OverLimitError } from "./fitTree.js";
import type { Candidate } from "./budget.js";
import { discard, prepareSwap, removeDiscarded, removeEmptyFolders, removeFilesApart, swapIn, writeFileWhole } from "./swap.js";
import { planDigestOf, planOf, renderSlice, resolveSlice, ShardError, shardOf, WHOLE, type Shard } from "./renderSlice.js";
import { boundHeapGrowth, collectGarbage } from "./heap.js";
import {
  cacheOf,
  cachePartialOf,
  dropPastStop,
  keepUnchanged,
  NOTHING_KEPT,
  readDatasetsState,
  readState,
  reuseSpare,
  swapCache,
  type BuildState,
} from "./buildCache.js";
import { engineDigest } from "./sliceHash.js";
import { listingCode } from "./planListing.js";
import { planApart, type PlanSteps } from "./planApart.js";
import { reportBuilt, type Built, type RouteTimes } from "./buildReport.js";
import { finishBuild, startDatasets, writeDatasetsStep, writesDatasets, type BuildOptions, type Keeping } from "./finishBuild.js";

export type { BuildOptions } from "./finishBuild.js";
export type { Built, RouteTimes } from "./buildReport.js";

export const DEFAULT_BASE_URL = "http://localhost:3000";
/** Worker time per route (not in the manifest: timings differ between builds). */
function timesOf(planned: Planned[], results: Rendered[]): Record<string, RouteTimes> {
  const times: Record<string, RouteTimes> = {};
  for (const r of results) {
    const route = planned[r.index].route;
    times[route] ??= { requests: 0, computeSeconds: 0, writeSeconds: 0 };
    const t = times[route];
    t.requests++;
    t.computeSeconds += r.computeMs / 1000;
    t.writeSeconds += r.writeMs / 1000;
  }
  return times;
}

/** Puts the sizes of the pictures drawn after the answers into their requests' results. */
function withPictures(results: Rendered[], drawn: readonly Drawn[]) {
  if (!drawn.length) return;
  const byIndex = new Map(results.map((r) => [r.index, r]));
  for (const [index, bytes] of drawn) {
    const r = byIndex.get(index);
    if (r) r.picture = bytes;
  }
}

/**
 * The site's files for the rendering's stop, when the host's limits can stop it (not with
 * BUILD_RENDER_ALL or renderAll), and the site itself, made aside in the tree being made (a failed
 * build throws it away with the tree) until the finishing places it.
 */
function siteIfBound(
  options: BuildOptions,
  o: ReturnType<typeof resolveSlice>,
  catalog: Catalog,
  partial: string,
): Promise<{ candidates: Candidate[]; site: SiteAside } | undefined> {
  const renderAll = options.renderAll ?? process.env.BUILD_RENDER_ALL === "1";
  return limitsBound(o.limits) && !renderAll ? siteCandidates(o.baseUrl, catalog, join(partial, SITE_ASIDE)) : Promise.resolve(undefined);
}

/** The folder of the tree being made where its site waits to be placed. */
const SITE_ASIDE = ".site-aside";

/**
 * Writes into `<outDir>.partial` and swaps it in whole at the end (scripts/swap.ts), so a server
 * reading `outDir` never sees half a build, and a build killed half way leaves the previous one.
 * With `cache`, the cache being made beside it (`<outDir>.cache.partial`) replaces the previous
 * cache once the tree is in. What is replaced, or left by a failure, goes to the trash, removed by a
 * detached process: the build does not wait for it. With the cache, the tree before the previous one
 * (its spare, with its state) becomes the partial tree, and `keepSpare` says whether the tree
 * replaced is kept as the next build's spare.
 */
async function intoPartial<T>(
  outDir: string,
  write: (partial: string, takeSpare: () => BuildState | undefined) => Promise<T>,
  cache = false,
  keepSpare: () => boolean = () => false,
): Promise<T> {
  const partial = prepareSwap(outDir);
  if (cache) discard(outDir, cachePartialOf(outDir));
  const takeSpare = cache ? reuseSpare(outDir, partial, cachePartialOf(outDir)) : () => undefined;
  mkdirSync(join(partial, "api"), { recursive: true });
  try {
    const value = await write(partial, takeSpare);
    const spareKept = keepSpare();
    swapIn(outDir, spareKept);
    if (cache) swapCache(outDir, spareKept);
    return value;
  } catch (e) {
    for (const made of cache ? [partial, cachePartialOf(outDir)] : [partial]) discard(outDir, made);
    throw e;
  } finally {
    removeDiscarded(outDir);
  }
}

/**
 * The whole build on this machine: the one slice of the plan, then the rest. Over a previous build
 * with its cache (scripts/buildCache.ts), the groups whose content hash is unchanged are taken
 * over and only the others rendered; the tree is the same as a clean build's.
 */
export async function build(options: BuildOptions): Promise<Built> {
  const started = performance.now();
  const outDir = resolve(options.outDir);
  const o = resolveSlice(options);
  const catalog = createCatalog(readFacts(o.dataDir), "build");
  const cache = cachePartialOf(outDir);
  let keepSpare = false;
  return intoPartial(
    outDir,
    async (partial, takeSpare) => {
      const previousDir = resolve(options.previousDir ?? outDir);
      const engine = engineDigest();
      // The site made aside while the datasets are written: where the rendering stops depends on its size.
      const siteMade = siteIfBound(options, o, catalog, partial);
      siteMade.catch(() => undefined);
      const datasetsStep = startDatasets(partial, options, catalog.facts, { cache, previousDir, datasets: readDatasetsState(previousDir), engine });
      let datasetsWaited = 0;
      await datasetsStep.planningMayStart;
      // Read while the plan is made (some 90 MB parsed), let go once the groups are taken over (below): the groups kept hold what is needed of it.
      let previous: BuildState | undefined;
      const datasetsEnd = performance.now();
      let keeping: Keeping = { cache, kept: NOTHING_KEPT, hashes: new Map(), previousDir, engine, datasets: undefined };
      let planEnd = datasetsEnd;
      let planSteps: PlanSteps | undefined;
      let inPlace = 0;
      // The folders the spare's stale files leave, removed after the rendering when it did not fill them again.
      let emptied = new Set<string>();
      const taken = () => ({
        results: keeping.kept.results,
        pictureFiles: new Set([...keeping.kept.groups.values()].flatMap((g) => g.pictures.map(([file]) => file))),
      });
      // Awaited once the planning has started: its bundles and pages take seconds of esbuild and disk.
      let site: Candidate[] | undefined;
      let siteAside: SiteAside | undefined;
      // Without a stop (no limit, or BUILD_RENDER_ALL) the classes follow one another all the same: the last stage
      // draws the pictures still missing, those of the groups taken over from a build that stopped before them too.
      let bounded: Bounded | undefined;
      const bound = (planned: Planned[]) => {
        bounded = renderBound({ partial, site: site ?? [], limits: site ? o.limits : {}, pictures: PROFILES[o.profile].pictures, taken })(planned);
        return bounded;
      };
      const rendered = await renderSlice(
        partial,
        options,
        WHOLE,
        async (o, shard, startWorkers) => {
          // The listing of each tuning system is read back from the previous build where it is unchanged.
          const planning = planApart({
            dataDir: o.dataDir ?? DATA_DIR,
            requests: o.requests && [...o.requests],
            profile: o.profile,
            limits: o.limits,
            shard,
            key: { baseUrl: o.baseUrl, encodings: o.encodings, pictures: PROFILES[o.profile].pictures },
            engine,
            listingCode: listingCode(),
            previousCache: cacheOf(previousDir),
            cache,
          });
          // Its failure is thrown where it is awaited, below, after the site's.
          planning.catch(() => undefined);
          // The render workers start once the datasets are written (their threads' heaps, the database's some 350 MB, are
          // returned by then), the plan made or not: a clean build's plan takes a core for seconds after the datasets.
          // Without datasets, once the plan is made, as its peak would add to theirs.
          if (writesDatasets(options)) datasetsStep.written.then(startWorkers, () => undefined);
          // Read on this thread while the planning thread works.
          previous = readState(previousDir);
          // The tree replaced, with the state it has, is the next build's starting point.
          keepSpare = previousDir === outDir && previous !== undefined;
          const siteWritten = await siteMade;
          site = siteWritten?.candidates;
          siteAside = siteWritten?.site;
          const made = await planning;
          // The groups are taken over while an incremental build's database may still be built: 1.5–2 s sooner, for the states
          // read (some 90 MB each) meeting the database's heap (some 350 MB): 100–190 MB more at the peak (docs/benchmarks.md).
          const { hashes } = made;
          const keptFrom = performance.now();
          const chosen = keepUnchanged(previousDir, partial, cache, made.planned, made.batches, hashes, previous, takeSpare(), (path) => discard(outDir, path));
          // A worker must not write through a file another tree may link: the spare's stale files go before the rendering.
          const removing = removeFilesApart(partial, chosen.stale);
          emptied = chosen.emptied;
          previous = undefined;
          collectGarbage();
          await removing;
          const keptEnd = performance.now();
          // The rendering's stop counts the datasets' files.
          const datasets = await datasetsStep.written;
          datasetsWaited = (performance.now() - keptEnd) / 1000;
          keeping = { ...keeping, kept: chosen.kept, hashes, datasets };
          inPlace = chosen.fromSpare;
          planEnd = performance.now();
          planSteps = { ...made.steps, kept: (keptEnd - keptFrom) / 1000 };
          return { planned: made.planned, batches: chosen.batches };
        },
        bound,
      );
      const { planned, results, gcSeconds, recycled, workers } = rendered;
      // Taken over from a build that went further: a build of the whole plan would not have made it.
      const past = bounded?.pastStop();
      if (past) keeping = { ...keeping, kept: dropPastStop(keeping.kept, planned, past, { partial, cache }) };
      withPictures([...results, ...keeping.kept.results], rendered.drawn);
      removeEmptyFolders(partial, emptied);
      const renderEnd = performance.now();
      const { manifest, published, steps } = await finishBuild(partial, options, planned, results, keeping, catalog, siteAside);
      const end = performance.now();
      const groups = { rendered: keeping.hashes.size - keeping.kept.groups.size, kept: keeping.kept.groups.size, inPlace };
      const phases = {
        datasets: (datasetsEnd - started) / 1000,
        besidePlan: datasetsStep.doneAt() > datasetsEnd ? { seconds: (datasetsStep.doneAt() - datasetsEnd) / 1000, waited: datasetsWaited } : undefined,
        plan: (planEnd - datasetsEnd) / 1000,
        render: (renderEnd - planEnd) / 1000,
        finish: (end - renderEnd) / 1000,
        planSteps,
        steps,
      };
      return { manifest, published, groups, phases, seconds: (end - started) / 1000, workers, recycled, gcSeconds, times: timesOf(planned, results) };
    },
    true,
    () => keepSpare,
  );
}

/** The results file of a slice: what its machine rendered, and of which plan. */
export interface SliceResults {
  shard: Shard;
  baseUrl: string;
  plan: string;
  results: Rendered[];
}

const sliceFile = (shard: Shard) => `shard-${shard.index}.json`;

/** One machine's part of a sharded build: `<outDir>/api/…`, `<outDir>/pictures/…` and `<outDir>/shard-i.json`. */
export async function buildShard(options: BuildOptions, shard: Shard) {
  const started = performance.now();
  return intoPartial(resolve(options.outDir), async (partial) => {
    const slice = await renderSlice(partial, options, shard);
    const record: SliceResults = { shard, baseUrl: options.baseUrl, plan: planDigestOf(slice.planned), results: slice.results };
    writeFileSync(join(partial, sliceFile(shard)), JSON.stringify(record) + "\n");
    return { ...slice, rendered: slice.results.length, seconds: (performance.now() - started) / 1000 };
  });
}

/** The results file of each slice directory, checked to be the n slices of one build for this base URL (before the plan is made, which takes a while). */
function slicesOf(dirs: string[], baseUrl: string): SliceResults[] {
  const slices = dirs.map((dir) => {
    if (!existsSync(join(dir, "api"))) throw new ShardError(`merge: ${dir} is not a slice directory (it holds no api/)`);
    const name = readdirSync(dir).find((f) => /^shard-\d+\.json$/.test(f));
    if (!name) throw new ShardError(`merge: ${dir} holds no shard-i.json (write it with BUILD_SHARD=i/n npm run build)`);
    return JSON.parse(readFileSync(join(dir, name), "utf8")) as SliceResults;
  });
  const count = slices[0]?.shard.count ?? 0;
  const indices = slices.map((s) => s.shard.index).sort((a, b) => a - b);
  if (slices.length !== count || indices.some((index, i) => index !== i) || slices.some((s) => s.shard.count !== count))
    throw new ShardError(
      `merge: expected the slices 0/${count} … ${count - 1}/${count} once each, got ${slices.map((s) => `${s.shard.index}/${s.shard.count}`).join(", ")}`,
    );
  for (const s of slices)
    if (s.baseUrl !== baseUrl) throw new ShardError(`merge: slice ${s.shard.index}/${count} was rendered for ${s.baseUrl}, not ${baseUrl}`);
  return slices;
}

/** Assembles the slices rendered with BUILD_SHARD=i/n into one build, the same bytes as a build on one machine. */
export async function mergeSlices(options: BuildOptions, dirs: string[]): Promise<Built> {
  const started = performance.now();
  if (dirs.length === 0) throw new ShardError("merge: name the slice directories, e.g. npm run build:merge -- slice-0 slice-1");
  const o = resolveSlice(options);
  const slices = slicesOf(dirs, o.baseUrl);
  const planned = planOf(o);
  const plan = planDigestOf(planned);
  for (const s of slices)
    if (s.plan !== plan) throw new ShardError(`merge: slice ${s.shard.index}/${s.shard.count} was rendered from another plan (other facts, profile or limits)`);
  const catalog = createCatalog(readFacts(o.dataDir), "build");
  return intoPartial(resolve(options.outDir), async (partial) => {
    await writeDatasetsStep(partial, options, catalog.facts);
    // What one build would have rendered before the host's limits stopped it (with BUILD_RENDER_ALL, everything).
    const site = await siteIfBound(options, o, catalog, partial);
    const none = () => ({ results: [], pictureFiles: new Set<string>() });
    const bounded = renderBound({
      partial,
      site: site?.candidates ?? [],
      limits: site ? o.limits : {},
      pictures: PROFILES[o.profile].pictures,
      taken: none,
    })(planned);
    const kept = renderedByOneBuild(
      bounded,
      slices.flatMap((s) => s.results),
    );
    const keptIndices = new Set(kept.results.map((r) => r.index));
    // Those answers' files and siblings and, where the one build draws them, their pictures, from the slice that rendered them.
    for (const [i, s] of slices.entries())
      for (const r of s.results) {
        if (r.status !== 200 || !keptIndices.has(r.index)) continue;
        const { file } = planned[r.index];
        const copy = (path: string) => cpSync(join(dirs[i], path), join(partial, path));
        copy(join("api", file));
        for (const e of Object.keys(r.encoded) as Encoding[]) copy(join("api", file + SIBLING_SUFFIX[e]));
        if (kept.pictures && r.picture !== undefined) copy(join("pictures", pictureFileOf(file)));
      }
    const results = kept.results;
    const { manifest, published } = await finishBuild(partial, options, planned, results, undefined, catalog, site?.site);
    return { manifest, published, seconds: (performance.now() - started) / 1000, workers: 0, recycled: 0, gcSeconds: 0, times: timesOf(planned, results) };
  });
}

const TABLE_START = "<!-- generated by npm run build: per-endpoint table -->";
const TABLE_END = "<!-- end of generated table -->";

/**
 * Rewrites the generated parts of the repository: the layout table and deploy/. The table is
 * documented for the default base URL and profile (link lengths change the byte counts), so a
 * build for another address or profile leaves it as it is.
 */
function writeGenerated(root: string, manifest: Manifest) {
  const doc = join(root, "docs", "static-layout.md");
  if (manifest.baseUrl === DEFAULT_BASE_URL && manifest.profile === "github-pages" && existsSync(doc)) {
    const text = readFileSync(doc, "utf8");
    const start = text.indexOf(TABLE_START);
    const end = text.indexOf(TABLE_END);
    if (start >= 0 && end > start)
      writeFileWhole(
        doc,
        `${text.slice(0, start + TABLE_START.length)}\n${layoutTable(
          manifest,
          routes.map((r) => r.name),
        )}\n${text.slice(end)}`,
      );
  }
  mkdirSync(join(root, "deploy"), { recursive: true });
  writeFileWhole(join(root, "deploy", "nginx.conf"), nginxConfig());
  writeFileWhole(join(root, "deploy", "cloudfront-viewer-request.js"), cloudfrontFunction());
}

/** BUILD_DATASETS as the build takes it: unset for the default (written), 0 or 1, or a clear error. */
export function datasetsWanted(raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw === "0" || raw === "1") return raw === "1";
  throw new ShardError(`BUILD_DATASETS must be 0 (leave out api/datasets/) or 1 (write them), got '${raw}'`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  boundHeapGrowth();
  const root = resolve(import.meta.dirname, "..");
  const outDir = resolve(process.env.BUILD_DIR ?? "build");
  const baseUrl = (process.env.BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const tty = process.stderr.isTTY;
  const t0 = performance.now();
  let lastDraw = 0;
  const progress = (done: number, total: number) => {
    const now = performance.now();
    if (!tty || (now - lastDraw < 200 && done < total)) return;
    lastDraw = now;
    const rate = done / ((now - t0) / 1000);
    const eta = rate > 0 ? (total - done) / rate : 0;
    process.stderr.write(`\r\x1b[K${done}/${total} requests  ${rate.toFixed(0)}/s  ETA ${eta.toFixed(0)} s`);
  };
  // Invalid facts, an output its host would refuse, and slices that cannot be made or merged stop the build with a sentence, no stack.
  const stop = (e: unknown): never => {
    if (!(e instanceof DataError || e instanceof OverLimitError || e instanceof ShardError)) throw e;
    if (tty) process.stderr.write("\r\x1b[K");
    const profile = process.env.HOST_PROFILE ?? "github-pages";
    console.error(
      e instanceof DataError
        ? `build: refusing to build: ${e.message}`
        : e instanceof OverLimitError
          ? `build: the output would not deploy on its host (profile ${profile}): ${e.message}`
          : `build: ${e.message}`,
    );
    process.exit(1);
  };
  const shard = await Promise.resolve(process.env.BUILD_SHARD).then(shardOf).catch(stop);
  const merging = process.argv[2] === "--merge";
  if (shard.count > 1) {
    const slice = await buildShard({ outDir, baseUrl, onProgress: progress }, shard).catch(stop);
    if (tty) process.stderr.write("\r\x1b[K");
    console.log(
      `build: slice ${shard.index}/${shard.count}: ${slice.rendered} of ${slice.planned.length} requests in ${slice.seconds.toFixed(1)} s → ${outDir}`,
    );
    process.exit(0);
  }
  const previousDir = process.env.BUILD_PREVIOUS || undefined;
  const datasets = await Promise.resolve(process.env.BUILD_DATASETS).then(datasetsWanted).catch(stop);
  const building = merging
    ? mergeSlices({ outDir, baseUrl, datasets }, process.argv.slice(3))
    : build({ outDir, baseUrl, previousDir, datasets, onProgress: progress });
  const built = await building.catch(stop);
  const { manifest: m, seconds, workers, phases } = built;
  if (tty) process.stderr.write("\r\x1b[K");
  writeGenerated(root, m);
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  reportBuilt(built, outDir, maxRssBytes);
  // For npm run bench, which runs the build as a child process.
  if (process.env.BUILD_STATS) writeFileSync(process.env.BUILD_STATS, JSON.stringify({ seconds, workers, maxRssBytes, phases }) + "\n");
}
