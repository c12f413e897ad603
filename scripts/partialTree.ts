/**
 * The tree a build makes, written aside and swapped in whole at the end, and the site made aside in
 * it: what a whole build, a slice of a sharded one and their merging share.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Catalog } from "../src/theory/catalog.js";
import { limitsBound, siteCandidates } from "./renderBound.js";
import type { SiteAside } from "./site.js";
import type { Candidate } from "./budget.js";
import { discard, prepareSwap, removeDiscarded, swapIn } from "./swap.js";
import type { resolveSlice } from "./slicePlan.js";
import { cachePartialOf, reuseSpare, swapCache } from "./buildCache.js";
import type { BuildState } from "./buildState.js";
import type { BuildOptions } from "./finishBuild.js";

/**
 * The site's files for the rendering's stop, when the host's limits can stop it (not with
 * BUILD_RENDER_ALL or renderAll), and the site itself, made aside in the tree being made (a failed
 * build throws it away with the tree) until the finishing places it.
 */
export function siteIfBound(
  options: BuildOptions,
  o: ReturnType<typeof resolveSlice>,
  catalog: Catalog,
  partial: string,
): Promise<{ candidates: Candidate[]; site: SiteAside } | undefined> {
  const renderAll = options.renderAll ?? process.env.BUILD_RENDER_ALL === "1";
  return limitsBound(o.limits) && !renderAll ? siteCandidates(o.baseUrl, catalog, partial, join(partial, SITE_ASIDE)) : Promise.resolve(undefined);
}

/** The folder of the tree being made where its site waits to be placed. */
export const SITE_ASIDE = ".site-aside";

/**
 * Writes into `<outDir>.partial` and swaps it in whole at the end (scripts/swap.ts), so a server
 * reading `outDir` never sees half a build, and a build killed half way leaves the previous one.
 * With `cache`, the cache being made beside it (`<outDir>.cache.partial`) replaces the previous
 * cache once the tree is in. What is replaced, or left by a failure, goes to the trash, removed by a
 * detached process: the build does not wait for it. With the cache, the tree before the previous one
 * (its spare, with its state) becomes the partial tree, and `keepSpare` says whether the tree
 * replaced is kept as the next build's spare.
 */
export async function intoPartial<T>(
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
