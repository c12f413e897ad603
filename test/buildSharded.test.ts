import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildShard, mergeSlices, type BuildOptions } from "../scripts/build.js";
import { compareTrees } from "../scripts/compare-builds.js";
import { shardOf } from "../scripts/renderSlice.js";
import { buildSample, sampleRequests, SAMPLE_BASE_URL } from "./support/buildSample.js";

const SHARDS = 2;
let dir: string;
let whole: Awaited<ReturnType<typeof buildSample>>;
let slices: string[];
let rendered: number[];
const options = (outDir: string): BuildOptions => ({ outDir, baseUrl: SAMPLE_BASE_URL, requests: sampleRequests(), workers: 1, encodings: ["gzip", "br"] });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "maqam-shards-"));
  whole = await buildSample();
  slices = Array.from({ length: SHARDS }, (_, i) => join(dir, `slice-${i}`));
  rendered = [];
  for (const [index, slice] of slices.entries()) rendered.push((await buildShard(options(slice), { index, count: SHARDS })).rendered);
  await mergeSlices(options(join(dir, "merged")), slices);
}, 400_000);
afterAll(() => {
  for (const d of [dir, whole?.dir]) if (d) rmSync(d, { recursive: true, force: true });
});

describe("sharded build", () => {
  it("renders each request in exactly one slice, every slice some", () => {
    expect(rendered.reduce((a, b) => a + b, 0)).toBe(whole.manifest.files + whole.manifest.skipped.count);
    for (const n of rendered) expect(n).toBeGreaterThan(0);
    for (const slice of slices) expect(readdirSync(slice).sort()).toEqual(["api", `shard-${slices.indexOf(slice)}.json`]);
  });

  it("merges into the same tree as one build, every file the same SHA-256", () => {
    const diff = compareTrees(whole.outDir, join(dir, "merged"));
    expect(diff).toEqual({ onlyBefore: [], onlyAfter: [], differing: [], compared: diff.compared });
    expect(diff.compared).toBeGreaterThan(whole.manifest.files);
  });

  it("refuses to merge a missing slice, or slices of another plan", async () => {
    await expect(mergeSlices(options(join(dir, "short")), slices.slice(1))).rejects.toThrow(/expected the slices 0\/2 … 1\/2 once each/);
    const other = { ...options(join(dir, "other")), requests: sampleRequests().slice(1) };
    await expect(mergeSlices(other, slices)).rejects.toThrow(/rendered from another plan/);
  });

  it("reads BUILD_SHARD as i/n", () => {
    expect(shardOf(undefined)).toEqual({ index: 0, count: 1 });
    expect(shardOf("2/3")).toEqual({ index: 2, count: 3 });
    for (const bad of ["3/3", "1", "-1/2", "0/0", "a/b"]) expect(() => shardOf(bad)).toThrow(/BUILD_SHARD must be i\/n/);
  });
});
