/**
 * The planning of a build: the listing of every tuning system (offered by the datasets' threads, or
 * read back where unchanged), the plan and the shard's batches, the groups' content hashes, and the
 * listing kept for the next build. Made on a thread of its own (scripts/planThread.ts) when most
 * tuning systems are listed by the planning, on the build's main thread when few are (scripts/build.ts).
 */
import { SETS_PART, setGroupingSeeds } from "../src/api/exports/prerender.js";
import type { ListOf } from "../src/api/shared/prerender.js";
import type { Facts } from "../src/data/facts.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import type { PlanTask } from "./planApart.js";
import type { TwelveToneSeeds } from "./buildWorker.js";
import type { PlanMade } from "./planColumns.js";
import { planListing } from "./planListing.js";
import { PROFILES } from "./profiles.js";
import { batchesOf, planOf } from "./slicePlan.js";
import { groupHashes } from "./sliceHash.js";

/**
 * The plan, the shard's batches and the groups' hashes of `task`, the 12-tone groupings it listed
 * the sets' files from (the render workers' seeds, so that they do not group them again), and the
 * seconds of each step; `facts` those of task.dataDir, where the caller has read them.
 */
export function makePlan(task: PlanTask, facts: Facts = readFacts(task.dataDir)): PlanMade {
  const seconds = (since: number) => (performance.now() - since) / 1000;
  const started = performance.now();
  const listing = planListing(createCatalog(facts, "build"), {
    engine: task.engine,
    options: PROFILES[task.profile].prerender,
    previousCache: task.previousCache,
    scripts: task.listingCode,
    offered: task.offered,
  });
  // One catalog for the plan and the hashes: the availability hashes read the transposition lists
  // the listing has filled (in a clean build, every one; half a second less than a fresh catalog).
  const catalog = createCatalog(facts, "build");
  const seeds: TwelveToneSeeds = [];
  const listOf: ListOf = (ts, part, list) =>
    listing.listOf(ts, part, () => {
      const listed = list();
      if (part === SETS_PART.name) seeds.push(...setGroupingSeeds(catalog, ts));
      return listed;
    });
  const planned = planOf({ catalog, requests: task.requests, profile: task.profile, limits: task.limits, listOf });
  const batches = batchesOf(planned, task.shard);
  const plan = seconds(started);
  const hashing = performance.now();
  const hashes = groupHashes(planned, catalog, task.key, task.engine, listOf);
  const hashed = seconds(hashing);
  const writing = performance.now();
  listing.write(task.cache);
  return { planned, batches, hashes, seeds, steps: { plan, hashes: hashed, listing: seconds(writing) }, parts: listing.counts() };
}
