import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { cacheOf, keepUnchanged } from "../scripts/buildCache.js";
import type { BuildState } from "../scripts/buildState.js";
import { removeEmptyFolders, removeFilesApart } from "../scripts/swap.js";
import { keepOrWrite } from "../scripts/keptStep.js";
import type { Planned } from "../scripts/manifest.js";
import { batchesOf, WHOLE } from "../scripts/slicePlan.js";

let dir: string;
let previous: string;
let partial: string;
let writes: number;
/** A finishing step that writes two files below api/datasets (as writeDatasets does), counting its runs. */
const write = async () => {
  writes++;
  mkdirSync(join(partial, "api", "datasets"), { recursive: true });
  writeFileSync(join(partial, "api", "datasets", "a.csv"), "new a\n");
  writeFileSync(join(partial, "api", "datasets", "b.csv"), "new b\n");
};
const FILES = ["api/datasets/a.csv", "api/datasets/b.csv"];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "maqam-build-cache-"));
  previous = join(dir, "build");
  partial = join(dir, "build.partial");
  // The previous build: a.csv in its tree, b.csv left out by its fit (in its cache).
  mkdirSync(join(previous, "api", "datasets"), { recursive: true });
  mkdirSync(join(cacheOf(previous), "api", "datasets"), { recursive: true });
  writeFileSync(join(previous, "api", "datasets", "a.csv"), "old a\n");
  writeFileSync(join(cacheOf(previous), "api", "datasets", "b.csv"), "old b\n");
  mkdirSync(join(partial, "api"), { recursive: true });
  writes = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("a finishing step over a previous build (keepOrWrite)", () => {
  it("with the same hash takes the files over from the previous tree and its cache, without writing", async () => {
    const state = await keepOrWrite(partial, "api/datasets", previous, { hash: "h", files: FILES }, "h", write);
    expect(writes).toBe(0);
    expect(state).toEqual({ hash: "h", files: FILES });
    expect(readFileSync(join(partial, "api/datasets/a.csv"), "utf8")).toBe("old a\n");
    expect(readFileSync(join(partial, "api/datasets/b.csv"), "utf8")).toBe("old b\n");
    expect(statSync(join(partial, "api/datasets/a.csv")).ino).toBe(statSync(join(previous, "api/datasets/a.csv")).ino);
  });

  it("with another hash writes, and records what it wrote", async () => {
    const state = await keepOrWrite(partial, "api/datasets", previous, { hash: "h", files: FILES }, "other", write);
    expect(writes).toBe(1);
    expect({ ...state, files: [...state.files].sort() }).toEqual({ hash: "other", files: FILES });
    expect(readFileSync(join(partial, "api/datasets/a.csv"), "utf8")).toBe("new a\n");
  });

  it("with a file gone writes, without writing through a link into the previous build", async () => {
    rmSync(join(cacheOf(previous), "api", "datasets", "b.csv"));
    await keepOrWrite(partial, "api/datasets", previous, { hash: "h", files: FILES }, "h", write);
    expect(writes).toBe(1);
    expect(readFileSync(join(partial, "api/datasets/a.csv"), "utf8")).toBe("new a\n");
    expect(readFileSync(join(previous, "api/datasets/a.csv"), "utf8")).toBe("old a\n");
  });

  it("records only the files the step wrote, not those already below its folder", async () => {
    mkdirSync(join(partial, "api", "datasets"), { recursive: true });
    writeFileSync(join(partial, "api", "datasets", "index.json"), "{}\n");
    const state = await keepOrWrite(partial, "api/datasets", previous, undefined, "h", write);
    expect([...state.files].sort()).toEqual(FILES);
  });
});

describe("the groups taken over from a spare tree (keepUnchanged)", () => {
  const systems = ["ts_a", "ts_b", "ts_c", "ts_d"];
  const planned: Planned[] = systems.map((ts) => ({
    request: `/maqamat/x?startingNote=n&tuningSystem=${ts}`,
    file: `maqamat/x/@startingNote=n&tuningSystem=${ts}.json`,
    route: "GET /maqamat/{idName}",
    query: "startingNote&tuningSystem",
    valueClass: "base",
    group: `${ts} × n`,
  }));
  const stateOf = (hashes: string[], leftOut: string[] = []): BuildState => ({
    manifest: "m",
    leftOut: new Set(leftOut),
    groups: new Map(
      planned.map((p, i) => [
        `${systems[i]} × n`,
        // The second group's answer has a gzip sibling.
        {
          hash: hashes[i],
          bytes: Buffer.from(JSON.stringify([[[p.request, 200, 5, "h", i === 1 ? { gzip: 4 } : {}]], [[p.file.replace(/json$/, "svg"), 3]]])),
        },
      ]),
    ),
  });
  const put = (tree: string, path: string, text: string) => {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  };
  /** The previous tree and the spare (now the partial tree, the datasets written into it), every group with hash h1 in both. */
  const setUp = () => {
    for (const p of planned)
      for (const [tree, text] of [
        [previous, "previous"],
        [partial, "spare"],
      ]) {
        put(tree, `api/${p.file}`, text);
        put(tree, `pictures/${p.file.replace(/json$/, "svg")}`, text);
      }
    for (const tree of [previous, partial]) put(tree, `api/${planned[1].file}.gz`, tree === previous ? "previous" : "spare");
    put(partial, "api/datasets/a.csv", "written now");
  };
  const run = async (hashes: string[], spareLeftOut: string[] = []) => {
    const trashed: string[] = [];
    const trash = join(dir, "trash");
    const discardTree = (path: string) => {
      if (!existsSync(path)) return;
      mkdirSync(trash, { recursive: true });
      renameSync(path, join(trash, `${trashed.length}-${basename(path)}`));
      trashed.push(path.slice(partial.length + 1));
    };
    const hashMap = new Map(systems.map((ts, i) => [`${ts} × n`, hashes[i]]));
    const h1 = systems.map(() => "h1");
    const taken = keepUnchanged(previous, partial, join(dir, "cache"), batchesOf(planned, WHOLE), hashMap, stateOf(h1), stateOf(h1, spareLeftOut), discardTree);
    // The changed groups' files are left to remove apart, and their folders for after the rendering.
    for (const path of taken.stale) expect(existsSync(join(partial, path)), path).toBe(true);
    await removeFilesApart(partial, taken.stale);
    const folders = removeEmptyFolders(partial, taken.emptied);
    return { ...taken, trashed, folders };
  };

  it("keeps the spare's unchanged groups in place and removes the others' files when most are unchanged", async () => {
    setUp();
    const { kept, batches, fromSpare, trashed, stale, folders } = await run(["h1", "h1", "h1", "h2"]);
    expect(stale).toContain(`api/${planned[3].file}`);
    // Their folders hold the other groups' files: none removed.
    expect(folders).toEqual([]);
    expect(trashed).toEqual([]);
    expect(fromSpare).toBe(3);
    expect([...kept.groups.keys()]).toEqual(["ts_a × n", "ts_b × n", "ts_c × n"]);
    expect(batches.map((b) => b[0][1])).toEqual([planned[3].request]);
    expect(readFileSync(join(partial, "api", planned[0].file), "utf8")).toBe("spare");
    expect(existsSync(join(partial, "api", planned[3].file))).toBe(false);
  });

  it("links from the previous build the files the spare's state names as left out by its fit, without looking for the others", async () => {
    setUp();
    const picture = `pictures/${planned[0].file.replace(/json$/, "svg")}`;
    rmSync(join(partial, picture));
    const { kept, batches, fromSpare } = await run(["h1", "h1", "h1", "h1"], [picture]);
    expect(fromSpare).toBe(4);
    expect(batches).toEqual([]);
    expect(kept.groups.size).toBe(4);
    expect(readFileSync(join(partial, picture), "utf8")).toBe("previous");
    expect(statSync(join(partial, picture)).ino).toBe(statSync(join(previous, picture)).ino);
    expect(readFileSync(join(partial, "api", planned[0].file), "utf8")).toBe("spare");
  });

  it("links an answer or a sibling the spare's state names as left out, and takes each result over with its index in the plan", async () => {
    setUp();
    const leftOut = [`api/${planned[1].file}.gz`, `api/${planned[2].file}`];
    for (const path of leftOut) rmSync(join(partial, path));
    const { kept, batches, fromSpare } = await run(["h1", "h1", "h1", "h1"], leftOut);
    expect(fromSpare).toBe(4);
    expect(batches).toEqual([]);
    for (const path of leftOut) expect(statSync(join(partial, path)).ino).toBe(statSync(join(previous, path)).ino);
    // The others stay as the spare has them.
    expect(readFileSync(join(partial, "api", planned[1].file), "utf8")).toBe("spare");
    expect(readFileSync(join(partial, "api", planned[3].file), "utf8")).toBe("spare");
    expect(kept.results.map((r) => [r.index, r.encoded])).toEqual([
      [0, {}],
      [1, { gzip: 4 }],
      [2, {}],
      [3, {}],
    ]);
  });

  it("hands the spare's answers and pictures away whole when most changed, links the unchanged groups from the previous build, and keeps the datasets", async () => {
    setUp();
    const { kept, batches, fromSpare, trashed } = await run(["h1", "h2", "h2", "h2"]);
    expect(trashed.sort()).toEqual(["api/maqamat", "pictures"]);
    expect(fromSpare).toBe(0);
    expect([...kept.groups.keys()]).toEqual(["ts_a × n"]);
    expect(batches.map((b) => b[0][1]).sort()).toEqual(planned.slice(1).map((p) => p.request));
    expect(readFileSync(join(partial, "api", planned[0].file), "utf8")).toBe("previous");
    expect(readFileSync(join(partial, "pictures", planned[0].file.replace(/json$/, "svg")), "utf8")).toBe("previous");
    expect(existsSync(join(partial, "api", planned[1].file))).toBe(false);
    expect(readFileSync(join(partial, "api", "datasets", "a.csv"), "utf8")).toBe("written now");
  });
});
