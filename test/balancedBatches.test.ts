import { describe, expect, it } from "vitest";
import type { Job } from "../scripts/buildWorker.js";
import { balancedBatches } from "../scripts/renderSlice.js";

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

  it("leaves a stage of many small groups as it is", () => {
    const batches = Array.from({ length: 30 }, (_, i) => batch(`g${i}`, i * 5, 5));
    expect(balancedBatches(batches, 2).map((b) => b.length)).toEqual(Array(30).fill(5));
    expect(balancedBatches([], 2)).toEqual([]);
  });
});
