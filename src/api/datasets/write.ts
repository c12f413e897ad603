/**
 * The tables as files: the cells of a table computed once, column by column, then written as CSV
 * (RFC 4180, below) and Parquet (hyparquet-writer). Pure and synchronous; the database is written
 * by the build (scripts/datasets.ts), which loads SQLite's WebAssembly.
 */
import { ByteWriter, ParquetWriter, schemaFromColumnData, type BasicType } from "hyparquet-writer";
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

/**
 * RFC 4180: CRLF line ends, a field quoted where it holds a comma, quote or line end (its quotes
 * doubled), a number as JavaScript writes it, null an empty field. Three rules, written here: a
 * general CSV library spent a tenth of the datasets' CPU deciding them again for every field.
 */
const QUOTED = /[",\r\n]/;
const csvField = (cell: Cell): string => {
  if (cell === null) return "";
  if (typeof cell === "number") return String(cell);
  return QUOTED.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
};
const csvRecord = (cells: readonly Cell[]): string => `${cells.map(csvField).join(",")}\r\n`;

/** The header row of a table's CSV file. */
export const csvHeaderOf = (table: AnyTable): string => csvRecord(table.columns.map((c) => c.name));

/** Rows as CSV records, each ending in CRLF: a file is its header and the records of its rows, part after part. */
export const csvRecordsOf = (rows: readonly Cell[][]): string => rows.map(csvRecord).join("");

/** A table as one CSV file: a header row, then its rows. */
export const csvOf = ({ table, rows }: TableCells): Uint8Array => new TextEncoder().encode(csvHeaderOf(table) + csvRecordsOf(rows));

const PARQUET_TYPE: Record<ColumnType, BasicType> = { text: "STRING", integer: "INT32", real: "DOUBLE" };

/** Row groups small enough for a reader over HTTP to fetch only those a query needs. */
const ROW_GROUP_ROWS = 50_000;

/** A table's Parquet file made as its rows come, a part at a time: the bytes of `parquetOf` over all of them, without holding them all. */
export interface ParquetParts {
  add: (rows: readonly Cell[][]) => void;
  finish: () => Uint8Array;
}

export function parquetWriterOf(table: AnyTable): ParquetParts {
  const columns = table.columns.map((c) => ({ name: c.name, type: PARQUET_TYPE[c.type], nullable: true }));
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: schemaFromColumnData({ columnData: columns.map((c) => ({ ...c, data: [] })) }),
    createdBy: "maqam-archive-api",
  });
  // Rows are handed over a whole row group at a time, so the groups are those of one write of them all.
  let pending: Cell[][] = [];
  const write = (rows: Cell[][]) => parquet.write({ columnData: columns.map((c, k) => ({ ...c, data: rows.map((r) => r[k]) })), rowGroupSize: ROW_GROUP_ROWS });
  return {
    add: (rows) => {
      for (const row of rows) {
        pending.push(row);
        if (pending.length === ROW_GROUP_ROWS) {
          write(pending);
          pending = [];
        }
      }
    },
    finish: () => {
      if (pending.length > 0) write(pending);
      pending = [];
      parquet.finish();
      return new Uint8Array(writer.getBuffer());
    },
  };
}

export const parquetOf = ({ table, rows }: TableCells): Uint8Array => {
  const parquet = parquetWriterOf(table);
  parquet.add(rows);
  return parquet.finish();
};
