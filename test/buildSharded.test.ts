import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build, type BuildOptions, type Built } from "../scripts/build.js";
import { buildShard, mergeSlices } from "../scripts/buildShards.js";
import { compareTrees } from "../scripts/compare-builds.js";
import { ShardError, shardOf } from "../scripts/slicePlan.js";
import { smallRequests, SAMPLE_BASE_URL } from "./support/buildSample.js";

const SHARDS = 2;
// A plan listed without computing, the same for every slice, the merge and the build on one machine.
const requests = smallRequests();
let dir: string;
let whole: Built & { outDir: string };
let slices: string[];
let rendered: number[];
const options = (outDir: string): BuildOptions => ({ outDir, baseUrl: SAMPLE_BASE_URL, requests, workers: 1, encodings: ["gzip", "br"] });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "maqam-shards-"));
  const outDir = join(dir, "whole");
  whole = { ...(await build(options(outDir))), outDir };
  slices = Array.from({ length: SHARDS }, (_, i) => join(dir, `slice-${i}`));
  rendered = [];
  for (const [index, slice] of slices.entries()) rendered.push((await buildShard(options(slice), { index, count: SHARDS })).rendered);
  await mergeSlices(options(join(dir, "merged")), slices);
}, 400_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("sharded build", () => {
  it("renders each request in exactly one slice, every slice some", () => {
    expect(rendered.reduce((a, b) => a + b, 0)).toBe(whole.manifest.files + whole.manifest.skipped.count);
    for (const n of rendered) expect(n).toBeGreaterThan(0);
    // The slices' workers draw the pictures of the realisations they render (the plan has some per tuning system).
    for (const slice of slices) expect(readdirSync(slice).sort()).toEqual(["api", "pictures", `shard-${slices.indexOf(slice)}.json`]);
  });

  it("merges into the same tree as one build, every file the same SHA-256", () => {
    const diff = compareTrees(whole.outDir, join(dir, "merged"));
    expect(diff).toEqual({ onlyBefore: [], onlyAfter: [], differing: [], compared: diff.compared });
    expect(diff.compared).toBeGreaterThan(whole.manifest.files);
  });

  it("merges into the same tree and manifest as one build that the host's limits stop", async () => {
    // A limit the sample's answers pass: the one build stops before its last classes or its pictures, the slices render all.
    const limits = { tarBytes: Math.round(whole.published.tarBytes * 1.05) };
    const limited = (outDir: string): BuildOptions => ({ ...options(outDir), limits });
    const one = await build(limited(join(dir, "limited-one")));
    const { notRendered } = one.manifest.published;
    expect(notRendered.requests + notRendered.pictures).toBeGreaterThan(0);
    const parts = Array.from({ length: SHARDS }, (_, i) => join(dir, `limited-slice-${i}`));
    for (const [index, slice] of parts.entries()) await buildShard(limited(slice), { index, count: SHARDS });
    const merged = await mergeSlices(limited(join(dir, "limited-merged")), parts);
    expect(merged.manifest.published.notRendered).toEqual(notRendered);
    const diff = compareTrees(join(dir, "limited-one"), join(dir, "limited-merged"));
    expect(diff).toEqual({ onlyBefore: [], onlyAfter: [], differing: [], compared: diff.compared });
  }, 400_000);

  it("refuses to merge a missing slice, or slices of another plan", async () => {
    await expect(mergeSlices(options(join(dir, "short")), slices.slice(1))).rejects.toThrow(/expected the slices 0\/2 … 1\/2 once each/);
    const other = { ...options(join(dir, "other")), requests: requests.slice(1) };
    await expect(mergeSlices(other, slices)).rejects.toThrow(/rendered from another plan/);
  });

  it("says on one line, without a stack, why slices cannot be merged", async () => {
    const merge = promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/build.ts", "--merge", slices[1]], {
      cwd: resolve(import.meta.dirname, ".."),
      env: { ...process.env, BUILD_DIR: join(dir, "refused") },
    });
    const { code, stderr } = await merge.then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(code).toBe(1);
    expect(stderr.split("\n").filter((l) => l && !l.startsWith("npm warn"))).toEqual(["build: merge: expected the slices 0/2 … 1/2 once each, got 1/2"]);
    // The build's command line prints every ShardError so, as it does facts it refuses.
    await expect(mergeSlices(options(join(dir, "refused")), [join(dir, "nowhere")])).rejects.toThrow(ShardError);
    await expect(mergeSlices(options(join(dir, "refused")), [join(dir, "nowhere")])).rejects.toThrow(/nowhere is not a slice directory \(it holds no api\/\)$/);
    expect(() => shardOf("2/2")).toThrow(ShardError);
  }, 300_000);

  it("reads BUILD_SHARD as i/n", () => {
    expect(shardOf(undefined)).toEqual({ index: 0, count: 1 });
    expect(shardOf("2/3")).toEqual({ index: 2, count: 3 });
    for (const bad of ["3/3", "1", "-1/2", "0/0", "a/b"]) expect(() => shardOf(bad)).toThrow(/BUILD_SHARD must be i\/n/);
  });
});
