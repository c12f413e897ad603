/**
 * A build sharded across machines: `BUILD_SHARD=i/n` renders slice i of the plan into its own tree
 * with its results file, and `npm run build:merge` assembles the n slices into the tree one build
 * makes, the same bytes.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { SIBLING_SUFFIX, type Encoding } from "../src/serve/handler.js";
import type { Rendered } from "./buildWorker.js";
import { renderBound, renderedByOneBuild } from "./renderBound.js";
import { pictureFileOf } from "./pictures.js";
import { PROFILES } from "./profiles.js";
import { renderSlice } from "./renderSlice.js";
import { planDigestOf, planOf, resolveSlice, ShardError, type Shard } from "./slicePlan.js";
import { timesTogether, type Built, type TimesByRoute } from "./buildReport.js";
import { finishBuild, writeDatasetsStep, type BuildOptions } from "./finishBuild.js";
import { intoPartial, siteIfBound } from "./partialTree.js";

/** The results file of a slice: what its machine rendered, and of which plan. */
export interface SliceResults {
  shard: Shard;
  baseUrl: string;
  plan: string;
  results: Rendered[];
  /** The slice's worker time by route. */
  times: TimesByRoute;
}

const sliceFile = (shard: Shard) => `shard-${shard.index}.json`;

/** One machine's part of a sharded build: `<outDir>/api/…`, `<outDir>/pictures/…` and `<outDir>/shard-i.json`. */
export async function buildShard(options: BuildOptions, shard: Shard) {
  const started = performance.now();
  return intoPartial(resolve(options.outDir), async (partial) => {
    const slice = await renderSlice(partial, options, shard);
    const record: SliceResults = { shard, baseUrl: options.baseUrl, plan: planDigestOf(slice.planned), results: slice.results, times: slice.times };
    writeFileSync(join(partial, sliceFile(shard)), `${JSON.stringify(record)}\n`);
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
    return {
      manifest,
      published,
      seconds: (performance.now() - started) / 1000,
      workers: 0,
      recycled: 0,
      gcSeconds: 0,
      times: timesTogether(slices.map((s) => s.times)),
    };
  });
}
