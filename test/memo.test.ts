import { describe, it, expect } from "vitest";
import { boundedMemo } from "../src/theory/memo.js";

describe("boundedMemo", () => {
  it("computes once per key and evicts the least recently used past the limit", () => {
    const memo = boundedMemo<number>(2);
    let calls = 0;
    const get = (k: string) => memo(k, () => ++calls);
    expect(get("a")).toBe(1);
    expect(get("b")).toBe(2);
    expect(get("a")).toBe(1); // a is now the most recent
    expect(get("c")).toBe(3); // evicts b
    expect(get("a")).toBe(1);
    expect(get("b")).toBe(4); // recomputed
    expect(calls).toBe(4);
  });
});
