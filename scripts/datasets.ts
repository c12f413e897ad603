/**
 * Writes the datasets under `<api>/datasets/`: every table as CSV and Parquet, one SQLite database
 * of them all (sql.js) with indexes and views, and the data dictionary (index.json) with row
 * counts and bytes. The tables made tuning system by tuning system are assembled from slices kept
 * between builds (scripts/datasetSlices.ts), so a build after one tuning system changed computes
 * that one's rows alone; a table is written a slice at a time (its CSV records to the file, its
 * rows to the Parquet writer), never held whole. With two threads or more, the slices are computed
 * on them, then the database is built on a fresh thread (scripts/datasetDatabase.ts), which writes
 * the file itself, while this one writes the CSV and Parquet files. `npx tsx scripts/datasets.ts
 * <dir> [--cache <dir>] [--previous <dir>]` writes them alone (slices read from the previous
 * cache or the cache, kept in the cache) and prints the time and memory they cost; `--docs` also
 * regenerates the dictionary in docs/datasets.md.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { ColumnType } from "../src/api/datasets/columns.js";
import { VIEWS } from "../src/api/datasets/tables.js";
import { DATABASE_NAME, DATASET_FORMATS, DATASETS_PATH, DICTIONARY_FILE, tableFilePath, type DatasetFormat } from "../src/api/datasets/files.js";
import { parquetWriterOf } from "../src/api/datasets/write.js";
import type { Catalog } from "../src/theory/catalog.js";
import { databaseOf } from "./datasetDatabase.js";
import { datasetsPool, prepareSlices, sliceKeys, tableRowsOf, tablesOf, type SliceDirs } from "./datasetSlices.js";
import { engineDigest } from "./sliceHash.js";

interface FileEntry {
  url: string;
  bytes: number;
}

export interface DictionaryTable {
  name: string;
  about: string;
  row: string;
  rows: number;
  columns: { name: string; type: ColumnType; unit?: string; about: string }[];
  files: Record<Exclude<DatasetFormat, "sqlite">, FileEntry>;
}

export interface Dictionary {
  formats: Record<DatasetFormat, string>;
  tables: DictionaryTable[];
  database: FileEntry & { views: { name: string; about: string; sql: string }[] };
}

const urlOf = (path: string) => `/api${path}`;

export interface DatasetsOptions {
  /** Where the slices are looked for and kept; default a temporary directory, removed afterwards. */
  slices?: SliceDirs;
  /** The engine's digest, when the caller has it (engineDigest()). */
  engine?: string;
  /** Threads computing the missing slices and building the database; default one per core (1: all on this thread). */
  threads?: number;
  /** Told how many slices were computed, of how many. */
  onSlices?: (computed: number, total: number) => void;
}

/** Writes every dataset file into `apiDir` (build/api) and returns the dictionary it wrote. */
export async function writeDatasets(apiDir: string, cat: Catalog, options: DatasetsOptions = {}): Promise<Dictionary> {
  const slices = options.slices ?? { into: mkdtempSync(join(tmpdir(), "maqam-datasets-slices-")) };
  try {
    return await writeAll(apiDir, cat, slices, options);
  } finally {
    if (!options.slices) rmSync(slices.into, { recursive: true, force: true });
  }
}

async function writeAll(apiDir: string, cat: Catalog, slices: SliceDirs, options: DatasetsOptions): Promise<Dictionary> {
  const keys = sliceKeys(cat, options.engine ?? engineDigest());
  const threads = options.threads ?? availableParallelism();
  const slicesPool = threads > 1 ? datasetsPool(cat, threads) : undefined;
  let computed: number;
  try {
    computed = await prepareSlices(cat, keys, slices, slicesPool);
  } finally {
    // Their threads end, and with them what their catalogs memoised for the slices.
    await slicesPool?.destroy();
  }
  options.onSlices?.(computed, keys.size);
  mkdirSync(join(apiDir, DATASETS_PATH.slice(1)), { recursive: true });
  const pool = threads > 1 ? datasetsPool(cat, 1) : undefined;
  try {
    // The database on a fresh thread of its own while this one writes the CSV and Parquet files.
    const database = pool?.run({ kind: "database", keys: [...keys], dir: slices.into, file: join(apiDir, tableFilePath(DATABASE_NAME, "sqlite").slice(1)) });
    // Awaited below; a failure of the files first must not leave its failure unhandled.
    database?.catch(() => undefined);
    return await writeFiles(apiDir, cat, keys, slices.into, database);
  } finally {
    await pool?.destroy();
  }
}

/** Writes a file part by part (a table's CSV is not joined into one buffer first) and returns its bytes. */
function writeParts(file: string, parts: Iterable<Uint8Array>): number {
  const fd = openSync(file, "w");
  let bytes = 0;
  try {
    for (const part of parts) {
      for (let at = 0; at < part.length; ) at += writeSync(fd, part, at);
      bytes += part.length;
    }
  } finally {
    closeSync(fd);
  }
  return bytes;
}

async function writeFiles(
  apiDir: string,
  cat: Catalog,
  keys: ReadonlyMap<string, string>,
  sliceDir: string,
  database: Promise<number | undefined> | undefined,
): Promise<Dictionary> {
  const fileOf = (path: string) => join(apiDir, path.slice(1));
  const write = (path: string, parts: Iterable<Uint8Array>): FileEntry => ({ url: urlOf(path), bytes: writeParts(fileOf(path), parts) });
  const tables: DictionaryTable[] = [];
  for (const { table, parts } of tablesOf(cat, keys, sliceDir)) {
    // A part at a time: its CSV records written, its rows handed to the Parquet file, then both let go.
    const parquet = parquetWriterOf(table);
    let rows = 0;
    const csv = write(
      tableFilePath(table.name, "csv"),
      (function* () {
        for (const part of parts) {
          parquet.add(part.rows);
          rows += part.rows.length;
          yield part.csv;
        }
      })(),
    );
    const files = { csv, parquet: write(tableFilePath(table.name, "parquet"), [parquet.finish()]) };
    const columns = table.columns.map(({ name, type, unit, about }) => ({ name, type, ...(unit ? { unit } : {}), about }));
    tables.push({ name: table.name, about: table.about, row: table.row, rows, columns, files });
  }
  // The database is written by the thread that builds it; without a thread of its own, after the files, from the slices read again.
  const path = tableFilePath(DATABASE_NAME, "sqlite");
  const bytes = (await database) ?? (await databaseOf(tableRowsOf(cat, keys, sliceDir), fileOf(path)));
  const formats = Object.fromEntries(Object.entries(DATASET_FORMATS).map(([k, v]) => [k, v.name])) as Record<DatasetFormat, string>;
  const dictionary: Dictionary = { formats, tables, database: { url: urlOf(path), bytes, views: VIEWS.map((v) => ({ ...v })) } };
  writeFileSync(join(apiDir, DICTIONARY_FILE), `${JSON.stringify(dictionary)}\n`);
  return dictionary;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The generated part of docs/datasets.md: every table, its rows and bytes, and its columns. */
export function dictionaryMarkdown(d: Dictionary): string {
  const overview = [
    "| table | one row is | rows | CSV | Parquet |",
    "|---|---|---:|---:|---:|",
    ...d.tables.map((t) => `| \`${t.name}\` | ${t.row} | ${t.rows.toLocaleString("en-US")} | ${kb(t.files.csv.bytes)} | ${kb(t.files.parquet.bytes)} |`),
    `| **all** (\`${d.database.url.split("/").pop()}\`, SQLite) | | ${d.tables.reduce((n, t) => n + t.rows, 0).toLocaleString("en-US")} | ${kb(d.tables.reduce((n, t) => n + t.files.csv.bytes, 0))} | ${kb(d.tables.reduce((n, t) => n + t.files.parquet.bytes, 0))}; database ${kb(d.database.bytes)} |`,
  ];
  const perTable = d.tables.flatMap((t) => [
    "",
    `### \`${t.name}\``,
    "",
    `${t.about} One row: ${t.row}. Files: \`${t.files.csv.url}\`, \`${t.files.parquet.url}\`.`,
    "",
    "| column | type | unit | meaning |",
    "|---|---|---|---|",
    ...t.columns.map((c) => `| \`${c.name}\` | ${c.type} | ${c.unit ?? ""} | ${c.about} |`),
  ]);
  const views = ["", "### Views of the database", "", ...d.database.views.map((v) => `- \`${v.name}\`: ${v.about}`)];
  return [...overview, ...perTable, ...views].join("\n");
}

const BEGIN = "<!-- generated by scripts/datasets.ts: dictionary -->";
const END = "<!-- end of generated dictionary -->";

/** Replaces the generated dictionary in docs/datasets.md. */
export function writeDictionaryDoc(d: Dictionary, file = "docs/datasets.md"): void {
  const doc = readFileSync(file, "utf8");
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${file}: the markers of the generated dictionary are missing`);
  writeFileSync(file, `${doc.slice(0, start + BEGIN.length)}\n${dictionaryMarkdown(d)}\n${doc.slice(end)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFacts } = await import("../src/data/load.js");
  const { createCatalog } = await import("../src/theory/catalog.js");
  const out = process.argv[2] ?? "build/api";
  const option = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const cache = option("--cache");
  const slices = cache ? { from: option("--previous") ?? cache, into: cache } : undefined;
  let computed = "";
  const started = performance.now();
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const dictionary = await writeDatasets(out, createCatalog(readFacts(process.env.DATA_DIR), "build"), {
    slices,
    onSlices: (n, total) => {
      computed = `, ${n} of ${total} slices computed`;
    },
  });
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (process.argv.includes("--docs")) writeDictionaryDoc(dictionary);
  const bytes = dictionary.tables.reduce((n, t) => n + t.files.csv.bytes + t.files.parquet.bytes, dictionary.database.bytes);
  console.log(
    `datasets: ${dictionary.tables.length} tables, ${dictionary.tables.reduce((n, t) => n + t.rows, 0)} rows, ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS ${(peak / 1e6).toFixed(0)} MB${computed}`,
  );
}
