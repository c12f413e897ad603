/**
 * log2 and exp2 of src/theory/portableMath.ts: correctly rounded (values computed with 60-digit
 * decimal arithmetic), exact where the result is representable, and within an ulp of the
 * engine's own functions everywhere.
 */
import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { log2, exp2 } from "../src/theory/portableMath.js";

/** Distance in units of the last place between two doubles of the same sign. */
function ulpsApart(a: number, b: number): number {
  const view = new DataView(new ArrayBuffer(16));
  view.setFloat64(0, a);
  view.setFloat64(8, b);
  return Number(view.getBigInt64(0) - view.getBigInt64(8));
}

describe("log2", () => {
  it.each([
    [4 / 3, 0.41503749927884376],
    [1.5, 0.5849625007211562],
    [1.125, 0.16992500144231237],
    [1.0125, 0.017921907997262315],
    [97.99899999999998 / 440, -2.1666645908625295],
    [1e-300, -996.5784284662087],
    [12345.678, 13.59171844813855],
  ])("log2(%d) = %d, the correctly rounded value", (x, want) => {
    expect(log2(x)).toBe(want);
  });

  it("is exact on powers of two and refuses what has no logarithm", () => {
    for (let k = -1000; k <= 1000; k += 7) expect(log2(2 ** k)).toBe(k);
    expect(log2(0)).toBe(-Infinity);
    expect(log2(-1)).toBeNaN();
    expect(log2(Infinity)).toBe(Infinity);
  });

  it("stays within one unit in the last place of Math.log2", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-10, max: 1e10, noNaN: true }), (x) => Math.abs(ulpsApart(log2(x), Math.log2(x))) <= 1),
      { numRuns: 20_000 },
    );
  });
});

describe("exp2", () => {
  it.each([
    [0.5, 1.4142135623730951],
    [-1.3333333333333333, 0.3968502629920499],
    [0.1, 1.0717734625362931],
    [1.4142135623730951, 2.665144142690225],
  ])("exp2(%d) = %d, the correctly rounded value", (y, want) => {
    expect(exp2(y)).toBe(want);
  });

  it("is exact on integers and saturates outside the normal range", () => {
    for (let k = -1022; k <= 1023; k += 5) expect(exp2(k)).toBe(2 ** k);
    expect(exp2(1024)).toBe(Infinity);
    expect(exp2(-1100)).toBe(0);
    expect(exp2(NaN)).toBeNaN();
  });

  it("stays within one unit in the last place of Math.pow(2, y) and inverts log2", () => {
    fc.assert(
      fc.property(fc.double({ min: -60, max: 60, noNaN: true }), (y) => {
        const v = exp2(y);
        return Math.abs(ulpsApart(v, 2 ** y)) <= 1 && Math.abs(log2(v) - y) <= 1e-13 * Math.max(1, Math.abs(y));
      }),
      { numRuns: 20_000 },
    );
  });
});
