import { describe, expect, it } from "vitest";
import { percentile } from "../scripts/bench-routes.js";

describe("percentile (nearest rank) of the benchmarks", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it("takes the smallest value with at least p of the values at or below it", () => {
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.95)).toBe(95);
    expect(percentile([1, 2, 3], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
  });

  it("gives the extremes at 0 and 1 and the only value of one", () => {
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile(hundred, 1)).toBe(100);
    expect(percentile([7], 0.95)).toBe(7);
  });
});
