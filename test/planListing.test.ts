/**
 * The plan's listing kept between builds (scripts/planListing.ts), over three tuning systems:
 * read back over one changed tuning system it gives the plan and the group hashes a fresh listing
 * of the changed facts gives, and a listing file that is corrupt, edited or of other facts or
 * another engine is not used.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Facts } from "../src/data/facts.js";
import { readFacts } from "../src/data/load.js";
import type { ListOf } from "../src/api/shared/prerender.js";
import { createCatalog } from "../src/theory/catalog.js";
import { setGroupingSeeds } from "../src/api/exports/prerender.js";
import { CHANGED, factsWithOneChange } from "../scripts/bench-incremental.js";
import { listingCode, listTuningSystem, PLAN_FILE, planListing, readStored, type PlanListing } from "../scripts/planListing.js";
import type { PlanTask } from "../scripts/planApart.js";
import { makePlan } from "../scripts/planMake.js";
import { prerenderRequests } from "../scripts/prerender/index.js";
import { PROFILES } from "../scripts/profiles.js";
import { planOf, WHOLE } from "../scripts/slicePlan.js";
import { groupHashes } from "../scripts/sliceHash.js";

const KEPT = ["alkindi_874", CHANGED.tuningSystem, "almawsili_850"];
const ENGINE = "engine of the test";
const OPTIONS = PROFILES["github-pages"].prerender;
const KEY = { baseUrl: "http://localhost:3000", encodings: [], pictures: true };
const threeOf = (facts: Facts): Facts => ({ ...facts, tuningSystems: facts.tuningSystems.filter((r) => KEPT.includes(r.id)) });

let dir: string;
let before: Facts;
let after: Facts;

/** The plan and its group hashes, listed through `listOf` (by default computed). */
function planned(facts: Facts, listOf?: ListOf) {
  const requests = [...prerenderRequests(createCatalog(facts, "build"), { ...OPTIONS, listOf })];
  const plan = planOf({ requests, profile: "github-pages", limits: {} });
  return { requests, hashes: groupHashes(plan, createCatalog(facts, "build"), KEY, ENGINE, listOf) };
}

/** planned() through a listing over the facts, read from `previous` and kept in `cache`. */
function listedOver(facts: Facts, previous: string | undefined, cache: string): ReturnType<typeof planned> & { listing: PlanListing } {
  const listing = planListing(createCatalog(facts, "build"), { engine: ENGINE, options: OPTIONS, previousCache: previous });
  const result = planned(facts, listing.listOf);
  listing.write(cache);
  return { ...result, listing };
}

let first: ReturnType<typeof listedOver>;
let incremental: ReturnType<typeof listedOver>;
let fresh: ReturnType<typeof planned>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "maqam-plan-listing-"));
  before = threeOf(readFacts());
  after = threeOf(readFacts(factsWithOneChange(join(dir, "data"))));
  first = listedOver(before, undefined, join(dir, "first"));
  incremental = listedOver(after, join(dir, "first"), join(dir, "incremental"));
  fresh = planned(after);
}, 600_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The listing kept in a cache of the test's, by tuning system. */
const storedIn = (cache: string) => readStored(join(dir, cache));

/** The value a listing over `facts` reading `previous` gives for a part of `tuningSystem`: the stored one, or "listed now". */
function partRead(facts: Facts, previous: string, tuningSystem: string, part: string, engine = ENGINE): unknown {
  const catalog = createCatalog(facts, "build");
  const ts = catalog.findTuningSystem(tuningSystem);
  if (!ts) throw new Error(`no tuning system ${tuningSystem}`);
  return planListing(catalog, { engine, options: OPTIONS, previousCache: previous }).listOf(ts, part, () => "listed now");
}

describe("the plan's listing kept between builds", () => {
  it("lists every part the first time, and reads back all but the changed tuning system's", () => {
    const parts = first.listing.counts().listed;
    expect(first.listing.counts().read).toBe(0);
    expect(parts).toBeGreaterThan(3 * 5);
    const { read, listed } = incremental.listing.counts();
    const partsOf = (id: string) => Object.keys(JSON.parse(String(storedIn("incremental")[id].bytes))).length;
    expect(listed).toBe(partsOf(CHANGED.tuningSystem));
    expect(read).toBe(partsOf("alkindi_874") + partsOf("almawsili_850"));
    expect(read).toBeGreaterThan(10);
  });

  it("keeps the text of a tuning system whose parts were all read back, and writes the changed one's again", () => {
    const [was, is] = [storedIn("first"), storedIn("incremental")];
    for (const id of ["alkindi_874", "almawsili_850"]) expect(is[id]).toEqual(was[id]);
    const changed = is[CHANGED.tuningSystem];
    expect(changed.bytes.equals(was[CHANGED.tuningSystem].bytes)).toBe(false);
    expect(changed.digest).toBe(createHash("sha256").update(changed.bytes).update("\0").digest("hex"));
  });

  it("read back over the changed facts, gives the plan and group hashes a fresh listing gives", () => {
    expect(incremental.requests).toEqual(fresh.requests);
    expect(incremental.hashes).toEqual(fresh.hashes);
  });

  it("is not a copy of the listing before the change: the plan and some availability answers' hashes differ", () => {
    expect(first.requests.length).toBeGreaterThan(10_000);
    expect(fresh.requests).not.toEqual(first.requests);
    const isAvailability = (group: string) => /^\/(maqamat|ajnas)\//.test(group);
    const changed = [...fresh.hashes].filter(([group, hash]) => isAvailability(group) && first.hashes.has(group) && first.hashes.get(group) !== hash);
    expect(changed.length).toBeGreaterThan(0);
  });

  it("hashes al-Kindī's record into every tuning system's groups, whose 12-tone sets are completed from his tuning", () => {
    // His minor third 32/27 made 6/5: al-Mawṣilī's own record is unchanged, his groups' answers are not.
    const third = (r: Facts["tuningSystems"][number]) =>
      r.id === "alkindi_874" ? { ...r, tuningSystemPitchClasses: r.tuningSystemPitchClasses.map((x) => (x === "32/27" ? "6/5" : x)) } : r;
    const { hashes } = planned({ ...before, tuningSystems: before.tuningSystems.map(third) });
    const groups = [...first.hashes.keys()].filter((group) => group.startsWith("almawsili_850 × "));
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups) expect(hashes.get(group), group).not.toBe(first.hashes.get(group));
  }, 300_000);

  it("lists a tuning system's parts alone as the planning lists them, byte for byte, with the 12-tone groupings of its sets", () => {
    const catalog = createCatalog(before, "build");
    const stored = storedIn("first");
    for (const ts of catalog.tuningSystems) {
      const { bytes, digest, seeds } = listTuningSystem(catalog, ts, OPTIONS);
      expect(Buffer.from(bytes).equals(stored[ts.id].bytes), ts.id).toBe(true);
      expect(digest).toBe(stored[ts.id].digest);
      expect(seeds).toEqual(setGroupingSeeds(createCatalog(before, "build"), ts));
    }
  });

  it("takes the parts offered for these facts before the previous build's, and lists what they do not hold", () => {
    const catalog = createCatalog(after, "build");
    const [offeredTs, otherTs] = [catalog.findTuningSystem(CHANGED.tuningSystem), catalog.findTuningSystem("alkindi_874")];
    if (!offeredTs || !otherTs) throw new Error("a tuning system of the test is missing");
    const { bytes, digest } = listTuningSystem(catalog, offeredTs, OPTIONS);
    const listing = planListing(catalog, { engine: ENGINE, options: OPTIONS, offered: new Map([[offeredTs.id, { bytes: new Uint8Array(bytes), digest }]]) });
    const details = listing.listOf(offeredTs, "maqamat/details", () => "listed now");
    expect(details).toEqual(JSON.parse(String(bytes))["maqamat/details"]);
    expect(listing.listOf(offeredTs, "a part it does not hold", () => "listed now")).toBe("listed now");
    expect(listing.listOf(otherTs, "maqamat/details", () => "listed now")).toBe("listed now");
    // Offered bytes that do not match their digest are not used.
    const edited = planListing(catalog, {
      engine: ENGINE,
      options: OPTIONS,
      offered: new Map([[offeredTs.id, { bytes: new Uint8Array(bytes).subarray(1), digest }]]),
    });
    expect(edited.listOf(offeredTs, "maqamat/details", () => "listed now")).toBe("listed now");
  });

  it("makes the same plan, batches, group hashes, 12-tone seeds and kept listing from parts offered as from parts it lists", () => {
    const catalog = createCatalog(after, "build");
    const task = (cache: string, offered?: PlanTask["offered"]): PlanTask => ({
      dataDir: "unused: the facts are given",
      profile: "github-pages",
      limits: PROFILES["github-pages"].limits,
      shard: WHOLE,
      key: KEY,
      engine: ENGINE,
      listingCode: listingCode(),
      cache: join(dir, cache),
      offered,
    });
    const listed = new Map(catalog.tuningSystems.map((ts) => [ts.id, listTuningSystem(catalog, ts, OPTIONS)]));
    const offered = makePlan(task("offered", listed), after);
    const own = makePlan(task("own"), after);
    expect(offered.parts).toEqual({ offered: own.parts.listed, read: 0, listed: 0 });
    expect(offered.planned).toEqual(own.planned);
    expect(offered.batches).toEqual(own.batches);
    expect(offered.hashes).toEqual(own.hashes);
    // The planning makes seeds of the sets it lists itself; offered, they come with the parts.
    expect(offered.seeds).toEqual([]);
    expect(new Map([...listed.values()].flatMap((l) => l.seeds))).toEqual(new Map(own.seeds));
    expect(readFileSync(join(dir, "offered", PLAN_FILE)).equals(readFileSync(join(dir, "own", PLAN_FILE)))).toBe(true);
  });

  it("reads back a part of an unchanged tuning system, as it was stored", () => {
    const stored = partRead(after, join(dir, "incremental"), "alkindi_874", "maqamat/details");
    expect(Array.isArray(stored)).toBe(true);
    expect((stored as string[]).every((r) => r.startsWith("/maqamat/") && r.includes("tuningSystem=alkindi_874"))).toBe(true);
  });

  it("does not use a listing that does not parse, is of another format, of another engine, or edited since it was written", () => {
    const cache = join(dir, "incremental");
    const file = join(cache, PLAN_FILE);
    const text = readFileSync(file, "utf8");
    const read = () => partRead(after, cache, "alkindi_874", "maqamat/details");
    expect(partRead(after, cache, "alkindi_874", "maqamat/details", "another engine")).toBe("listed now");
    expect(partRead(before, cache, CHANGED.tuningSystem, "maqamat/details")).toBe("listed now");
    writeFileSync(file, text.slice(0, text.length / 2));
    expect(read()).toBe("listed now");
    writeFileSync(file, text.replace(/^[^\n]*/, JSON.stringify({ format: "plan listing 0" })));
    expect(read()).toBe("listed now");
    // One request dropped from a part, the digest left as it was.
    const lines = text.split("\n");
    const at = lines.findIndex((line) => line.startsWith("{") && JSON.parse(line).id === "alkindi_874") + 1;
    const parts = JSON.parse(lines[at]);
    parts["maqamat/details"].pop();
    lines[at] = JSON.stringify(parts);
    writeFileSync(file, lines.join("\n"));
    expect(read()).toBe("listed now");
    // Another tuning system's text read back all the same.
    expect(partRead(after, cache, "almawsili_850", "maqamat/details")).not.toBe("listed now");
    writeFileSync(file, text);
    expect(read()).not.toBe("listed now");
  });
});
