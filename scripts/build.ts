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
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { routes } from "../src/api/routes.js";
import { DataError } from "../src/data/facts.js";
import { DATA_DIR, readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { cloudfrontFunction, nginxConfig } from "../src/serve/deploy.js";
import type { Drawn, Rendered } from "./buildWorker.js";
import { renderBound, type Bounded } from "./renderBound.js";
import type { SiteAside } from "./site.js";
import { layoutTable, type Manifest, type Planned } from "./manifest.js";
import { PROFILES } from "./profiles.js";
import { OverLimitError } from "./fitTree.js";
import type { Candidate } from "./budget.js";
import { discard, removeEmptyFolders, removeFilesApart, writeFileWhole } from "./swap.js";
import { renderSlice } from "./renderSlice.js";
import { resolveSlice, ShardError, shardOf, WHOLE } from "./slicePlan.js";
import { intoPartial, siteIfBound } from "./partialTree.js";
import { buildShard, mergeSlices } from "./buildShards.js";
import { boundHeapGrowth, collectGarbage, growHeapFreely, inlineLess } from "./heap.js";
import { cacheOf, cachePartialOf, dropPastStop, keepUnchanged, NOTHING_KEPT, readDatasetsState, readState } from "./buildCache.js";
import type { BuildState } from "./buildState.js";
import { engineDigest } from "./sliceHash.js";
import { listingCode } from "./planListing.js";
import { planApart, type PlanSteps, type PlanTask } from "./planApart.js";
import { makePlan } from "./planMake.js";
import type { ListingCounts } from "./planListing.js";
import { reportBuilt, type Built } from "./buildReport.js";
import { finishBuild, startDatasets, writesDatasets, type BuildOptions, type Keeping } from "./finishBuild.js";
import { FEW_SLICES } from "./datasets.js";

export type { BuildOptions } from "./finishBuild.js";
export type { Built, RouteTimes } from "./buildReport.js";

export const DEFAULT_BASE_URL = "http://localhost:3000";
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
      if (datasetsStep.fewChanged()) growHeapFreely();
      // Read while the plan is made (its groups parsed only where taken from it, scripts/buildState.ts), let go once the groups are taken over (below): the groups kept hold what is needed of it.
      let previous: BuildState | undefined;
      const datasetsEnd = performance.now();
      let keeping: Keeping = { cache, kept: NOTHING_KEPT, hashes: new Map(), previousDir, engine, datasets: undefined };
      let planEnd = datasetsEnd;
      let planSteps: PlanSteps | undefined;
      let planParts: ListingCounts | undefined;
      let planApartUsed: boolean | undefined;
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
          // The parts the datasets' threads listed with their slices; the others are read back from the previous build where unchanged.
          const listed = datasetsStep.takeListed();
          const unlisted = catalog.tuningSystems.filter((ts) => !listed.has(ts.id)).length;
          const task: PlanTask = {
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
            offered: listed,
          };
          const seeds = [...listed.values()].flatMap((l) => l.seeds);
          // After a change of few tuning systems, or none, or where the datasets' threads listed the tuning systems, planned
          // on this thread once the state is read: the listing read back leaves little garbage, the code is warm, and the
          // plan is not copied (2–4 s of CPU less, docs/benchmarks.md). Otherwise on a thread of its own, its failure thrown
          // where it is awaited, below, after the site's.
          const apart = datasetsStep.fewChanged() || unlisted <= FEW_SLICES ? undefined : planApart(task);
          planApartUsed = apart !== undefined;
          // The render workers start once the datasets are written (their threads' heaps, the database's some 350 MB, are
          // returned by then), the plan made or not: a clean build's plan takes a core for seconds after the datasets.
          // Without datasets, once the plan is made, as its peak would add to theirs.
          if (writesDatasets(options)) datasetsStep.written.then(startWorkers, () => undefined);
          // Read on this thread while a planning thread works.
          previous = readState(previousDir);
          // The tree replaced, with the state it has, is the next build's starting point.
          keepSpare = previousDir === outDir && previous !== undefined;
          // Planned here once the datasets' threads have their tasks: a synchronous planning would hold their start back.
          const planning = apart ?? datasetsStep.apart.then(() => makePlan(task, catalog.facts));
          planning.catch(() => undefined);
          const siteWritten = await siteMade;
          site = siteWritten?.candidates;
          siteAside = siteWritten?.site;
          const made = await planning;
          // The groups are taken over while an incremental build's database may still be built: 1.5–2 s sooner, for the states
          // read (some 90 MB each) meeting the database's heap (some 350 MB): 100–190 MB more at the peak (docs/benchmarks.md).
          const { hashes } = made;
          const keptFrom = performance.now();
          const chosen = keepUnchanged(previousDir, partial, cache, made.batches, hashes, previous, takeSpare(), (path) => discard(outDir, path));
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
          planParts = made.parts;
          return { planned: made.planned, batches: chosen.batches, seeds: [...seeds, ...made.seeds] };
        },
        bound,
      );
      const { planned, results, gcSeconds, recycled, workers } = rendered;
      // Taken over from a build that went further: a build of the whole plan would not have made it.
      const past = bounded?.pastStop();
      if (past) keeping = { ...keeping, kept: dropPastStop(keeping.kept, planned, past, { partial, cache }) };
      withPictures([...results, ...keeping.kept.results], rendered.drawn);
      removeEmptyFolders(partial, emptied);
      // The rendering's batches and messages let go now, before the finishing's allocations (some 0.1 s for a github-pages
      // build): left to the collector, they were still held when a doubled archive's finishing began, at the build's peak.
      collectGarbage();
      const renderEnd = performance.now();
      const { manifest, published, steps } = await finishBuild(partial, options, planned, results, keeping, catalog, siteAside);
      const end = performance.now();
      const groups = { rendered: keeping.hashes.size - keeping.kept.groups.size, kept: keeping.kept.groups.size, inPlace };
      const phases = {
        datasets: (datasetsEnd - started) / 1000,
        besidePlan:
          datasetsStep.doneAt() > datasetsEnd
            ? { seconds: (datasetsStep.doneAt() - datasetsEnd) / 1000, waited: datasetsWaited, filesHere: datasetsStep.filesHere() }
            : undefined,
        plan: (planEnd - datasetsEnd) / 1000,
        planApart: planApartUsed,
        render: (renderEnd - planEnd) / 1000,
        finish: (end - renderEnd) / 1000,
        planSteps,
        planParts,
        steps,
      };
      return { manifest, published, groups, phases, seconds: (end - started) / 1000, workers, recycled, gcSeconds, times: rendered.times };
    },
    true,
    () => keepSpare,
  );
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
  inlineLess();
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
  const { manifest: m, seconds, workers, phases, recycled, gcSeconds, times } = built;
  if (tty) process.stderr.write("\r\x1b[K");
  writeGenerated(root, m);
  const usage = process.resourceUsage();
  const maxRssBytes = usage.maxRSS * 1024;
  reportBuilt(built, outDir, maxRssBytes);
  // For npm run bench, which runs the build as a child process: the CPU of every thread, in the program and in the kernel.
  const cpu = { userSeconds: usage.userCPUTime / 1e6, systemSeconds: usage.systemCPUTime / 1e6 };
  // The workers' time by route too, so that two builds' figures can be set side by side route by route.
  const rendering = { recycled, gcSeconds, times };
  if (process.env.BUILD_STATS) writeFileSync(process.env.BUILD_STATS, `${JSON.stringify({ seconds, workers, maxRssBytes, cpu, phases, rendering })}\n`);
}
