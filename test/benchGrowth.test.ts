import { describe, expect, it } from "vitest";
import { bracketGrowth, roomShortfall, roundsGrowth, roundsOrder } from "../scripts/bench-growth.js";
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

  it("sets the doubled build's CPU time (user and system) against the mean of today's, and has none when a build did not report it", () => {
    const withCpu = (r: BuildRun, user: number, system: number): BuildRun => ({ ...r, cpu: { userSeconds: user, systemSeconds: system } });
    const growth = bracketGrowth(withCpu(run(200, 1e9), 250, 50), withCpu(run(420, 2e9), 500, 70), withCpu(run(220, 1e9), 270, 30));
    expect(growth.cpu).toBeCloseTo(570 / 300, 10);
    expect(bracketGrowth(run(200, 1e9), withCpu(run(420, 2e9), 500, 70), run(220, 1e9)).cpu).toBeUndefined();
    expect(roundsGrowth([withCpu(run(200, 1e9), 250, 50), withCpu(run(420, 2e9), 500, 70), run(220, 1e9)]).cpu).toBeUndefined();
  });

  it("finds a machine that slowed over the runs no faster than linear, where the first today alone would not", () => {
    // Every build 10 % slower than the one before it, the doubled one exactly twice the work.
    const growth = bracketGrowth(run(100, 1e9), run(220, 2e9), run(121, 1e9));
    expect(220 / 100).toBeGreaterThan(2);
    expect(growth.time).toBeLessThanOrEqual(2);
  });
});

describe("growth over rounds of brackets", () => {
  it("takes the median of the brackets, each doubled build against today's around it", () => {
    // today 200, doubled 440 (2.2× the mean of 200 and 200), today 200, doubled 380 (1.9×), today 200, doubled 396 (1.98×), today 200.
    const runs = [run(200, 1e9), run(440, 2e9), run(200, 1e9), run(380, 1.8e9), run(200, 1e9), run(396, 2.1e9), run(200, 1e9)];
    const growth = roundsGrowth(runs);
    expect(growth.brackets.map((b) => b.time)).toEqual([2.2, 1.9, 1.98]);
    expect(growth.time).toBeCloseTo(1.98, 10);
    expect(growth.memory).toBeCloseTo(2, 10);
    expect(growth.spread).toBe(0);
  });

  it("with one round is the A-B-A bracket", () => {
    const runs = [run(200, 1.6e9), run(420, 3.0e9), run(220, 1.4e9)];
    expect(roundsGrowth(runs)).toEqual({ ...bracketGrowth(runs[0], runs[1], runs[2]), brackets: [bracketGrowth(runs[0], runs[1], runs[2])] });
  });

  it("averages the middle two of an even number of brackets, and measures the spread over every today", () => {
    const runs = [run(100, 1e9), run(210, 2e9), run(100, 1e9), run(190, 2e9), run(120, 1e9)];
    const growth = roundsGrowth(runs);
    expect(growth.time).toBeCloseTo((2.1 + 190 / 110) / 2, 10);
    expect(growth.spread).toBeCloseTo(20 / (320 / 3), 10);
  });

  it("orders and names the builds of the rounds, today's first and last", () => {
    expect(roundsOrder(1).map((b) => b.label)).toEqual(["today", "doubled", "today, build 2"]);
    expect(roundsOrder(2)).toEqual([
      { doubled: false, label: "today" },
      { doubled: true, label: "doubled" },
      { doubled: false, label: "today, build 2" },
      { doubled: true, label: "doubled, build 2" },
      { doubled: false, label: "today, build 3" },
    ]);
  });

  it("refuses builds that do not alternate from today's to today's", () => {
    expect(() => roundsGrowth([run(1, 1), run(2, 2)])).toThrow(/2 builds/);
    expect(() => roundsGrowth([run(1, 1), run(2, 2), run(1, 1), run(2, 2)])).toThrow(/4 builds/);
  });
});

describe("room on the disk for the next build", () => {
  const GB = 1e9;
  it("asks nothing before the first tree of today's facts, then what the last of its kind took and a twentieth", () => {
    expect(roomShortfall(1 * GB, {}, false)).toBeUndefined();
    expect(roomShortfall(10.5 * GB, { today: 10 * GB }, false)).toBeUndefined();
    expect(roomShortfall(10.4 * GB, { today: 10 * GB }, false)).toBe("needs about 10.5 GB (the last today's tree took 10.0 GB), and 10.4 GB are free");
  });
  it("estimates the first doubled tree as twice today's, then measures it", () => {
    expect(roomShortfall(20 * GB, { today: 10 * GB }, true)).toBe(
      "needs about 21.0 GB (the last doubled tree, estimated as twice today's, took 20.0 GB), and 20.0 GB are free",
    );
    expect(roomShortfall(20 * GB, { today: 10 * GB, doubled: 18 * GB }, true)).toBeUndefined();
    expect(roomShortfall(18 * GB, { today: 10 * GB, doubled: 18 * GB }, true)).toBe(
      "needs about 18.9 GB (the last doubled tree took 18.0 GB), and 18.0 GB are free",
    );
  });
});
