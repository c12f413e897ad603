/**
 * The datasets assembled from kept slices (scripts/datasetSlices.ts) over a small archive (three
 * tuning systems): after one ratio of one tuning system changed, a write reading the previous
 * slices computes that tuning system's alone and writes the bytes a clean write of the changed
 * facts writes — CSV, Parquet, SQLite and the dictionary — which are also those of the tables
 * computed whole (the database coded from the counts kept with the slices as from the whole tables'
 * rows). A kept file that is corrupt, or stands under another slice's name, is not used.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseOf } from "../scripts/datasetDatabase.js";
import { DATABASE_SHARE_OF_SLICES, writeDatasets } from "../scripts/datasets.js";
import { startApart } from "../scripts/datasetsPool.js";
import { readSliceTable, SLICED_TABLES, sliceKeys, slicesBytes, tableRowsOf } from "../scripts/datasetSlices.js";
import { engineDigest } from "../scripts/sliceHash.js";
import { TABLES } from "../src/api/datasets/tables.js";
import { PAGE_SIZE } from "../src/api/datasets/coded.js";
import { cellsOf, csvOf, parquetOf } from "../src/api/datasets/write.js";
import { readFacts } from "../src/data/load.js";
import type { Facts } from "../src/data/facts.js";
import { createCatalog } from "../src/theory/catalog.js";

const facts = readFacts();
const small: Facts = { ...facts, tuningSystems: facts.tuningSystems.slice(0, 3) };
/** al-Kindī's minor third 32/27 (294 cents) made 6/5 (316 cents), below its next ratio 81/64. */
const CHANGED = { tuningSystem: "alkindi_874", ratio: "32/27", to: "6/5" };
const changed: Facts = {
  ...small,
  tuningSystems: small.tuningSystems.map((ts) =>
    ts.id === CHANGED.tuningSystem ? { ...ts, tuningSystemPitchClasses: ts.tuningSystemPitchClasses.map((r) => (r === CHANGED.ratio ? CHANGED.to : r)) } : ts,
  ),
};

const work = mkdtempSync(join(tmpdir(), "maqam-datasets-cache-"));
const engine = engineDigest();
const dir = (name: string) => join(work, name);

/** Every file below an api/ directory's datasets, name → bytes. */
function filesOf(apiDir: string): Map<string, Buffer> {
  const below = join(apiDir, "datasets");
  return new Map(readdirSync(below).map((name) => [name, readFileSync(join(below, name))]));
}

/** A table of the datasets by name. */
const tableNamed = (name: string) => {
  const table = SLICED_TABLES.find((t) => t.name === name);
  if (!table) throw new Error(`no sliced table ${name}`);
  return table;
};

/** Per write, whether the files' and database's threads were given their tasks before it ended: once with two threads, never on one. */
const tasksGiven = new Map<string, boolean[]>();

/** Writes the datasets of `of` into `<name>/api`, slices read from `from` and kept in `into`; returns the slices computed. */
async function write(name: string, of: Facts, slices?: { from?: string; into: string }, threads?: number): Promise<number> {
  let computed = -1;
  let ended = false;
  const given: boolean[] = [];
  tasksGiven.set(name, given);
  await writeDatasets(join(dir(name), "api"), createCatalog(of, "build"), {
    slices,
    engine,
    threads,
    onSlices: (n) => {
      computed = n;
    },
    onTasksGiven: () => given.push(!ended),
  });
  ended = true;
  return computed;
}

let clean: Map<string, Buffer>;

beforeAll(async () => {
  expect(small.tuningSystems.find((ts) => ts.id === CHANGED.tuningSystem)?.tuningSystemPitchClasses).toContain(CHANGED.ratio);
  expect(await write("before", small, { into: dir("cache-before") })).toBe(3);
  // On this thread alone (slices, then the database after the files); the other writes use two threads.
  expect(await write("clean", changed, undefined, 1)).toBe(3);
  clean = filesOf(join(dir("clean"), "api"));
}, 600_000);

describe("datasets from kept slices", () => {
  it("after one tuning system changed, computes its slice alone and writes the clean write's bytes", async () => {
    expect(await write("after", changed, { from: dir("cache-before"), into: dir("cache-after") }, 2)).toBe(1);
    // With two threads, they were given their tasks while it ran (the caller's thread may then plan); on one, there are none.
    expect(tasksGiven.get("after")).toEqual([true]);
    expect(tasksGiven.get("clean")).toEqual([]);
    const after = filesOf(join(dir("after"), "api"));
    expect([...after.keys()].sort()).toEqual([...clean.keys()].sort());
    for (const [name, bytes] of clean) expect(after.get(name)?.equals(bytes), name).toBe(true);
    // The change shows: the slices of the changed tuning system differ, so the files do.
    const before = filesOf(join(dir("before"), "api"));
    expect(before.get("pitch_classes.csv")?.equals(clean.get("pitch_classes.csv") ?? Buffer.alloc(0))).toBe(false);
  }, 300_000);

  it("the files assembled from slices are those of the tables computed whole", async () => {
    const cat = createCatalog(changed, "build");
    for (const table of ["pitch_classes", "intervals", "jins_renderings"].map(tableNamed)) {
      const cells = cellsOf(cat, table);
      expect(clean.get(`${table.name}.csv`)?.equals(csvOf(cells)), table.name).toBe(true);
      expect(clean.get(`${table.name}.parquet`)?.equals(parquetOf(cells)), table.name).toBe(true);
    }
    // The database coded from the counts kept with the slices is the one coded from a count of the whole tables' rows.
    const whole = join(work, "whole.sqlite");
    await databaseOf(
      TABLES.map((table) => {
        const { rows } = cellsOf(cat, table);
        return { table, parts: () => [rows] };
      }),
      whole,
    );
    expect(readFileSync(whole).equals(clean.get("maqam_archive.sqlite") ?? Buffer.alloc(0))).toBe(true);
  }, 300_000);

  it("writes the same database started on an empty file with room for it, whatever the room", async () => {
    const cat = createCatalog(changed, "build");
    const keys = sliceKeys(cat, engine);
    const cleanDatabase = clean.get("maqam_archive.sqlite") ?? Buffer.alloc(0);
    // What a write without a previous build's database begins on: its slices' bytes at DATABASE_SHARE_OF_SLICES, near the database's size.
    const estimate = slicesBytes(cat, keys, dir("cache-after")) * DATABASE_SHARE_OF_SLICES;
    expect(estimate / cleanDatabase.length).toBeGreaterThan(0.7);
    expect(estimate / cleanDatabase.length).toBeLessThan(1.5);
    // The previous build's size, one too small (the file grows from there), one too large (the room past the database is not exported).
    for (const hint of [cleanDatabase.length, 3 * PAGE_SIZE, 2 * cleanDatabase.length]) {
      const file = join(work, `started-${hint}.sqlite`);
      expect(await databaseOf(tableRowsOf(cat, keys, dir("cache-after")), file, hint)).toBe(cleanDatabase.length);
      expect(readFileSync(file).equals(cleanDatabase), `${hint} bytes`).toBe(true);
    }
  }, 300_000);

  it("does not trust a corrupt kept file, nor one under another slice's name", async () => {
    const keys = sliceKeys(createCatalog(changed, "build"), engine);
    const [first, second] = small.tuningSystems.filter((ts) => ts.id !== CHANGED.tuningSystem).map((ts) => keys.get(ts.id) ?? "");
    const from = dir("cache-after");
    // A digit changed, the file still parses: only the checksum of the part it is in tells, to a reading of that part.
    const changeDigit = (file: string, at: (text: string) => number) => {
      const text = readFileSync(file, "latin1");
      const i = at(text);
      writeFileSync(file, `${text.slice(0, i)}${text[i] === "1" ? "2" : "1"}${text.slice(i + 1)}`, "latin1");
    };
    const renderings = tableNamed("maqam_renderings");
    // In the counts (the JSON at the end): the database's readings do not trust it, the CSV's still may.
    changeDigit(join(from, `${first}.maqam_renderings`), (text) => text.lastIndexOf("1"));
    expect(readSliceTable(from, first, renderings, "counts")).toBeUndefined();
    expect(readSliceTable(from, first, renderings, "packed")).toBeUndefined();
    expect(readSliceTable(from, first, renderings, "rows")).toBeUndefined();
    expect(readSliceTable(from, first, renderings, "csv")?.length).toBeGreaterThan(0);
    // In the CSV (its first record, after the head line): the CSV's reading does not trust it.
    const intervals = tableNamed("intervals");
    changeDigit(join(from, `${first}.intervals`), (text) => text.slice(text.indexOf("\n") + 1).search(/\d/) + text.indexOf("\n") + 1);
    expect(readSliceTable(from, first, intervals, "csv")).toBeUndefined();
    expect(readSliceTable(from, first, intervals, "packed")?.length).toBeGreaterThan(0);
    // Another tuning system's rows, under this one's name.
    copyFileSync(join(from, `${first}.pitch_classes`), join(from, `${second}.pitch_classes`));
    expect(readSliceTable(from, second, tableNamed("pitch_classes"))).toBeUndefined();
    await write("again", changed, { from, into: dir("cache-again") });
    const again = filesOf(join(dir("again"), "api"));
    for (const [name, bytes] of clean) expect(again.get(name)?.equals(bytes), name).toBe(true);
    // The cache made holds the slices computed again, whole.
    for (const need of ["csv", "counts", "packed", "rows"] as const)
      expect(readSliceTable(dir("cache-again"), first, renderings, need)?.length, need).toBeGreaterThan(0);
    expect(readSliceTable(dir("cache-again"), first, intervals, "csv")?.length).toBeGreaterThan(0);
    expect(readSliceTable(dir("cache-again"), second, tableNamed("pitch_classes"))?.length).toBeGreaterThan(0);
  }, 300_000);
});

describe("a thread of one task", () => {
  it("answers its task, and rejects with the thread's error when it cannot start", async () => {
    const keys = [...sliceKeys(createCatalog(changed, "build"), engine)];
    const file = join(work, "apart.sqlite");
    const bytes = await startApart(changed).run({ kind: "database", keys, dir: dir("cache-after"), file });
    expect(bytes).toBe(readFileSync(file).length);
    expect(readFileSync(file).equals(clean.get("maqam_archive.sqlite") ?? Buffer.alloc(0))).toBe(true);
    // Facts without tuning systems: its catalog throws as the thread starts, before any task is given.
    const broken = startApart({ ...changed, tuningSystems: undefined } as unknown as Facts);
    await expect(broken.run({ kind: "database", keys, dir: dir("cache-after"), file: join(work, "never.sqlite") })).rejects.toThrow();
    expect(existsSync(join(work, "never.sqlite"))).toBe(false);
  }, 120_000);
});
