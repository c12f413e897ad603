/**
 * The per-tuning-system part of the datasets, kept between builds. The rows of every table made
 * tuning system by tuning system (`rowsOf`, src/api/datasets/columns.ts) are computed per tuning
 * system — a slice — and kept in a directory of the build's cache, one file per slice and table,
 * named by a hash of exactly what the slice reads: the tuning system's record and the sources it
 * and the entities cite, the note names, maqāmāt, ajnās and family rules, the engine and the code
 * of the datasets. A build after one tuning system changed computes that slice alone and reads
 * the others back; the files are assembled from the slices in catalog order, so they are the
 * bytes a clean build writes. Missing slices are computed on worker threads (piscina).
 *
 * A kept file: one line of JSON (its key, table, rows, bytes of CSV and the SHA-256 of what
 * follows), then the slice's CSV records, then its cells as JSON. A file whose key, table or
 * checksum does not match, or that does not parse, is not trusted: its slice is computed again.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { Piscina } from "piscina";
import type { AnyTable, Cell } from "../src/api/datasets/columns.js";
import { TABLES } from "../src/api/datasets/tables.js";
import { cellsOf, csvHeaderOf, csvOf, csvRecordsOf } from "../src/api/datasets/write.js";
import type { Facts } from "../src/data/facts.js";
import type { Catalog } from "../src/theory/catalog.js";
import type { TuningSystem } from "../src/theory/tuningSystem.js";
import { datasetsCode, tuningSystemFacts } from "./sliceHash.js";
import { threadEntry } from "./threadBundle.js";

/** The tables whose rows are made tuning system by tuning system, in their order. */
export const SLICED_TABLES: readonly AnyTable[] = TABLES.filter((t) => t.rowsOf);

/** Where slices are looked for (the previous build's cache) and where those used are kept (the cache being made; it may be the same). */
export interface SliceDirs {
  from?: string;
  into: string;
}

/** A slice's table: its CSV records and its cells. */
export interface SliceTable {
  csv: Uint8Array;
  rows: Cell[][];
}

/** What a thread computing slices is given: the facts of the catalog it makes. */
export interface SliceThreadData {
  facts: Facts;
}

/** A slice to compute: the tuning system, its key and where its files go. */
export interface SliceTask {
  kind: "slice";
  tuningSystem: string;
  key: string;
  dir: string;
}

/** The database built from the slices in `dir` (tuning system id → key) and the reference tables of the thread's catalog, written into `file`; the task answers its bytes. */
export interface DatabaseTask {
  kind: "database";
  keys: [string, string][];
  dir: string;
  file: string;
}

export type DatasetsPool = Piscina<SliceTask | DatabaseTask, number | undefined>;

/** Threads computing slices and building the database, each with a catalog of its own made from the facts. */
export const datasetsPool = (cat: Catalog, threads: number): DatasetsPool =>
  new Piscina({
    filename: threadEntry("scripts/datasetSliceWorker.ts").href,
    minThreads: 1,
    maxThreads: threads,
    execArgv: [],
    workerData: { facts: cat.facts } satisfies SliceThreadData,
  });

const sha256 = (...parts: (string | Uint8Array)[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex");
};

/** Tuning system id → the key of its slice. */
export function sliceKeys(cat: Catalog, engine: string): Map<string, string> {
  const { noteNames, maqamat, ajnas, familyRules } = cat.facts;
  const common = sha256("datasets slice 1", engine, datasetsCode(), JSON.stringify([noteNames, maqamat, ajnas, familyRules]));
  return new Map(cat.tuningSystems.map((ts) => [ts.id, sha256(common, tuningSystemFacts(cat, ts.id))]));
}

const fileOf = (dir: string, key: string, table: string) => join(dir, `${key}.${table}`);

/** Writes one slice's table (through a temporary name, so a file is whole or absent, and a link to a previous cache's file is replaced, not written through). */
export function writeSliceTable(dir: string, key: string, table: AnyTable, rows: Cell[][]): SliceTable {
  const csv = Buffer.from(csvRecordsOf(rows));
  const json = Buffer.from(JSON.stringify(rows));
  // The body (CSV, then JSON) hashed and written in its two parts rather than joined: each join copied
  // it whole outside the V8 heap, and a thread's malloc arena keeps its largest moment after the thread ends.
  const digest = createHash("sha256").update(csv).update(json).update("\0").digest("hex");
  const head = JSON.stringify({ key, table: table.name, rows: rows.length, csvBytes: csv.length, sha256: digest });
  const file = fileOf(dir, key, table.name);
  // Named by the thread: two threads may both find a file corrupt and write it again.
  const partial = `${file}.${process.pid}-${threadId}.partial`;
  const fd = openSync(partial, "w");
  try {
    for (const part of [Buffer.from(`${head}\n`), csv, json]) for (let at = 0; at < part.length; ) at += writeSync(fd, part, at);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  return { csv, rows };
}

/** One slice's table as kept, when its file is there and is what its name says; undefined otherwise. Without `withCsv`, its CSV is left empty. */
export function readSliceTable(dir: string, key: string, table: AnyTable, withCsv = true): SliceTable | undefined {
  const file = fileOf(dir, key, table.name);
  if (!existsSync(file)) return undefined;
  try {
    const bytes = readFileSync(file);
    const newline = bytes.indexOf(10);
    const head = JSON.parse(bytes.subarray(0, newline).toString()) as { key: string; table: string; rows: number; csvBytes: number; sha256: string };
    const body = bytes.subarray(newline + 1);
    if (head.key !== key || head.table !== table.name || head.sha256 !== sha256(body)) return undefined;
    const rows = JSON.parse(body.subarray(head.csvBytes).toString()) as Cell[][];
    const width = table.columns.length;
    if (rows.length !== head.rows || !rows.every((r) => Array.isArray(r) && r.length === width)) return undefined;
    // A copy, so that the file's bytes are not held while the table is assembled.
    return { csv: withCsv ? Buffer.from(body.subarray(0, head.csvBytes)) : EMPTY, rows };
  } catch {
    return undefined;
  }
}

const EMPTY = Buffer.alloc(0);

/** Computes and keeps every sliced table of one tuning system. */
export function computeSlice(cat: Catalog, ts: TuningSystem, key: string, dir: string): void {
  for (const table of SLICED_TABLES) writeSliceTable(dir, key, table, cellsOf(cat, table, ts).rows);
}

/** Hard-links (or, across file systems, copies) a previous cache's file into the cache being made; false when it is not there. */
function linkFile(source: string, target: string): boolean {
  if (existsSync(target)) return true;
  if (!existsSync(source)) return false;
  try {
    linkSync(source, target);
  } catch {
    writeFileSync(target, readFileSync(source));
  }
  return true;
}

/** Links a previous cache's files of a slice into the cache being made; false when one is missing. */
const carry = (from: string, into: string, key: string): boolean =>
  SLICED_TABLES.every((table) => linkFile(fileOf(from, key, table.name), fileOf(into, key, table.name)));

/** Every slice of a previous cache into the cache being made: the datasets were taken over whole, their slices are kept for the next build. */
export function carrySlices(from: string, into: string): void {
  if (!existsSync(from)) return;
  mkdirSync(into, { recursive: true });
  for (const name of readdirSync(from)) if (!name.endsWith(".partial")) linkFile(join(from, name), join(into, name));
}

/**
 * Makes sure `dirs.into` holds a file for every slice and table: those of `dirs.from` are linked,
 * the others computed, on the pool's threads when more than one is missing. A file found here may
 * still prove corrupt when read: the reader computes that slice again (sliceTableOf).
 */
export async function prepareSlices(cat: Catalog, keys: ReadonlyMap<string, string>, dirs: SliceDirs, pool?: DatasetsPool): Promise<number> {
  mkdirSync(dirs.into, { recursive: true });
  const missing = cat.tuningSystems.filter((ts) => {
    const key = keys.get(ts.id)!;
    return !(dirs.from && dirs.from !== dirs.into ? carry(dirs.from, dirs.into, key) : SLICED_TABLES.every((t) => existsSync(fileOf(dirs.into, key, t.name))));
  });
  if (missing.length < 2 || !pool) for (const ts of missing) computeSlice(cat, ts, keys.get(ts.id)!, dirs.into);
  else await Promise.all(missing.map((ts) => pool.run({ kind: "slice", tuningSystem: ts.id, key: keys.get(ts.id)!, dir: dirs.into })));
  return missing.length;
}

/** A table and its parts, in order, read one at a time: its CSV records (the first part with the header) and their rows. */
export interface TableParts {
  table: AnyTable;
  parts: Iterable<SliceTable>;
}

/**
 * Every table in parts, in their order, one at a time (a table's parts are read before the next
 * table): those made per tuning system from the slices in `dir` (in catalog order), the others
 * computed.
 */
export function* tablesOf(cat: Catalog, keys: ReadonlyMap<string, string>, dir: string): Generator<TableParts> {
  for (const table of TABLES) {
    if (!table.rowsOf) {
      const cells = cellsOf(cat, table);
      yield { table, parts: [{ csv: csvOf(cells), rows: cells.rows }] };
      continue;
    }
    const parts = function* () {
      yield { csv: Buffer.from(csvHeaderOf(table)), rows: [] };
      for (const ts of cat.tuningSystems) yield sliceTableOf(cat, ts, keys.get(ts.id)!, dir, table);
    };
    yield { table, parts: parts() };
  }
}

/** Every table with its rows in parts that may be read again, one table at a time: the slices are read back for each reading, without their CSV. */
export function* tableRowsOf(cat: Catalog, keys: ReadonlyMap<string, string>, dir: string): Generator<{ table: AnyTable; parts: () => Iterable<Cell[][]> }> {
  for (const table of TABLES) {
    if (!table.rowsOf) {
      const { rows } = cellsOf(cat, table);
      yield { table, parts: () => [rows] };
      continue;
    }
    yield {
      table,
      parts: function* () {
        for (const ts of cat.tuningSystems) yield sliceTableOf(cat, ts, keys.get(ts.id)!, dir, table, false).rows;
      },
    };
  }
}

/** One slice's table from the cache being made, computed again (and kept) when its file is not to be trusted. */
export function sliceTableOf(cat: Catalog, ts: TuningSystem, key: string, dir: string, table: AnyTable, withCsv = true): SliceTable {
  return readSliceTable(dir, key, table, withCsv) ?? writeSliceTable(dir, key, table, cellsOf(cat, table, ts).rows);
}
