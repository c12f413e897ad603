/**
 * Writes the datasets under `<api>/datasets/`: every table as CSV and Parquet, one SQLite database
 * of them all (sql.js) with indexes and views, and the data dictionary (index.json) with row
 * counts and bytes. One table's cells are held at a time. `npx tsx scripts/datasets.ts <dir>`
 * writes them alone and prints the time and memory they cost; `--docs` also regenerates the
 * dictionary in docs/datasets.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import initSqlJs, { type Database } from "sql.js";
import type { AnyTable, Cell, ColumnType } from "../src/api/datasets/columns.js";
import { codedTableSql, insertSql, codeTable, indexSql, LABELS_SQL, newCodes, PRAGMAS, tableViewSql, type Codes } from "../src/api/datasets/coded.js";
import { TABLES, VIEWS } from "../src/api/datasets/tables.js";
import { DATABASE_NAME, DATASET_FORMATS, DICTIONARY_FILE, tableFilePath, type DatasetFormat } from "../src/api/datasets/files.js";
import { cellsOf, csvOf, parquetOf } from "../src/api/datasets/write.js";
import type { Catalog } from "../src/theory/catalog.js";

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

/** A table in the coded layout (src/api/datasets/coded.ts): its new labels, its coded rows, its indexes and its view. */
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

/** Writes every dataset file into `apiDir` (build/api) and returns the dictionary it wrote. */
export async function writeDatasets(apiDir: string, cat: Catalog): Promise<Dictionary> {
  const dir = join(apiDir, "datasets");
  mkdirSync(dir, { recursive: true });
  const write = (path: string, bytes: Uint8Array): FileEntry => {
    writeFileSync(join(apiDir, path.slice(1)), bytes);
    return { url: urlOf(path), bytes: bytes.length };
  };
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(PRAGMAS);
  db.run(LABELS_SQL);
  const codes = newCodes();
  const tables: DictionaryTable[] = [];
  for (const table of TABLES) {
    const cells = cellsOf(cat, table);
    const files = { csv: write(tableFilePath(table.name, "csv"), csvOf(cells)), parquet: write(tableFilePath(table.name, "parquet"), parquetOf(cells)) };
    createTable(db, codes, table, cells.rows);
    const columns = table.columns.map(({ name, type, unit, about }) => ({ name, type, ...(unit ? { unit } : {}), about }));
    tables.push({ name: table.name, about: table.about, row: table.row, rows: cells.rows.length, columns, files });
  }
  for (const view of VIEWS) db.run(`CREATE VIEW ${view.name} AS ${view.sql}`);
  // Statistics for the planner (a query over HTTP reads only the pages its plan touches), then the pages packed.
  db.run("ANALYZE");
  db.run("VACUUM");
  const database = write(tableFilePath(DATABASE_NAME, "sqlite"), db.export());
  db.close();
  const formats = Object.fromEntries(Object.entries(DATASET_FORMATS).map(([k, v]) => [k, v.name])) as Record<DatasetFormat, string>;
  const dictionary: Dictionary = { formats, tables, database: { ...database, views: VIEWS.map((v) => ({ ...v })) } };
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
  const started = performance.now();
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const dictionary = await writeDatasets(out, createCatalog(readFacts(process.env.DATA_DIR), "build"));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (process.argv.includes("--docs")) writeDictionaryDoc(dictionary);
  const bytes = dictionary.tables.reduce((n, t) => n + t.files.csv.bytes + t.files.parquet.bytes, dictionary.database.bytes);
  console.log(
    `datasets: ${dictionary.tables.length} tables, ${dictionary.tables.reduce((n, t) => n + t.rows, 0)} rows, ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS ${(peak / 1e6).toFixed(0)} MB`,
  );
}
