/**
 * The tables as files: the cells of a table computed once, column by column, then written as CSV
 * (csv-stringify) and Parquet (hyparquet-writer). Pure and synchronous; the database is written
 * by the build (scripts/datasets.ts), which loads SQLite's WebAssembly.
 */
import { stringify } from "csv-stringify/sync";
import { parquetWriteBuffer, type BasicType } from "hyparquet-writer";
import type { AnyTable, Cell, ColumnType } from "./columns.js";
import type { Catalog } from "../../theory/catalog.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";

/** A table's cells, row by row, in the order of its rows and columns. */
export interface TableCells {
  table: AnyTable;
  rows: Cell[][];
}

/** A table's cells; with `ts`, those of one tuning system's rows (a table with `rowsOf`). */
export function cellsOf(cat: Catalog, table: AnyTable, ts?: TuningSystem): TableCells {
  const rows: Cell[][] = [];
  const source = ts ? table.rowsOf?.(cat, ts) : table.rows(cat);
  if (!source) throw new Error(`${table.name}: its rows are not made tuning system by tuning system`);
  for (const row of source) rows.push(table.columns.map((c) => c.value(row)));
  return { table, rows };
}

/** RFC 4180: CRLF line ends, fields quoted where they hold a comma, quote or line end; null is an empty field. */
const CSV_OPTIONS = { record_delimiter: "\r\n", cast: { number: (x: number) => String(x) } } as const;

/** The header row of a table's CSV file. */
export const csvHeaderOf = (table: AnyTable): string => stringify([], { ...CSV_OPTIONS, header: true, columns: table.columns.map((c) => c.name) });

/** Rows as CSV records, each ending in CRLF: a file is its header and the records of its rows, part after part. */
export const csvRecordsOf = (rows: readonly Cell[][]): string => stringify(rows as Cell[][], CSV_OPTIONS);

/** A table as one CSV file: a header row, then its rows. */
export const csvOf = ({ table, rows }: TableCells): Uint8Array => new TextEncoder().encode(csvHeaderOf(table) + csvRecordsOf(rows));

const PARQUET_TYPE: Record<ColumnType, BasicType> = { text: "STRING", integer: "INT32", real: "DOUBLE" };

/** Row groups small enough for a reader over HTTP to fetch only those a query needs. */
const ROW_GROUP_ROWS = 50_000;

export const parquetOf = ({ table, rows }: TableCells): Uint8Array =>
  new Uint8Array(
    parquetWriteBuffer({
      columnData: table.columns.map((c, k) => ({ name: c.name, type: PARQUET_TYPE[c.type], nullable: true, data: rows.map((r) => r[k]) })),
      rowGroupSize: ROW_GROUP_ROWS,
      createdBy: "maqam-archive-api",
    }),
  );
