import { describe, expect, it } from "vitest";
import { MEMORY_LIMIT_BYTES, memoryVerdict, TIME_SHARE, timeVerdict } from "../scripts/bench-peer.js";

// Figures of docs/benchmarks.md: 4df318e's build (134.4 s, 1,672.8 MB), the current build with the
// datasets (313.3 s, 1,930.2 MB) and without them (202.3 s, 1,648.4 MB).
describe("the targets of the build against the code of 2026-11-24", () => {
  it("gives the wall time with its ratio to the peer's, in bold when over half of it", () => {
    expect(timeVerdict(313.3, 134.4)).toEqual({ text: "**313.3 s, 2.33×**", missed: true });
    expect(timeVerdict(202.3, 134.4)).toEqual({ text: "**202.3 s, 1.51×**", missed: true });
    expect(timeVerdict(60.5, 134.4)).toEqual({ text: "60.5 s, 0.45×", missed: false });
  });

  it("meets the time target at exactly half the peer's time, not above", () => {
    expect(TIME_SHARE).toBe(0.5);
    expect(timeVerdict(67.2, 134.4).missed).toBe(false);
    expect(timeVerdict(67.3, 134.4).missed).toBe(true);
  });

  it("gives the peak memory in MB, in bold over 1,000 MB", () => {
    expect(memoryVerdict(1_930_200_000)).toEqual({ text: "**1930.2 MB**", missed: true });
    expect(memoryVerdict(1_672_800_000)).toEqual({ text: "**1672.8 MB**", missed: true });
    expect(memoryVerdict(MEMORY_LIMIT_BYTES)).toEqual({ text: "1000.0 MB", missed: false });
    expect(memoryVerdict(812_400_000)).toEqual({ text: "812.4 MB", missed: false });
  });
});
