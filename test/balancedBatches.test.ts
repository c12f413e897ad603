import { describe, expect, it } from "vitest";
import type { Job } from "../scripts/buildWorker.js";
import { balancedBatches, PACKED_JOBS } from "../scripts/renderSlice.js";

const batch = (group: string, from: number, count: number): Job[] =>
  Array.from({ length: count }, (_, i): Job => [from + i, `/${group}/${i}`, `${group}/${i}.json`, undefined]);

describe("balancedBatches", () => {
  it("cuts a stage of one large group into runs for every worker, in order", () => {
    const one = batch("ronzevalle_1904 × ushayran", 0, 7862);
    const out = balancedBatches([one], 2);
    expect(out).toHaveLength(4);
    expect(out.map((b) => b.length)).toEqual([1966, 1966, 1966, 1964]);
    // The runs are consecutive: put back together they are the group's jobs in plan order.
    expect(out.flat().map((j) => j[0])).toEqual(one.map((j) => j[0]));
    // The same job records, not copies: a rendering in value order marks them in place.
    expect(out[0][0]).toBe(one[0]);
  });

  it("keeps every job once, none longer than a (2 × workers)-th of the stage, largest first", () => {
    const batches = [batch("a", 0, 31000), batch("b", 31000, 300), batch("c", 31300, 147), batch("d", 31447, 1)];
    const out = balancedBatches(batches, 2);
    const longest = Math.ceil(31448 / 4);
    expect(Math.max(...out.map((b) => b.length))).toBeLessThanOrEqual(longest);
    expect(
      out
        .flat()
        .map((j) => j[0])
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: 31448 }, (_, i) => i));
    expect(out.map((b) => b.length)).toEqual([...out.map((b) => b.length)].sort((x, y) => y - x));
    // Small groups stay whole.
    expect(out.filter((b) => b[0][1].startsWith("/b/"))).toHaveLength(1);
  });

  it("packs consecutive small groups together, in order, within the stage's bound", () => {
    // 30 groups of 5: a (2 × 2)-th of the stage is 38 jobs, so packs of 7 groups (35 jobs) and the 2 left.
    const batches = Array.from({ length: 30 }, (_, i) => batch(`g${i}`, i * 5, 5));
    const out = balancedBatches(batches, 2);
    expect(out.map((b) => b.length)).toEqual([35, 35, 35, 35, 10]);
    expect(out.flat().map((j) => j[0])).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect(out[0][0]).toBe(batches[0][0]);
    expect(balancedBatches([], 2)).toEqual([]);
  });

  it("packs the availability groups of one entity (two requests per idName) into batches of at most PACKED_JOBS, never splitting a group", () => {
    // A large stage (the bound is far above PACKED_JOBS): 100 idNames of one entity, then a group too large to pack, then 3 more idNames.
    const idNames = Array.from({ length: 100 }, (_, i) => batch(`maqamat/maqam_x_${i}`, i * 2, 2));
    const large = batch("ts × note", 200, 5000);
    const after = Array.from({ length: 3 }, (_, i) => batch(`maqamat/maqam_y_${i}`, 5200 + i * 2, 2));
    const out = balancedBatches([...idNames, large, ...after], 2);
    expect(out.map((b) => b.length)).toEqual([1250, 1250, 1250, 1250, PACKED_JOBS, PACKED_JOBS, PACKED_JOBS, 8, 6]);
    const packs = out.filter((b) => b.length <= PACKED_JOBS);
    // Consecutive only: the large group ends a pack, and each group's two requests stay in one batch.
    expect(packs.map((b) => b.map((j) => j[0]))).toEqual([
      Array.from({ length: 64 }, (_, i) => i),
      Array.from({ length: 64 }, (_, i) => 64 + i),
      Array.from({ length: 64 }, (_, i) => 128 + i),
      Array.from({ length: 8 }, (_, i) => 192 + i),
      Array.from({ length: 6 }, (_, i) => 5200 + i),
    ]);
  });
});
