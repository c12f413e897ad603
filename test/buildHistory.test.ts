import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type BuildOptions, type Built } from "../scripts/build.js";
import { cacheOf } from "../scripts/buildCache.js";
import { compareTrees, treeDigests } from "../scripts/compare-builds.js";
import { removeBuilds, smallRequests, SAMPLE_BASE_URL } from "./support/buildSample.js";

const requests = smallRequests();
let dir: string;
let wide: Built;
let over: Built;
let clean: Built;
let again: Built;
let overFiles: Map<string, string>;
let overCache: string[];
const options = (outDir: string, limits: BuildOptions["limits"] = {}): BuildOptions => ({
  outDir,
  baseUrl: SAMPLE_BASE_URL,
  requests,
  workers: 1,
  encodings: ["gzip"],
  profile: "github-pages",
  limits,
});

/** The files a build's cache holds besides its state and plan: those its fit left out. */
const cachedFiles = (tree: string) => [...treeDigests(cacheOf(tree)).keys()].filter((f) => f !== "state.json" && f !== "plan.json").sort();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "maqam-history-"));
  // A host without limits: every answer and picture rendered.
  wide = await build(options(join(dir, "build")));
  // Over it, the same facts for a host whose limit stops the rendering: every group is unchanged and taken over.
  const limits = { tarBytes: Math.round(wide.published.tarBytes * 1.05) };
  over = await build(options(join(dir, "build"), limits));
  overFiles = treeDigests(join(dir, "build"));
  overCache = cachedFiles(join(dir, "build"));
  clean = await build(options(join(dir, "clean"), limits));
  // And once more over it: what was dropped is not taken over again.
  again = await build(options(join(dir, "build"), limits));
}, 600_000);
afterAll(() => removeBuilds(dir, ["build", "clean"]), 150_000);

describe("an incremental build over a build that rendered more", () => {
  it("takes every group over, yet stops where a clean build stops", () => {
    expect(over.groups?.rendered).toBe(0);
    const { notRendered } = clean.manifest.published;
    expect(notRendered.requests + notRendered.pictures).toBeGreaterThan(0);
    expect(wide.manifest.published.notRendered).toEqual({ requests: 0, byClass: {}, pictures: 0 });
  });

  it("publishes the clean build's tree and manifest, file for file, and again over itself", () => {
    expect(over.manifest).toEqual(clean.manifest);
    expect(overFiles).toEqual(treeDigests(join(dir, "clean")));
    expect(again.groups?.rendered).toBe(0);
    expect(again.manifest).toEqual(clean.manifest);
    const diff = compareTrees(join(dir, "clean"), join(dir, "build"));
    expect(diff).toEqual({ onlyBefore: [], onlyAfter: [], differing: [], compared: diff.compared });
  });

  it("keeps in its cache only what the clean build keeps there", () => {
    expect(overCache).toEqual(cachedFiles(join(dir, "clean")));
    expect(overCache.length).toBeGreaterThan(0);
  });
});
