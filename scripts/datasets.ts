/**
 * Writes the datasets under `<api>/datasets/`: every table as CSV and Parquet, one SQLite database
 * of them all (sql.js) with indexes and views, and the data dictionary (index.json) with row
 * counts and bytes. The tables made tuning system by tuning system are assembled from slices kept
 * between builds (scripts/datasetSlices.ts), so a build after one tuning system changed computes
 * that one's rows alone; a table is written a slice at a time, never held whole: its CSV records
 * to the file, its Parquet row groups kept with the slices where their rows are unchanged and
 * encoded from the slices' rows where not (scripts/datasetGroups.ts). With two threads or more,
 * when many slices are missing (a clean build), all of it is done on the datasets' threads
 * (scripts/datasetsPool.ts), and the caller's thread stays free: the slices are computed on a
 * pool, then one fresh thread writes the CSV and Parquet files while another builds the database
 * (scripts/datasetDatabase.ts), each ending when done. When few are (FEW_SLICES), one thread
 * computes them and then builds the database, and the caller's thread writes the files. `npx tsx scripts/datasets.ts
 * <dir> [--cache <dir>] [--previous <dir>]` writes them alone (slices read from the previous
 * cache or the cache, kept in the cache) and prints the time and memory they cost; `--docs` also
 * regenerates the dictionary in docs/datasets.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { VIEWS } from "../src/api/datasets/tables.js";
import { DATABASE_NAME, DATASET_FORMATS, DATASETS_PATH, DICTIONARY_FILE, tableFilePath, type DatasetFormat } from "../src/api/datasets/files.js";
import type { Catalog } from "../src/theory/catalog.js";
import { databaseOf } from "./datasetDatabase.js";
import { type DictionaryTable, type FileEntry, type TableFiles, urlOf, writeTableFiles } from "./datasetFiles.js";
import { prepareSlices, sliceKeys, slicesBytes, tableRowsOf, type SliceDirs } from "./datasetSlices.js";
import { type ApartThread, type DatasetsPool, datasetsPool, runOn, type SliceTask, startApart } from "./datasetsPool.js";
import type { TuningSystemListed } from "./planListing.js";
import { engineDigest } from "./sliceHash.js";

export interface Dictionary {
  formats: Record<DatasetFormat, string>;
  tables: DictionaryTable[];
  database: FileEntry & { views: { name: string; about: string; sql: string }[] };
}

export interface DatasetsOptions {
  /** Where the slices are looked for and kept; default a temporary directory, removed afterwards. */
  slices?: SliceDirs;
  /** The engine's digest, when the caller has it (engineDigest()). */
  engine?: string;
  /** Threads computing the missing slices; default one per core (1: all on this thread; otherwise the files and the database on two threads of their own). */
  threads?: number;
  /** Told how many slices are missing, of how many, before they are computed. */
  onSlices?: (missing: number, total: number) => void;
  /** Told, once the CSV and Parquet files are written, how many row groups were encoded (the others were kept), and the seconds they took on the caller's thread, when written there. */
  onFiles?: (encoded: number, here?: number) => void;
  /**
   * Told once the datasets' threads have their tasks: from then on they need nothing of the
   * caller's thread, which may run long synchronous work (the planning) without holding them back;
   * when few slices are missing, the CSV and Parquet files are written on it once that work yields.
   */
  onTasksGiven?: () => void;
  /** The bytes the database is expected to take, the previous build's (databaseBytesIn): it then starts at that size. Without, the size its slices give (DATABASE_SHARE_OF_SLICES). */
  databaseHint?: number;
  /**
   * A build's planning parts, listed by the pool's threads for each tuning system whose slice they
   * compute, while its transpositions are in their catalog (listTuningSystem): given to `onListed`.
   */
  listing?: { options: NonNullable<SliceTask["listing"]>; onListed: (tuningSystem: string, listed: TuningSystemListed) => void };
}

/** The database's file below an api directory. */
export const databaseFileOf = (apiDir: string): string => join(apiDir, tableFilePath(DATABASE_NAME, "sqlite").slice(1));

/** The bytes of the database below an api directory; 0 where there is none. */
export function databaseBytesIn(apiDir: string): number {
  try {
    return statSync(databaseFileOf(apiDir)).size;
  } catch {
    return 0;
  }
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
  const sent = [...keys];
  mkdirSync(join(apiDir, DATASETS_PATH.slice(1)), { recursive: true });
  const database = databaseFileOf(apiDir);
  const filesWritten = (files: TableFiles, here?: number) => {
    options.onFiles?.(files.encoded, here);
    return files.tables;
  };
  /** The CSV and Parquet files written on this thread, timed. */
  const filesHere = () => {
    const started = performance.now();
    const files = writeTableFiles(apiDir, cat, keys, slices);
    return filesWritten(files, (performance.now() - started) / 1000);
  };
  // Where no previous build says, the estimate counts the slices there before the missing ones are computed: it only sets where the file starts.
  let sizeHint: number | undefined;
  const sizeHintNow = () => {
    sizeHint ??= options.databaseHint || databaseEstimate(cat, keys, slices.into);
    return sizeHint;
  };
  // Started when many slices are missing.
  let pool: DatasetsPool | undefined;
  // When few are (an incremental build): one thread computes them, then builds the database, and the CSV and Parquet
  // files are written on this thread meanwhile, once the slices are in (after the planning the caller runs beside).
  // One isolate beside the caller's instead of three (a pool's, the files', the database's) on two cores.
  let beside: Promise<number> | undefined;
  let thread: ApartThread | undefined;
  const compute =
    threads > 1
      ? (missing: [string, string][], dir: string) => {
          if (missing.length <= FEW_SLICES) {
            thread = startApart(cat.facts);
            beside = thread.run({ kind: "database", keys: sent, dir, file: database, sizeHint: sizeHintNow(), first: missing });
            options.onTasksGiven?.();
            return thread.computed;
          }
          const running = datasetsPool(cat.facts, threads);
          pool = running;
          const { listing } = options;
          return Promise.all(
            missing.map(async ([tuningSystem, key]) => {
              const listed = await runOn(running, { kind: "slice", tuningSystem, key, dir, listing: listing?.options });
              if (listed) listing?.onListed(tuningSystem, listed);
            }),
          );
        }
      : undefined;
  try {
    await prepareSlices(cat, keys, slices, compute, (missing) => options.onSlices?.(missing, keys.size));
  } catch (e) {
    thread?.stop();
    throw e;
  } finally {
    // Not awaited: the threads end beside what follows.
    void pool?.destroy();
  }
  if (beside) return dictionaryOf(apiDir, filesHere(), await beside);
  if (threads < 2) return dictionaryOf(apiDir, filesHere(), await databaseOf(tableRowsOf(cat, keys, slices.into), database, sizeHintNow()));
  // Two threads, each ending when its task is done: one builds the database while the other writes the CSV and
  // Parquet files; this one stays free.
  const [databaseThread, filesThread] = [startApart(cat.facts), startApart(cat.facts)];
  const running = [
    databaseThread.run({ kind: "database", keys: sent, dir: slices.into, file: database, sizeHint: sizeHintNow() }),
    filesThread.run({ kind: "files", keys: sent, dirs: slices, apiDir }).then(filesWritten),
  ] as const;
  options.onTasksGiven?.();
  const [bytes, tables] = await Promise.all(running);
  return dictionaryOf(apiDir, tables, bytes);
}

/**
 * The database's bytes for the tables it is made of, where no previous build says: about 0.30 of
 * its slices' bytes (74.3 MB of 245.2 MB for data/), the rows packed as it packs them. Begun on an
 * empty file with room for that size (databaseOf), the database is not copied as its file grows by an
 * eighth at a time (a 74 MB file some 600 MB, as many fresh pages faulted in); an estimate too small
 * grows from there, the room past one too large is never written: the bytes are the same either way.
 */
export const DATABASE_SHARE_OF_SLICES = 0.3;
const databaseEstimate = (cat: Catalog, keys: ReadonlyMap<string, string>, dir: string): number =>
  Math.round(slicesBytes(cat, keys, dir) * DATABASE_SHARE_OF_SLICES);

/**
 * At most this many slices missing (an incremental build), one thread computes them and builds the
 * database, the caller's thread writes the CSV and Parquet files, and a build plans beside it all
 * (scripts/build.ts): with a pool, a files' thread and a database's thread beside the planning, a
 * one-change build's CPU was half as much again (docs/benchmarks.md).
 */
export const FEW_SLICES = 2;

/** Writes the dictionary (index.json) of the tables' files and the database, and returns it. */
function dictionaryOf(apiDir: string, tables: DictionaryTable[], bytes: number): Dictionary {
  const formats = Object.fromEntries(Object.entries(DATASET_FORMATS).map(([k, v]) => [k, v.name])) as Record<DatasetFormat, string>;
  const url = urlOf(tableFilePath(DATABASE_NAME, "sqlite"));
  const dictionary: Dictionary = { formats, tables, database: { url, bytes, views: VIEWS.map((v) => ({ ...v })) } };
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
  let encoded = "";
  const started = performance.now();
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const dictionary = await writeDatasets(out, createCatalog(readFacts(process.env.DATA_DIR), "build"), {
    slices,
    onSlices: (missing, total) => {
      computed = `, ${missing} of ${total} slices computed`;
    },
    onFiles: (n) => {
      encoded = `, ${n} row groups encoded`;
    },
  });
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (process.argv.includes("--docs")) writeDictionaryDoc(dictionary);
  const bytes = dictionary.tables.reduce((n, t) => n + t.files.csv.bytes + t.files.parquet.bytes, dictionary.database.bytes);
  console.log(
    `datasets: ${dictionary.tables.length} tables, ${dictionary.tables.reduce((n, t) => n + t.rows, 0)} rows, ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS ${(peak / 1e6).toFixed(0)} MB${computed}${encoded}`,
  );
}
