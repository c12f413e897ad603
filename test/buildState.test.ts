/**
 * The groups' state as lines (scripts/buildState.ts) through writeState and readState
 * (scripts/buildCache.ts): read back as written, a group taken over unchanged written again as the
 * very line it was read from, a file of another format, cut short or changed not trusted, and a
 * spare whose state does not read leaves nothing of its answers and pictures behind.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheOf, type Kept, NOTHING_KEPT, readState, reuseSpare, spareStateOf, writeState } from "../scripts/buildCache.js";
import { groupOf } from "../scripts/buildState.js";
import type { Rendered } from "../scripts/buildWorker.js";
import type { Planned } from "../scripts/manifest.js";
import { spareOf } from "../scripts/swap.js";

let dir: string;
let tree: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "maqam-build-state-"));
  tree = join(dir, "build");
  mkdirSync(tree, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const planned: Planned[] = ["ts_a", "ts_b"].map((ts) => ({
  request: `/maqamat/x?startingNote=n&tuningSystem=${ts}`,
  file: `maqamat/x/@startingNote=n&tuningSystem=${ts}.json`,
  route: "GET /maqamat/{idName}",
  query: "startingNote&tuningSystem",
  valueClass: "base",
  group: `${ts} × n`,
}));
const rendered = (index: number, bytes: number, picture?: number): Rendered => ({
  index,
  status: 200,
  bytes,
  hash: `etag-${index}-${bytes}`,
  encoded: { gzip: bytes - 1 },
  ...(picture === undefined ? {} : { picture }),
});
const MANIFEST = '{"files":2}\n';
/** The state of `tree` written as the finishing writes it, with its manifest. */
const finish = (results: Rendered[], hashes: Map<string, string>, kept: Kept = NOTHING_KEPT, leftOut: string[] = []) => {
  writeFileSync(join(tree, "manifest.json"), MANIFEST);
  writeState(cacheOf(tree), MANIFEST, planned, results, hashes, kept, leftOut);
  return readFileSync(join(cacheOf(tree), "state.json"), "utf8");
};
/** The groups' lines, after the head and the files left out. */
const linesOf = (text: string) => text.split("\n").slice(2, -1);

describe("the groups' state as lines", () => {
  it("reads back what was written: the manifest's SHA-256, the files the fit left out, each group's hash, results and pictures", () => {
    const leftOut = [`api/${planned[1].file}.gz`, "pictures/maqamat/x/@startingNote=n&tuningSystem=ts_a.svg"];
    const text = finish(
      [rendered(0, 10, 4), rendered(1, 20)],
      new Map([
        ["ts_a × n", "h1"],
        ["ts_b × n", "h2"],
      ]),
      NOTHING_KEPT,
      leftOut,
    );
    const head = JSON.parse(text.split("\n")[0]);
    expect(head).toMatchObject({ manifest: createHash("sha256").update(MANIFEST).digest("hex"), format: "state lines 2", groups: 2 });
    expect(linesOf(text)[0].split("\t").slice(0, 2)).toEqual(["h1", "ts_a × n"]);
    const state = readState(tree);
    expect([...(state?.leftOut ?? [])]).toEqual(leftOut);
    expect([...(state?.groups.keys() ?? [])]).toEqual(["ts_a × n", "ts_b × n"]);
    const a = state?.groups.get("ts_a × n");
    expect(a && groupOf(a)).toEqual({
      hash: "h1",
      results: [[planned[0].request, 200, 10, "etag-0-10", { gzip: 9 }]],
      pictures: [["maqamat/x/@startingNote=n&tuningSystem=ts_a.svg", 4]],
    });
  });

  it("writes a group taken over unchanged as the line it was read from, and one added to anew", () => {
    const hashes = new Map([
      ["ts_a × n", "h1"],
      ["ts_b × n", "h2"],
    ]);
    const first = finish([rendered(0, 10), rendered(1, 20)], hashes);
    // Both groups taken over; a picture drawn now for ts_b's answer.
    const state = readState(tree);
    const groups = new Map([...(state?.groups ?? [])].map(([name, stored]) => [name, groupOf(stored)]));
    const taken = [rendered(0, 10), rendered(1, 20)];
    const kept: Kept = { results: [...taken], groups, pictures: { files: 0, bytes: 0 }, cached: new Set() };
    // The rendering sets the picture on the result taken over.
    taken[1].picture = 7;
    const second = finish(taken, hashes, kept);
    expect(linesOf(second)[0]).toBe(linesOf(first)[0]);
    expect(linesOf(second)[1]).not.toBe(linesOf(first)[1]);
    const b = readState(tree)?.groups.get("ts_b × n");
    expect(b && groupOf(b)).toEqual({
      hash: "h2",
      results: [[planned[1].request, 200, 20, "etag-1-20", { gzip: 19 }]],
      pictures: [["maqamat/x/@startingNote=n&tuningSystem=ts_b.svg", 7]],
    });
    // The taken group's objects were not changed by the picture added to its copy.
    expect(groups.get("ts_b × n")?.pictures).toEqual([]);
  });

  it("gives no state for a file of another format, cut short, or changed since written", () => {
    const text = finish(
      [rendered(0, 10), rendered(1, 20)],
      new Map([
        ["ts_a × n", "h1"],
        ["ts_b × n", "h2"],
      ]),
    );
    const file = join(cacheOf(tree), "state.json");
    expect(readState(tree)).toBeDefined();
    writeFileSync(file, text.slice(0, text.lastIndexOf("\n", text.length - 2) + 1));
    expect(readState(tree)).toBeUndefined();
    writeFileSync(file, text.replace("etag-0-10", "etag-0-11"));
    expect(readState(tree)).toBeUndefined();
    // The files left out are checked with the groups: a file named or dropped since would be looked for in the wrong place.
    writeFileSync(file, text.replace("\n[]\n", '\n["api/maqamat/x/a.json"]\n'));
    expect(readState(tree)).toBeUndefined();
    const head = JSON.parse(text.split("\n")[0]);
    writeFileSync(file, JSON.stringify({ manifest: head.manifest, groups: {} }));
    expect(readState(tree)).toBeUndefined();
  });

  it("keeps nothing of a spare whose state does not read, but the datasets written since", () => {
    const spare = spareOf(tree);
    for (const path of ["api/maqamat/x/a.json", "pictures/maqamat/x/a.svg", "manifest.json"]) {
      mkdirSync(join(spare, path, ".."), { recursive: true });
      writeFileSync(join(spare, path), path === "manifest.json" ? MANIFEST : "spare");
    }
    // Its manifest's, but of another format.
    writeFileSync(spareStateOf(tree), JSON.stringify({ manifest: createHash("sha256").update(MANIFEST).digest("hex"), groups: {} }));
    const partial = join(dir, "build.partial");
    const takeSpare = reuseSpare(tree, partial, join(dir, "build.cache.partial"));
    expect(existsSync(join(partial, "api/maqamat/x/a.json"))).toBe(true);
    mkdirSync(join(partial, "api", "datasets"), { recursive: true });
    writeFileSync(join(partial, "api", "datasets", "a.csv"), "written now");
    expect(takeSpare()).toBeUndefined();
    expect(existsSync(join(partial, "api/maqamat"))).toBe(false);
    expect(existsSync(join(partial, "pictures"))).toBe(false);
    expect(readFileSync(join(partial, "api", "datasets", "a.csv"), "utf8")).toBe("written now");
  });
});
