import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { forEachKnown, knownSizes, NOTHING_KEPT, type Kept } from "../scripts/buildCache.js";
import type { Rendered } from "../scripts/buildWorker.js";
import { writtenDigest, writtenInFileOrder, type Planned } from "../scripts/manifest.js";

const plannedOf = (file: string): Planned => ({ request: `/${file}`, file, route: "r", query: "", valueClass: "base", group: "g" });
const result = (index: number, bytes: number, more: Partial<Rendered> = {}): Rendered => ({
  index,
  status: 200,
  bytes,
  hash: `h${index}`,
  encoded: {},
  ...more,
});

describe("the files a build knows it wrote (forEachKnown)", () => {
  const planned = ["maqamat/a.json", "maqamat/b.json", "ajnas/c.json", "ajnas/d.json"].map(plannedOf);

  it("names each file once: answers with their siblings, the last result of a request, a picture drawn again as drawn", () => {
    const results = [
      result(0, 10, { encoded: { gzip: 4 }, picture: 70 }),
      result(1, 11),
      result(2, 0, { status: 404 }),
      // A request answered twice: the last answer counts, and its picture is the last one drawn.
      result(1, 12, { picture: 80 }),
      result(3, 13),
    ];
    const kept: Kept = {
      ...NOTHING_KEPT,
      groups: new Map([
        [
          "g",
          {
            hash: "x",
            results: [],
            pictures: [
              ["maqamat/a.svg", 60],
              ["ajnas/d.svg", 90],
            ],
          },
        ],
      ]),
    };
    const told: [string, number, number][] = [];
    forEachKnown(planned, results, kept, (path, bytes, index) => told.push([path, bytes, index]));
    expect(told).toEqual([
      ["api/maqamat/a.json", 10, 0],
      ["api/maqamat/a.json.gz", 4, 0],
      ["api/maqamat/b.json", 12, 1],
      ["api/ajnas/d.json", 13, 3],
      ["pictures/ajnas/d.svg", 90, -1],
      ["pictures/maqamat/a.svg", 70, 0],
      ["pictures/maqamat/b.svg", 80, 1],
    ]);
    // The Maps of a listed fit hold the same files and sizes.
    const { sizes, orders } = knownSizes(planned, results, kept);
    expect([...sizes].sort()).toEqual(told.map(([path, bytes]) => [path, bytes]).sort());
    expect(orders.get("pictures/ajnas/d.svg")).toBeUndefined();
    expect(orders.get("pictures/maqamat/b.svg")).toBe(1);
  });
});

describe("the answers' digest (writtenDigest)", () => {
  it("is the SHA-256 of the `file<TAB>hash` lines in file order, over more lines than it hashes at once", () => {
    const n = 10_000;
    const planned = Array.from({ length: n }, (_, i) => plannedOf(`tuning-systems/t${(i * 7919) % n}.json`));
    const results = planned.map((_, i) => result(i, i, i === 5 ? { status: 404 } : {}));
    const written = writtenInFileOrder(planned, results);
    expect(written).toHaveLength(n - 1);
    const lines = planned
      .map((p, i) => [p.file, `h${i}`] as const)
      .filter((_, i) => i !== 5)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([file, hash]) => `${file}\t${hash}\n`);
    expect(writtenDigest(planned, written)).toBe(createHash("sha256").update(lines.join("")).digest("hex"));
  });
});
