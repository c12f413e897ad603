/**
 * The planning of a build on a thread of its own (scripts/planApart.ts starts it): the listing of
 * every tuning system (read back where unchanged), the plan and the shard's batches, the groups'
 * content hashes, and the listing kept for the next build. The planning computes much and keeps
 * little: the 12-tone sets of every tuning system × starting note, the availability of every
 * entity. On the main thread its garbage, interleaved with the plan it keeps, held the heap at
 * about 400 MB through the rendering; a thread's heap is returned whole when it ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import type { PlanTask } from "./planApart.js";
import { planToSend } from "./planColumns.js";
import { planListing } from "./planListing.js";
import { PROFILES } from "./profiles.js";
import { batchesOf, planOf } from "./slicePlan.js";
import { groupHashes } from "./sliceHash.js";

const task = workerData as PlanTask;
const seconds = (since: number) => (performance.now() - since) / 1000;
const started = performance.now();
const facts = readFacts(task.dataDir);
const listing = planListing(createCatalog(facts, "build"), task.engine, PROFILES[task.profile].prerender, task.previousCache, task.listingCode);
// One catalog for the plan and the hashes: the availability hashes read the transposition lists
// the listing has filled (in a clean build, every one; half a second less than a fresh catalog).
const catalog = createCatalog(facts, "build");
const planned = planOf({ catalog, requests: task.requests, profile: task.profile, limits: task.limits, listOf: listing.listOf });
const batches = batchesOf(planned, task.shard);
const plan = seconds(started);
const hashing = performance.now();
const hashes = groupHashes(planned, catalog, task.key, task.engine, listing.listOf);
const hashed = seconds(hashing);
const writing = performance.now();
listing.write(task.cache);
const sent = planToSend(planned, batches, hashes, { plan, hashes: hashed, listing: seconds(writing) });
parentPort?.postMessage(
  sent,
  sent.batches.map((b) => b.buffer as ArrayBuffer),
);
