import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheOf, keepOrWrite } from "../scripts/buildCache.js";

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
