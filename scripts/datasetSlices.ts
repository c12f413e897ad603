/**
 * The per-tuning-system part of the datasets, kept between builds. The rows of every table made
 * tuning system by tuning system (`rowsOf`, src/api/datasets/columns.ts) are computed per tuning
 * system — a slice — and kept in a directory of the build's cache, one file per slice and table,
 * named by a hash of exactly what the slice reads: the tuning system's record and the sources it
 * and the entities cite, the note names, maqāmāt, ajnās and family rules, the engine and the code
 * of the datasets. A build after one tuning system changed computes that slice alone and reads
 * the others back; the files are assembled from the slices in catalog order, so they are the
 * bytes a clean build writes. Missing slices may be computed on the datasets' threads
 * (scripts/datasetsPool.ts).
 *
 * A kept file: one line of JSON (its key, table, rows, bytes of CSV and of packed rows, and the
 * SHA-256 of each part that follows), then the slice's CSV records, its rows packed as numbers
 * (src/api/datasets/packed.ts: read back without parsing), and the counts of its texts and
 * groups' values as JSON, which name the texts and combinations the packed rows point to and code
 * the database without reading every cell twice. A reading reads and checks only the parts it
 * needs (the CSV files' thread the CSV, the database's the counts and then the packed rows): a
 * build after one change reads each part once instead of the whole file three times. A file
 * whose key or table does not match, that does not parse, or whose part read does not match its
 * checksum is not trusted: its slice is computed again.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import type { AnyTable, Cell } from "../src/api/datasets/columns.js";
import { TABLES } from "../src/api/datasets/tables.js";
import { addCounts, newCounts, storedSlots, type TableCounts } from "../src/api/datasets/coded.js";
import { cellsOf, csvRecordsOf } from "../src/api/datasets/write.js";
import { packRows, unpackRows } from "../src/api/datasets/packed.js";
import type { Catalog } from "../src/theory/catalog.js";
import type { DatabaseTable } from "./datasetDatabase.js";
import type { TuningSystem } from "../src/theory/tuningSystem.js";
import { datasetsCode, tuningSystemFacts } from "./sliceHash.js";
import { writeParts } from "./fileParts.js";

/** The tables whose rows are made tuning system by tuning system, in their order. */
export const SLICED_TABLES: readonly AnyTable[] = TABLES.filter((t) => t.rowsOf);

/** Where slices are looked for (the previous build's cache) and where those used are kept (the cache being made; it may be the same). */
export interface SliceDirs {
  from?: string;
  into: string;
}

/** A slice's table: its number of rows, its CSV records, its cells, its rows packed, and the counts of its texts and groups' values (for the database's coding). */
export interface SliceTable {
  length: number;
  csv: Uint8Array;
  rows: Cell[][];
  packed: Float64Array;
  counts: TableCounts;
}

/**
 * What a reading of a slice's table needs: the CSV records (the files), the cells (the Parquet
 * groups to encode), the rows packed and their counts (the database's rows) or the counts (its coding).
 */
export type SliceNeed = "csv" | "rows" | "packed" | "counts";

const sha256 = (...parts: (string | Uint8Array)[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex");
};

/** Tuning system id → the key of its slice. */
export function sliceKeys(cat: Catalog, engine: string): Map<string, string> {
  const { noteNames, maqamat, ajnas, familyRules } = cat.facts;
  const common = sha256("datasets slice 3", engine, datasetsCode(), JSON.stringify([noteNames, maqamat, ajnas, familyRules]));
  return new Map(cat.tuningSystems.map((ts) => [ts.id, sha256(common, tuningSystemFacts(cat, ts.id))]));
}

const fileOf = (dir: string, key: string, table: string) => join(dir, `${key}.${table}`);

/** The parts of a kept file, in their order. */
const PARTS = ["csv", "packed", "counts"] as const;
type Part = (typeof PARTS)[number];

/** The head line of a kept file: what it holds, the bytes of its parts and the SHA-256 of each. */
interface SliceHead {
  key: string;
  table: string;
  rows: number;
  csvBytes: number;
  packedBytes: number;
  sha256: Record<Part, string>;
}

/** The parts a reading needs. */
const PARTS_OF: Record<SliceNeed, readonly Part[]> = { csv: ["csv"], counts: ["counts"], packed: ["packed", "counts"], rows: ["packed", "counts"] };

type CountsJson = { labels: [string, number][]; groups: [string, [string, number][]][] };

const countsJson = (counts: TableCounts): CountsJson => ({ labels: [...counts.labels], groups: [...counts.groups].map(([name, keys]) => [name, [...keys]]) });
const countsFrom = (json: CountsJson): TableCounts => ({
  labels: new Map(json.labels),
  groups: new Map(json.groups.map(([name, keys]) => [name, new Map(keys)])),
});

/**
 * Writes a kept file from its parts through a temporary name, so that it is whole or absent, and a
 * link to a previous cache's file is replaced, not written through. The temporary name is the
 * thread's: two threads may both find a file corrupt and write it again.
 */
export function keepWhole(file: string, parts: readonly Uint8Array[]): void {
  const partial = `${file}.${process.pid}-${threadId}.partial`;
  writeParts(partial, parts);
  renameSync(partial, file);
}

/** Writes one slice's table (through a temporary name, so a file is whole or absent, and a link to a previous cache's file is replaced, not written through). */
export function writeSliceTable(dir: string, key: string, table: AnyTable, rows: Cell[][]): SliceTable {
  const { packed, counts } = packRows(table, rows);
  const parts = [
    Buffer.from(csvRecordsOf(rows)),
    Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength),
    Buffer.from(JSON.stringify(countsJson(counts))),
  ];
  // The body written in its parts rather than joined: each join copied it whole outside the V8
  // heap, and a thread's malloc arena keeps its largest moment after the thread ends.
  const digests = parts.map((part) => createHash("sha256").update(part).digest("hex"));
  const head: SliceHead = {
    key,
    table: table.name,
    rows: rows.length,
    csvBytes: parts[0].length,
    packedBytes: parts[1].length,
    sha256: { csv: digests[0], packed: digests[1], counts: digests[2] },
  };
  keepWhole(fileOf(dir, key, table.name), [Buffer.from(`${JSON.stringify(head)}\n`), ...parts]);
  return { length: rows.length, csv: parts[0], rows, packed, counts };
}

/** A kept file's head line (parsed) and the bytes after it; undefined when there is no such file. Throws when the head does not parse. */
export function readKept<Head>(file: string): { head: Head; body: Buffer } | undefined {
  if (!existsSync(file)) return undefined;
  const bytes = readFileSync(file);
  const newline = bytes.indexOf(10);
  return { head: JSON.parse(bytes.subarray(0, newline).toString()) as Head, body: bytes.subarray(newline + 1) };
}

/** A kept file's head line, a line of JSON: longer ones are not this format. */
const HEAD_BYTES = 1024;

/** The parts of a slice's file that `need` asks for, each checked against its checksum; undefined when the file is missing or not to be trusted. */
function readParts(file: string, key: string, table: AnyTable, need: SliceNeed): { head: SliceHead; parts: Partial<Record<Part, Buffer>> } | undefined {
  if (!existsSync(file)) return undefined;
  const fd = openSync(file, "r");
  try {
    const start = Buffer.alloc(HEAD_BYTES);
    const newline = start.subarray(0, readSync(fd, start, 0, HEAD_BYTES, 0)).indexOf(10);
    if (newline < 0) return undefined;
    const head = JSON.parse(start.subarray(0, newline).toString()) as SliceHead;
    if (head.key !== key || head.table !== table.name || typeof head.sha256 !== "object" || head.sha256 === null) return undefined;
    const body = newline + 1;
    const starts: Record<Part, number> = { csv: body, packed: body + head.csvBytes, counts: body + head.csvBytes + head.packedBytes };
    const ends: Record<Part, number> = { csv: starts.packed, packed: starts.counts, counts: fstatSync(fd).size };
    const parts: Partial<Record<Part, Buffer>> = {};
    for (const part of PARTS_OF[need]) {
      const bytes = Buffer.allocUnsafe(Math.max(0, ends[part] - starts[part]));
      if (readSync(fd, bytes, 0, bytes.length, starts[part]) !== bytes.length) return undefined;
      if (createHash("sha256").update(bytes).digest("hex") !== head.sha256[part]) return undefined;
      parts[part] = bytes;
    }
    return { head, parts };
  } finally {
    closeSync(fd);
  }
}

/**
 * One slice's table as kept, when its file is there and is what its name says; undefined otherwise.
 * Only the parts `need` names are read, checked and parsed: the rest is left empty.
 */
export function readSliceTable(dir: string, key: string, table: AnyTable, need: SliceNeed = "csv"): SliceTable | undefined {
  try {
    const kept = readParts(fileOf(dir, key, table.name), key, table, need);
    if (!kept) return undefined;
    const { head, parts } = kept;
    const length = head.rows;
    if (parts.csv) return { length, csv: parts.csv, rows: [], packed: NO_ROWS, counts: NO_COUNTS };
    const counts = countsFrom(JSON.parse((parts.counts ?? EMPTY).toString()) as CountsJson);
    if (!parts.packed) return { length, csv: EMPTY, rows: [], packed: NO_ROWS, counts };
    // Copied out when its bytes do not start at a multiple of 8, as those of a float64 array must.
    const bytes = parts.packed.byteOffset % 8 === 0 ? parts.packed : new Uint8Array(parts.packed);
    const packed = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
    if (bytes.length % 8 !== 0 || packed.length !== length * storedSlots(table).length) return undefined;
    if (need === "packed") return { length, csv: EMPTY, rows: [], packed, counts };
    return { length, csv: EMPTY, rows: unpackRows(table, packed, counts), packed: NO_ROWS, counts: NO_COUNTS };
  } catch {
    return undefined;
  }
}

const NO_COUNTS = newCounts();
const NO_ROWS = new Float64Array(0);
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

/** Computes and keeps the slices missing (tuning system id → key) in `dir`, elsewhere (on the datasets' threads). */
export type ComputeSlices = (missing: [string, string][], dir: string) => Promise<unknown>;

/**
 * Makes sure `dirs.into` holds a file for every slice and table: those of `dirs.from` are linked,
 * the others computed, by `compute` when it is given; `onMissing` is told how many those are
 * before they are. A file found here may still prove corrupt when read: the reader computes that
 * slice again (sliceTableOf).
 */
export async function prepareSlices(
  cat: Catalog,
  keys: ReadonlyMap<string, string>,
  dirs: SliceDirs,
  compute?: ComputeSlices,
  onMissing?: (missing: number) => void,
): Promise<number> {
  mkdirSync(dirs.into, { recursive: true });
  const missing = cat.tuningSystems.filter((ts) => {
    const key = keyOf(keys, ts);
    return !(dirs.from && dirs.from !== dirs.into ? carry(dirs.from, dirs.into, key) : SLICED_TABLES.every((t) => existsSync(fileOf(dirs.into, key, t.name))));
  });
  onMissing?.(missing.length);
  if (!compute) for (const ts of missing) computeSlice(cat, ts, keyOf(keys, ts), dirs.into);
  else
    await compute(
      missing.map((ts) => [ts.id, keyOf(keys, ts)]),
      dirs.into,
    );
  return missing.length;
}

/** Every table for the database, one at a time: the slices are read back for each reading, the counts or the packed rows alone. */
export function* tableRowsOf(cat: Catalog, keys: ReadonlyMap<string, string>, dir: string): Generator<DatabaseTable> {
  for (const table of TABLES) {
    if (!table.rowsOf) {
      const { rows } = cellsOf(cat, table);
      yield { table, parts: () => [rows] };
      continue;
    }
    const slice = (ts: TuningSystem, need: SliceNeed) => sliceTableOf(cat, ts, keyOf(keys, ts), dir, table, need);
    yield {
      table,
      packed: {
        parts: function* () {
          for (const ts of cat.tuningSystems) yield slice(ts, "packed");
        },
        counts: () => cat.tuningSystems.reduce((sum, ts) => addCounts(sum, slice(ts, "counts").counts), newCounts()),
      },
    };
  }
}

/** The bytes of every tuning system's slices in `dir` (0 for a file that is not there). */
export function slicesBytes(cat: Catalog, keys: ReadonlyMap<string, string>, dir: string): number {
  let bytes = 0;
  for (const ts of cat.tuningSystems)
    for (const table of SLICED_TABLES) bytes += statSync(fileOf(dir, keyOf(keys, ts), table.name), { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}

/** One slice's table from the cache being made, computed again (and kept) when its file is not to be trusted. */
export function sliceTableOf(cat: Catalog, ts: TuningSystem, key: string, dir: string, table: AnyTable, need: SliceNeed = "csv"): SliceTable {
  return readSliceTable(dir, key, table, need) ?? writeSliceTable(dir, key, table, cellsOf(cat, table, ts).rows);
}

/** A tuning system's slice key (every tuning system of the catalog has one). */
export function keyOf(keys: ReadonlyMap<string, string>, ts: TuningSystem): string {
  const key = keys.get(ts.id);
  if (key === undefined) throw new Error(`datasets: no slice key for the tuning system ${ts.id}`);
  return key;
}
