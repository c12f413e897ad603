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
export const ROW_GROUP_ROWS = 50_000;

type RowGroup = ParquetWriter["row_groups"][number];
type PageIndexes = ParquetWriter["pendingIndexes"][number];

/**
 * One row group of a table's Parquet file, encoded alone: its bytes (its column chunks) and its
 * metadata, every offset counted from its first byte. A group's bytes do not depend on where it
 * stands in the file, so a group kept from an earlier file is placed in a new one as it is.
 */
export interface ParquetGroup {
  rows: number;
  bytes: Uint8Array;
  rowGroup: RowGroup;
  /** The page indexes of its column chunks, in their order (each one's `chunk` is the row group's). */
  indexes: PageIndexes[];
}

/** "PAR1", before the first row group. */
const MAGIC_BYTES = 4;

function writerOf(table: AnyTable, writer: ByteWriter) {
  const columns = table.columns.map((c) => ({ name: c.name, type: PARQUET_TYPE[c.type], nullable: true }));
  const parquet = new ParquetWriter({
    writer,
    schema: schemaFromColumnData({ columnData: columns.map((c) => ({ ...c, data: [] })) }),
    createdBy: "maqam-archive-api",
  });
  return { parquet, columns };
}

/** A group's metadata with its offsets moved by `by` bytes (new objects: a file's writer completes the chunks it is given). */
function moved(group: Pick<ParquetGroup, "rowGroup" | "indexes">, by: number): Pick<ParquetGroup, "rowGroup" | "indexes"> {
  const shift = (offset: bigint) => offset + BigInt(by);
  const columns = group.rowGroup.columns.map((chunk) => {
    const meta = chunk.meta_data;
    const metaMoved = meta && {
      ...meta,
      data_page_offset: shift(meta.data_page_offset),
      ...(meta.dictionary_page_offset === undefined ? {} : { dictionary_page_offset: shift(meta.dictionary_page_offset) }),
    };
    return { ...chunk, file_offset: shift(chunk.file_offset), ...(metaMoved ? { meta_data: metaMoved } : {}) };
  });
  const indexes = group.indexes.map((index, k) => ({
    ...index,
    chunk: columns[k],
    ...(index.offsetIndex ? { offsetIndex: { page_locations: index.offsetIndex.page_locations.map((p) => ({ ...p, offset: shift(p.offset) })) } } : {}),
  }));
  return { rowGroup: { ...group.rowGroup, columns }, indexes };
}

/** A table's rows as one row group, encoded alone. */
export function parquetGroupOf(table: AnyTable, rows: readonly Cell[][]): ParquetGroup {
  const writer = new ByteWriter();
  const { parquet, columns } = writerOf(table, writer);
  parquet.write({ columnData: columns.map((c, k) => ({ ...c, data: rows.map((r) => r[k]) })), rowGroupSize: Math.max(rows.length, 1) });
  const [rowGroup] = parquet.row_groups;
  if (parquet.row_groups.length !== 1 || parquet.pendingIndexes.length !== rowGroup.columns.length)
    throw new Error(`${table.name}: a row group of ${rows.length} rows was not encoded as one group with one index per column`);
  const bytes = writer.getBytes().slice(MAGIC_BYTES);
  return { rows: rows.length, bytes, ...moved({ rowGroup, indexes: parquet.pendingIndexes }, -MAGIC_BYTES) };
}

/** A table's Parquet file of its row groups, in order. */
export function parquetOfGroups(table: AnyTable, groups: Iterable<ParquetGroup>): Uint8Array {
  const writer = new ByteWriter();
  const { parquet } = writerOf(table, writer);
  for (const group of groups) {
    const placed = moved(group, writer.offset);
    writer.appendBytes(group.bytes);
    parquet.row_groups.push(placed.rowGroup);
    parquet.pendingIndexes.push(...placed.indexes);
    parquet.num_rows += BigInt(group.rows);
  }
  parquet.finish();
  return new Uint8Array(writer.getBuffer());
}

/** A table as one Parquet file, its rows in groups of `groupRows`. */
export function parquetOf({ table, rows }: TableCells, groupRows = ROW_GROUP_ROWS): Uint8Array {
  const groups: ParquetGroup[] = [];
  for (let at = 0; at < rows.length; at += groupRows) groups.push(parquetGroupOf(table, rows.slice(at, at + groupRows)));
  return parquetOfGroups(table, groups);
}
