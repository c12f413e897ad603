/**
 * The SQLite database of the datasets (sql.js) in the coded layout (src/api/datasets/coded.ts):
 * every table's rows in order, their indexes and views, statistics for the planner, the pages
 * packed. The same rows in the same order give the same bytes, so it may be built on a thread of
 * its own while the CSV and Parquet files are written (scripts/datasets.ts).
 */
import initSqlJs, { type Database } from "sql.js";
import type { AnyTable, Cell } from "../src/api/datasets/columns.js";
import { codedTableSql, insertSql, codeTable, indexSql, LABELS_SQL, newCodes, PRAGMAS, tableViewSql, type Codes } from "../src/api/datasets/coded.js";
import { VIEWS } from "../src/api/datasets/tables.js";

/**
 * How the build writes, none of it kept in the file (the same bytes as without): no rollback
 * journal (a failed build is written again), sorting and pages in memory.
 */
const BUILD_PRAGMAS = "PRAGMA journal_mode = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -400000";

/** A table in the coded layout: its new labels, its coded rows, its indexes and its view. */
function createTable(db: Database, codes: Codes, table: AnyTable, rows: Cell[][]): void {
  const { create, inserts, code } = codeTable(codes, table, rows);
  for (const sql of [...create, codedTableSql(table)]) db.run(sql);
  db.run("BEGIN");
  for (const { sql, rows: added } of inserts) {
    const statement = db.prepare(sql);
    for (const row of added) statement.run(row);
    statement.free();
  }
  const insert = db.prepare(insertSql(table));
  for (const row of rows) insert.run(code(row));
  insert.free();
  db.run("COMMIT");
  for (const sql of indexSql(table)) db.run(sql);
  db.run(tableViewSql(table));
}

/** The database of the tables, each given with its rows, in their order (one table's rows are held at a time when they come from a generator). */
export async function databaseOf(tables: Iterable<{ table: AnyTable; rows: Cell[][] }>): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  try {
    db.run(PRAGMAS);
    db.exec(BUILD_PRAGMAS);
    db.run(LABELS_SQL);
    const codes = newCodes();
    for (const { table, rows } of tables) createTable(db, codes, table, rows);
    for (const view of VIEWS) db.run(`CREATE VIEW ${view.name} AS ${view.sql}`);
    // Statistics for the planner (a query over HTTP reads only the pages its plan touches), then the pages packed.
    db.run("ANALYZE");
    db.run("VACUUM");
    return db.export();
  } finally {
    db.close();
  }
}
