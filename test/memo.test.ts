import { describe, it, expect } from "vitest";
import { boundedMemo, recentMemo } from "../src/theory/memo.js";

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

describe("boundedMemo with a byte limit", () => {
  it("evicts the least recently used until the bytes fit, keeping the newest entry even when it alone is over", () => {
    const memo = boundedMemo<number>(10, 100);
    let calls = 0;
    const get = (k: string, bytes: number) =>
      memo(
        k,
        () => (++calls, bytes),
        (v) => v,
      );
    get("a", 40);
    get("b", 40);
    get("a", 40); // a is now the most recent
    get("c", 40); // 120 bytes: evicts b
    expect(calls).toBe(3);
    get("a", 40);
    expect(calls).toBe(3);
    get("b", 40); // recomputed; evicts c
    expect(calls).toBe(4);
    get("huge", 500); // over the limit alone: everything else goes, it stays
    get("huge", 500);
    expect(calls).toBe(5);
    get("a", 40);
    expect(calls).toBe(6);
  });
});

describe("recentMemo", () => {
  it("keeps the values of the last objects computed, by identity, and computes again for an argument that does not fit", () => {
    const memo = recentMemo<object, { n: number; tag: string }>(2);
    let calls = 0;
    const get = (key: object, tag = "x") =>
      memo(
        key,
        () => ({ n: ++calls, tag }),
        (v) => v.tag === tag,
      ).n;
    const [a, b, c] = [{}, {}, {}];
    expect(get(a)).toBe(1);
    expect(get({})).toBe(2); // an equal object is another key
    expect(get(a)).toBe(1);
    expect(get(b)).toBe(3); // evicts the oldest computed, the first {}
    expect(get(c)).toBe(4); // evicts a
    expect(get(a)).toBe(5);
    expect(get(a, "y")).toBe(6); // the kept value was computed for "x"
    expect(get(a, "y")).toBe(6);
  });
});
