/**
 * The SQLite database of the datasets (sql.js) in the coded layout (src/api/datasets/coded.ts):
 * every table's rows in order, their indexes and views, statistics for the planner. Each table is
 * written whole in turn, its index built by one sort, so its pages come out full and in order with
 * no free page left (VACUUM would rewrite the file for 0.07 % of its bytes). The same rows in the
 * same order give the same bytes, so it may be built on a thread of its own while the CSV and
 * Parquet files are written (scripts/datasets.ts).
 */
import { writeFileSync } from "node:fs";
import { collectGarbage } from "./heap.js";
import initSqlJs, { type Database } from "sql.js";
import type { AnyTable, Cell } from "../src/api/datasets/columns.js";
import {
  codedTableSql,
  codeTable,
  codingOf,
  indexSql,
  insertSql,
  LABELS_SQL,
  newCodes,
  PAGE_SIZE,
  PRAGMAS,
  tableViewSql,
  type Codes,
  type TableCounts,
} from "../src/api/datasets/coded.js";
import { codedRowsOf } from "../src/api/datasets/packed.js";
import { VIEWS } from "../src/api/datasets/tables.js";
import { emptyDatabaseImage } from "./sqliteImage.js";

/**
 * How the build writes, none of it kept in the file (the same bytes as without): no rollback
 * journal (a failed build is written again), sorting in memory, a page cache of 32 MB (sql.js
 * keeps the file itself in memory, so a larger cache only holds its pages twice).
 */
const BUILD_PRAGMAS = "PRAGMA journal_mode = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -32000";

/** The rows of a table a part at a time; read twice, to count its texts and then to insert them, so that a large table is never held whole. */
export type RowParts = () => Iterable<readonly Cell[][]>;

/** A part of a table's rows packed (src/api/datasets/packed.ts), with the counts that name its texts and combinations. */
export interface PackedPart {
  packed: Float64Array;
  counts: TableCounts;
}

/**
 * A table of the database: its rows, or, when they are kept with the slices, the counts of its
 * texts and groups' values (which code it) and its rows packed, a part at a time.
 */
export type DatabaseTable =
  | { table: AnyTable; parts: RowParts }
  | { table: AnyTable; packed: { counts: () => TableCounts; parts: () => Iterable<PackedPart> } };

function* rowsOf(parts: RowParts): Generator<Cell[]> {
  for (const part of parts()) yield* part;
}

/** A table in the coded layout: its new labels, its coded rows, its indexes and its view. The counts that code it are given, or counted in a first reading of its rows. */
function createTable(db: Database, codes: Codes, from: DatabaseTable): void {
  const { table } = from;
  const { create, inserts, code } = "packed" in from ? codingOf(codes, table, from.packed.counts()) : codeTable(codes, table, rowsOf(from.parts));
  for (const sql of [...create, codedTableSql(table)]) db.run(sql);
  db.run("BEGIN");
  for (const { sql, rows: added } of inserts) {
    const statement = db.prepare(sql);
    for (const row of added) statement.run(row);
    statement.free();
  }
  const insert = db.prepare(insertSql(table));
  if ("packed" in from) for (const part of from.packed.parts()) for (const row of codedRowsOf(table, part.packed, part.counts, codes)) insert.run(row);
  else for (const row of rowsOf(from.parts)) insert.run(code(row));
  insert.free();
  db.run("COMMIT");
  for (const sql of indexSql(table)) db.run(sql);
  db.run(tableViewSql(table));
}

/**
 * Writes the database of the tables, each given with its rows in parts, in their order, into
 * `file`; returns its bytes. Written here, so that the file's one copy in JS memory is not also
 * copied to the thread that asked. `sizeHint`, the bytes it is expected to take (the previous
 * build's), starts it on an empty file with room for that size and a sixteenth (scripts/sqliteImage.ts):
 * the same bytes, without the file's copies as it grows.
 */
export async function databaseOf(tables: Iterable<DatabaseTable>, file: string, sizeHint = 0): Promise<number> {
  const SQL = await initSqlJs();
  const pages = Math.ceil((sizeHint * 17) / 16 / PAGE_SIZE);
  const db = pages > 1 ? new SQL.Database(emptyDatabaseImage(pages, PAGE_SIZE)) : new SQL.Database();
  try {
    db.run(PRAGMAS);
    db.exec(BUILD_PRAGMAS);
    db.run(LABELS_SQL);
    const codes = newCodes();
    // sql.js holds the file in a buffer that grows by an eighth at a time, each step a new copy: collected after each
    // table, the old copies do not pile up (without, one run in three peaked at 850 MB and took three times as long).
    for (const table of tables) {
      createTable(db, codes, table);
      collectGarbage();
    }
    for (const view of VIEWS) db.run(`CREATE VIEW ${view.name} AS ${view.sql}`);
    // Statistics for the planner: a query over HTTP reads only the pages its plan touches.
    db.run("ANALYZE");
    const bytes = db.export();
    writeFileSync(file, bytes);
    return bytes.length;
  } finally {
    db.close();
  }
}
