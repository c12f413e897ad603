import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type BuildOptions, type Built } from "../scripts/build.js";
import { cacheOf } from "../scripts/buildCache.js";
import { CHANGED, factsWithOneChange } from "../scripts/bench-incremental.js";
import { compareTrees, treeDigests } from "../scripts/compare-builds.js";
import { cacheGroupOf } from "../scripts/renderSlice.js";
import { smallRequests, SAMPLE_BASE_URL } from "./support/buildSample.js";

const requests = smallRequests();
let dir: string;
let first: Built;
let unchanged: Built;
let incremental: Built;
let clean: Built;
let firstDigests: Map<string, string>;
let unchangedDigests: Map<string, string>;
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
  first = await build(options(tree));
  firstDigests = treeDigests(tree);
  unchanged = await build(options(tree));
  unchangedDigests = treeDigests(tree);
  // One tuning system changed: one of its ratios.
  const data = factsWithOneChange(join(dir, "data"));
  incremental = await build(options(tree, data));
  clean = await build(options(join(dir, "clean"), data));
}, 900_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const groups = new Set(requests.map(cacheGroupOf));
const changedGroups = [...groups].filter((g) => g.startsWith(`${CHANGED.tuningSystem} × `) || !g.includes(" × "));

describe("incremental build", () => {
  it("leaves files out to fit, and keeps them beside the tree for a later fit", () => {
    expect(first.manifest.published.leftOut.files).toBeGreaterThan(0);
    expect(existsSync(join(cacheOf(join(dir, "build")), "state.json"))).toBe(true);
    expect(existsSync(join(dir, "build", "state.json"))).toBe(false);
  });

  it("over an unchanged build renders nothing and writes the same tree", () => {
    expect(first.groups).toEqual({ rendered: groups.size, kept: 0 });
    expect(unchanged.groups).toEqual({ rendered: 0, kept: groups.size });
    expect(unchangedDigests).toEqual(firstDigests);
  });

  it("after one tuning system changed renders its groups and the shared ones, and keeps the others", () => {
    expect(changedGroups.length).toBeGreaterThan(1);
    expect(incremental.groups).toEqual({ rendered: changedGroups.length, kept: groups.size - changedGroups.length });
  });

  it("writes the same tree as a clean build of the changed facts, every file the same SHA-256", () => {
    const diff = compareTrees(join(dir, "clean"), join(dir, "build"));
    expect(diff).toEqual({ onlyBefore: [], onlyAfter: [], differing: [], compared: diff.compared });
    expect(diff.compared).toBeGreaterThan(clean.manifest.files);
    expect(incremental.manifest).toEqual(clean.manifest);
  });

  it("changed what the changed tuning system's files say", () => {
    expect(incremental.manifest.digest).not.toBe(first.manifest.digest);
    const after = treeDigests(join(dir, "build"));
    const differing = [...after].filter(([file, digest]) => firstDigests.has(file) && firstDigests.get(file) !== digest).map(([file]) => file);
    expect(differing.some((f) => f.includes(`tuningSystem=${CHANGED.tuningSystem}`) || f.includes(`/${CHANGED.tuningSystem}/`))).toBe(true);
    expect(differing.filter((f) => f.startsWith("api/") && f.includes("tuningSystem=alkindi_874"))).toEqual([]);
  });
});
