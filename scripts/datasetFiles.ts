/**
 * The CSV and Parquet files of the datasets, written a table at a time from the slices kept
 * (scripts/datasetSlices.ts) and the reference tables: a sliced table's CSV is its slices' records
 * one after the other, its Parquet file its row groups, each kept with the slices
 * (scripts/datasetGroups.ts) or encoded from the rows of the slices it holds, never the whole
 * table at once. Run on a thread of the datasets' pool beside the one building the database, or
 * on the caller's thread.
 */
import { join } from "node:path";
import type { AnyTable, Cell, ColumnType } from "../src/api/datasets/columns.js";
import { tableFilePath, type DatasetFormat } from "../src/api/datasets/files.js";
import { TABLES } from "../src/api/datasets/tables.js";
import { cellsOf, csvHeaderOf, csvOf, parquetGroupOf, parquetOf, parquetOfGroups, ROW_GROUP_ROWS } from "../src/api/datasets/write.js";
import type { Catalog } from "../src/theory/catalog.js";
import type { TuningSystem } from "../src/theory/tuningSystem.js";
import { groupKeyOf, groupLayout, keptGroup, writeGroup } from "./datasetGroups.js";
import { keyOf, sliceTableOf, type SliceDirs } from "./datasetSlices.js";
import { writeParts } from "./fileParts.js";

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

/** A sliced table's Parquet file: the groups kept are placed as they are, the others encoded from their slices' rows (and kept). */
function slicedParquet(cat: Catalog, table: AnyTable, slices: readonly Slice[], dirs: SliceDirs, groupRows: number): { bytes: Uint8Array; encoded: number } {
  const byKey = new Map(slices.map((s) => [s.key, s]));
  // The last slice read, as a large slice's rows fill several groups.
  let last: { key: string; rows: Cell[][] } | undefined;
  const rowsOf = (key: string): Cell[][] => {
    if (last?.key !== key) {
      const slice = byKey.get(key);
      if (!slice) throw new Error(`datasets: no slice ${key} in ${table.name}`);
      last = { key, rows: sliceTableOf(cat, slice.ts, key, dirs.into, table, "rows").rows };
    }
    return last.rows;
  };
  let encoded = 0;
  const groups = groupLayout(slices, groupRows).map((parts) => {
    const key = groupKeyOf(table, parts);
    const kept = keptGroup(dirs, key);
    if (kept) return kept;
    const group = parquetGroupOf(
      table,
      parts.flatMap((p) => rowsOf(p.key).slice(p.from, p.to)),
    );
    writeGroup(dirs.into, key, group);
    encoded += 1;
    return group;
  });
  return { bytes: parquetOfGroups(table, groups), encoded };
}

/** The dictionary's entries of the tables' files, and how many row groups were encoded (the others were kept). */
export interface TableFiles {
  tables: DictionaryTable[];
  encoded: number;
}

interface Slice {
  ts: TuningSystem;
  key: string;
  rows: number;
}

/**
 * Writes every table's CSV and Parquet files into `apiDir` (build/api) and returns the dictionary's
 * entries of them, in the tables' order. A sliced table's CSV is its header and its slices' records;
 * its Parquet file is made of row groups kept with the slices where they are unchanged.
 */
export function writeTableFiles(apiDir: string, cat: Catalog, keys: ReadonlyMap<string, string>, dirs: SliceDirs, groupRows = ROW_GROUP_ROWS): TableFiles {
  const write = (path: string, parts: Iterable<Uint8Array>): FileEntry => ({ url: urlOf(path), bytes: writeParts(join(apiDir, path.slice(1)), parts) });
  const tables: DictionaryTable[] = [];
  let encoded = 0;
  for (const table of TABLES) {
    let files: DictionaryTable["files"];
    let rows: number;
    if (table.rowsOf) {
      const slices: Slice[] = [];
      const csv = write(
        tableFilePath(table.name, "csv"),
        (function* () {
          yield Buffer.from(csvHeaderOf(table));
          for (const ts of cat.tuningSystems) {
            const key = keyOf(keys, ts);
            // One slice's records at a time, let go once written.
            const { csv, length } = sliceTableOf(cat, ts, key, dirs.into, table, "csv");
            slices.push({ ts, key, rows: length });
            yield csv;
          }
        })(),
      );
      const parquet = slicedParquet(cat, table, slices, dirs, groupRows);
      encoded += parquet.encoded;
      files = { csv, parquet: write(tableFilePath(table.name, "parquet"), [parquet.bytes]) };
      rows = slices.reduce((n, s) => n + s.rows, 0);
    } else {
      const cells = cellsOf(cat, table);
      files = {
        csv: write(tableFilePath(table.name, "csv"), [csvOf(cells)]),
        parquet: write(tableFilePath(table.name, "parquet"), [parquetOf(cells, groupRows)]),
      };
      rows = cells.rows.length;
    }
    const columns = table.columns.map(({ name, type, unit, about }) => ({ name, type, ...(unit ? { unit } : {}), about }));
    tables.push({ name: table.name, about: table.about, row: table.row, rows, columns, files });
  }
  return { tables, encoded };
}
