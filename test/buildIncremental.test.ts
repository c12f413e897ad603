import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { cpSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type BuildOptions, type Built } from "../scripts/build.js";
import { cacheOf, readState } from "../scripts/buildCache.js";
import type { BuildState } from "../scripts/buildState.js";
import { CHANGED, factsWithOneChange } from "../scripts/bench-incremental.js";
import { compareTrees, treeDigests } from "../scripts/compare-builds.js";
import { cacheGroupOf } from "../scripts/slicePlan.js";
import { asideOf, removeAside, setAside } from "../scripts/start.js";
import { treeSize, type TreeSize } from "../scripts/treeSize.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { answerApi } from "../src/serve/handler.js";
import { availabilityRequests, removeBuilds, smallRequests, SAMPLE_BASE_URL, trashRemoved } from "./support/buildSample.js";

const requests = [...smallRequests(), ...availabilityRequests()];
let dir: string;
let first: Built;
let unchanged: Built;
let incremental: Built;
let clean: Built;
let overStale: Built;
let back: Built;
let backDigests: Map<string, string>;
let incrementalDigests: Map<string, string>;
let asideKept: boolean;
/** Each build's published figures (counted from what the build knows) and those of a walk of its tree right after it. */
const counted: [string, TreeSize, TreeSize][] = [];
let firstDigests: Map<string, string>;
let unchangedDigests: Map<string, string>;
let stateBefore: BuildState | undefined;
let stateAfter: BuildState | undefined;
// A byte limit that leaves answers out, so that the leftovers a later fit may keep come from the cache.
const options = (outDir: string, dataDir?: string): BuildOptions => ({
  outDir,
  baseUrl: SAMPLE_BASE_URL,
  requests,
  workers: 1,
  encodings: ["gzip", "br"],
  profile: "github-pages",
  limits: { tarBytes: 18e6 },
  dataDir,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "maqam-incremental-"));
  const tree = join(dir, "build");
  const built = async (what: string, o: BuildOptions) => {
    const b = await build(o);
    counted.push([what, b.published, treeSize(o.outDir)]);
    return b;
  };
  first = await built("first", options(tree));
  firstDigests = treeDigests(tree);
  unchanged = await built("unchanged", options(tree));
  unchangedDigests = treeDigests(tree);
  stateBefore = readState(tree);
  // What npm start finds: the same build, now stale.
  const stale = join(dir, "stale");
  for (const from of [tree, cacheOf(tree)]) cpSync(from, from.replace(tree, stale), { recursive: true });
  // One tuning system changed: one of its ratios.
  const data = factsWithOneChange(join(dir, "data"));
  incremental = await built("incremental", options(tree, data));
  stateAfter = readState(tree);
  incrementalDigests = treeDigests(tree);
  clean = await built("clean", options(join(dir, "clean"), data));
  // And back: the spare it starts from holds the facts of data/.
  back = await built("back", options(tree));
  backDigests = treeDigests(tree);
  // npm start's way: the stale build set aside, a build over it, the aside removed.
  const aside = setAside(stale);
  overStale = await built("over the stale", { ...options(stale, data), previousDir: aside });
  asideKept = existsSync(aside) && existsSync(cacheOf(aside));
  removeAside(stale);
}, 900_000);
// The trees replaced are removed by detached processes: once they are done, the folder goes.
afterAll(() => removeBuilds(dir, ["build", "clean", "stale"]), 150_000);

const groups = new Set(requests.map(cacheGroupOf));
const isAvailability = (group: string) => /^\/(maqamat|ajnas)\//.test(group);
/** The groups whose hash changed between the build before the change and the one after: those it rendered. */
const renderedAgain = () => [...groups].filter((g) => stateBefore?.groups.get(g)?.hash !== stateAfter?.groups.get(g)?.hash);

/**
 * The availability groups whose answers differ between the facts of data/ and the changed ones, as the
 * handler computes them (the builds render only what the host's limit leaves room for).
 */
const availabilityChanged = async (changedData: string) => {
  const before = createCatalog(readFacts());
  const after = createCatalog(readFacts(changedData));
  const changed = new Set<string>();
  for (const request of requests.filter((r) => isAvailability(cacheGroupOf(r)))) {
    const [path, query = ""] = request.split("?");
    const [a, b] = await Promise.all([before, after].map((catalog) => answerApi(path, new URLSearchParams(query), { catalog, baseUrl: SAMPLE_BASE_URL })));
    if (!Buffer.from(a.body).equals(Buffer.from(b.body))) changed.add(cacheGroupOf(request));
  }
  return changed;
};

describe("incremental build", () => {
  it("leaves files out to fit, and keeps them beside the tree for a later fit", () => {
    expect(first.manifest.published.leftOut.files).toBeGreaterThan(0);
    expect(existsSync(join(cacheOf(join(dir, "build")), "state.json"))).toBe(true);
    expect(existsSync(join(dir, "build", "state.json"))).toBe(false);
  });

  it("over an unchanged build renders nothing and writes the same tree", () => {
    expect(first.groups).toEqual({ rendered: groups.size, kept: 0, inPlace: 0 });
    // No tree was replaced before it: nothing to start from but an empty one.
    expect(unchanged.groups).toEqual({ rendered: 0, kept: groups.size, inPlace: 0 });
    expect(unchangedDigests).toEqual(firstDigests);
  });

  it("after one tuning system changed renders its groups, the lists and the availability answers it changes, and keeps the others", () => {
    const rendered = renderedAgain();
    expect(rendered.filter((g) => !isAvailability(g))).toEqual(
      [...groups].filter((g) => !isAvailability(g) && (g.startsWith(`${CHANGED.tuningSystem} × `) || !g.includes(" × "))),
    );
    const availability = [...groups].filter(isAvailability);
    const availabilityRendered = rendered.filter(isAvailability);
    // Few of the availability answers: those under a transposed idName whose tonic the changed ratio makes reachable or not.
    expect(availability.length).toBeGreaterThan(100);
    expect(availabilityRendered.length).toBeGreaterThan(0);
    expect(availabilityRendered.length).toBeLessThan(availability.length / 4);
    expect(incremental.groups).toMatchObject({ rendered: rendered.length, kept: groups.size - rendered.length });
  });

  it("starts from the tree before the previous one: the unchanged groups stay in place, what its fit had left out is linked from the previous build", () => {
    // The first build's tree, kept as the spare when the unchanged build replaced it; the files its fit left out (gone with its cache) come from the previous build and its cache.
    const { kept, inPlace } = incremental.groups ?? { kept: 0, inPlace: 0 };
    expect(first.manifest.published.leftOut.files).toBeGreaterThan(0);
    expect(inPlace).toBe(kept);
    // Back to the facts of data/ over the changed build: its spare is the unchanged build's tree, the same as the first's.
    const { rendered, kept: keptBack, inPlace: inPlaceBack } = back.groups ?? { rendered: 0, kept: 0, inPlace: 0 };
    expect(rendered + keptBack).toBe(groups.size);
    // The groups the change had rendered again are in the spare as they were: fewer are rendered than the change rendered.
    expect(rendered).toBeLessThan(renderedAgain().length);
    expect(inPlaceBack).toBeGreaterThan(keptBack / 2);
    expect(backDigests).toEqual(firstDigests);
    expect(back.manifest).toEqual(first.manifest);
  });

  it("renders again exactly the availability answers whose bytes changed", async () => {
    const changed = await availabilityChanged(join(dir, "data"));
    expect(changed.size).toBeGreaterThan(0);
    expect(renderedAgain().filter(isAvailability)).toEqual([...groups].filter((g) => isAvailability(g) && changed.has(g)));
  });

  it("writes the same tree as a clean build of the changed facts, every file the same SHA-256", () => {
    // The tree as the incremental build left it (a later build went back to data/).
    expect(incrementalDigests).toEqual(treeDigests(join(dir, "clean")));
    expect(incrementalDigests.size).toBeGreaterThan(clean.manifest.files);
    expect(incremental.manifest).toEqual(clean.manifest);
  });

  it("changed what the changed tuning system's files say", () => {
    expect(incremental.manifest.digest).not.toBe(first.manifest.digest);
    const differing = [...incrementalDigests].filter(([file, digest]) => firstDigests.has(file) && firstDigests.get(file) !== digest).map(([file]) => file);
    expect(differing.some((f) => f.includes(`tuningSystem=${CHANGED.tuningSystem}`) || f.includes(`/${CHANGED.tuningSystem}/`))).toBe(true);
    expect(differing.filter((f) => f.startsWith("api/") && f.includes("tuningSystem=alkindi_874"))).toEqual([]);
  });

  it("publishes the figures a walk of the tree finds, counted from the sizes the build knows", () => {
    expect(counted.map(([what]) => what)).toEqual(["first", "unchanged", "incremental", "clean", "back", "over the stale"]);
    // The fit leaves files out under this limit: the listing follows what it removes and moves in.
    for (const [what, published, walked] of counted) expect(published, what).toEqual(walked);
  });

  it("throws away the trees it replaces, removed after it by detached processes", async () => {
    await trashRemoved(dir, ["build", "stale"]);
    // The tree each build replaced is kept as the next one's spare, with its state, where the build had one; the others are thrown away.
    expect(readdirSync(dir).sort()).toEqual([
      "build",
      "build.cache",
      "build.spare",
      "build.spare.json",
      "clean",
      "clean.cache",
      "data",
      "stale",
      "stale.cache",
    ]);
  }, 250_000);

  it("over a stale build set aside by npm start takes over the same groups, and writes the clean build's tree", () => {
    expect(asideKept).toBe(true);
    expect(overStale.groups).toEqual({ ...incremental.groups, inPlace: 0 });
    const diff = compareTrees(join(dir, "clean"), join(dir, "stale"));
    expect(diff).toEqual({ onlyBefore: [], onlyAfter: [], differing: [], compared: diff.compared });
    expect(overStale.manifest).toEqual(clean.manifest);
    expect(existsSync(asideOf(join(dir, "stale")))).toBe(false);
    expect(existsSync(cacheOf(asideOf(join(dir, "stale"))))).toBe(false);
  });
});
