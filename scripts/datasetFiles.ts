/**
 * The CSV and Parquet files of the datasets, written a table at a time from the slices kept
 * (scripts/datasetSlices.ts) and the reference tables: a table's CSV records go to its file and
 * its rows to the Parquet writer a part at a time, never the whole table at once. Run on a thread
 * of the datasets' pool beside the one building the database, or on the caller's thread.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ColumnType } from "../src/api/datasets/columns.js";
import { tableFilePath, type DatasetFormat } from "../src/api/datasets/files.js";
import { parquetWriterOf } from "../src/api/datasets/write.js";
import type { Catalog } from "../src/theory/catalog.js";
import { tablesOf } from "./datasetSlices.js";

export interface FileEntry {
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

/** The URL of a path below /api. */
export const urlOf = (path: string) => `/api${path}`;

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

/** Writes every table's CSV and Parquet files into `apiDir` (build/api) and returns the dictionary's entries of them, in the tables' order. */
export function writeTableFiles(apiDir: string, cat: Catalog, keys: ReadonlyMap<string, string>, sliceDir: string): DictionaryTable[] {
  const write = (path: string, parts: Iterable<Uint8Array>): FileEntry => ({ url: urlOf(path), bytes: writeParts(join(apiDir, path.slice(1)), parts) });
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
  return tables;
}
