/**
 * The tables as files: the cells of a table computed once, column by column, then written as CSV
 * (csv-stringify) and Parquet (hyparquet-writer). Pure and synchronous; the database is written
 * by the build (scripts/datasets.ts), which loads SQLite's WebAssembly.
 */
import { stringify } from "csv-stringify/sync";
import { parquetWriteBuffer, type BasicType } from "hyparquet-writer";
import type { AnyTable, Cell, ColumnType } from "./columns.js";
import type { Catalog } from "../../theory/catalog.js";

/** A table's cells, row by row, in the order of its rows and columns. */
export interface TableCells {
  table: AnyTable;
  rows: Cell[][];
}

export function cellsOf(cat: Catalog, table: AnyTable): TableCells {
  const rows: Cell[][] = [];
  for (const row of table.rows(cat)) rows.push(table.columns.map((c) => c.value(row)));
  return { table, rows };
}

/** RFC 4180: CRLF line ends, fields quoted where they hold a comma, quote or line end, a header row; null is an empty field. */
export const csvOf = ({ table, rows }: TableCells): Uint8Array =>
  new TextEncoder().encode(
    stringify(rows, {
      header: true,
      columns: table.columns.map((c) => c.name),
      record_delimiter: "\r\n",
      cast: { number: (x) => String(x) },
    }),
  );

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
