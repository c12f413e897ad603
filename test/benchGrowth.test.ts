import { describe, expect, it } from "vitest";
import { bracketGrowth } from "../scripts/bench-growth.js";
import type { BuildRun } from "../scripts/benchBuild.js";

const run = (seconds: number, maxRssBytes: number): BuildRun => ({
  what: "b",
  wallSeconds: seconds + 1,
  seconds,
  maxRssBytes,
  loadBefore: "0.1 / 0.1 / 0.1",
  availableBefore: 20e9,
  said: "",
});

describe("growth measured in an A-B-A bracket", () => {
  it("sets the doubled build against the mean of today's before and after it", () => {
    const growth = bracketGrowth(run(200, 1.6e9), run(420, 3.0e9), run(220, 1.4e9));
    expect(growth.time).toBeCloseTo(2, 10);
    expect(growth.memory).toBeCloseTo(2, 10);
    expect(growth.spread).toBeCloseTo(20 / 210, 10);
  });

  it("finds a machine that slowed over the runs no faster than linear, where the first today alone would not", () => {
    // Every build 10 % slower than the one before it, the doubled one exactly twice the work.
    const growth = bracketGrowth(run(100, 1e9), run(220, 2e9), run(121, 1e9));
    expect(220 / 100).toBeGreaterThan(2);
    expect(growth.time).toBeLessThanOrEqual(2);
  });
});
