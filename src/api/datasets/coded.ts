/**
 * The coded layout of the SQLite database. Each table's rows live in `<table>_coded`, where every
 * text cell is the id of its text in one `labels` table (id, text), and the value formats of a
 * pitch (a column group, columns.ts) are the id of that combination in `pitch_values`; the table
 * itself is a view that joins them back — same name, columns, order and values as the CSV and
 * Parquet files. Texts and pitches repeat (tuning system ids, note names, a scale's degrees in
 * every rendering), so a small integer replaces each; ids go by frequency, most frequent first, so
 * the common ones take one byte or none.
 */
import type { AnyTable, Cell, Column, ColumnType } from "./columns.js";

export const LABELS_TABLE = "labels";
export const codedName = (table: string) => `${table}_coded`;
const groupId = (group: string) => `${group}_id`;

/** Text cells are coded; integers and reals are stored as they are (in a group's table, texts too). */
const CODED_TYPE: Record<ColumnType, string> = { text: "INTEGER", integer: "INTEGER", real: "REAL" };
const PLAIN_TYPE: Record<ColumnType, string> = { text: "TEXT", integer: "INTEGER", real: "REAL" };

/** The database's page size, set before any table: a page size applies to a database without tables. */
export const PAGE_SIZE = 4096;
export const PRAGMAS = `PRAGMA page_size = ${PAGE_SIZE}`;
export const LABELS_SQL = `CREATE TABLE ${LABELS_TABLE} (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)`;

type AnyColumn = Column<never>;

/**
 * Where a stored column's value comes from in a row: a text cell (coded by `labels`), a number
 * cell (stored as it is), or a group's cells (coded by the group's table).
 */
export type StoredSlot = { kind: "text"; at: number } | { kind: "number"; at: number } | { kind: "group"; group: string; at: number[] };

/** The columns of the coded table: a group's columns become one id column where the group's first stands. */
interface StoredColumn {
  name: string;
  type: string;
  slot: StoredSlot;
}

function storedColumns(table: AnyTable): StoredColumn[] {
  const columns = table.columns as readonly AnyColumn[];
  const groups = groupsOf(table);
  return columns.flatMap((c, k): StoredColumn[] => {
    if (!c.group) return [{ name: c.name, type: CODED_TYPE[c.type], slot: c.type === "text" ? { kind: "text", at: k } : { kind: "number", at: k } }];
    const members = groups.get(c.group) ?? [];
    if (members[0] !== c) return [];
    return [{ name: groupId(c.group), type: "INTEGER", slot: { kind: "group", group: c.group, at: members.map((m) => columns.indexOf(m)) } }];
  });
}

/** The stored columns' slots, in the coded table's order. */
export const storedSlots = (table: AnyTable): StoredSlot[] => storedColumns(table).map((c) => c.slot);

const groupsOf = (table: AnyTable): Map<string, AnyColumn[]> => {
  const groups = new Map<string, AnyColumn[]>();
  for (const c of table.columns as readonly AnyColumn[]) if (c.group) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  return groups;
};

export const codedTableSql = (table: AnyTable): string =>
  `CREATE TABLE ${codedName(table.name)} (${storedColumns(table)
    .map((c) => `${c.name} ${c.type}`)
    .join(", ")})`;

export const insertSql = (table: AnyTable): string =>
  `INSERT INTO ${codedName(table.name)} VALUES (${storedColumns(table)
    .map(() => "?")
    .join(", ")})`;

const groupTableSql = (group: string, columns: readonly AnyColumn[]): string =>
  `CREATE TABLE ${group} (id INTEGER PRIMARY KEY, ${columns.map((c) => `${c.name} ${PLAIN_TYPE[c.type]}`).join(", ")})`;

/**
 * The view of a table. A text column an index names is joined to `labels` (a LEFT JOIN on its
 * primary key, so a null cell stays null): a filter on its text finds the id through the index
 * on `labels.text`, then the rows through the table's index. Every other coded column is a
 * subquery on a primary key, which SQLite evaluates only when a query reads that column, so an
 * index holding the columns a query reads answers it without the table's rows. The coded table
 * is the outer loop: `SELECT *` lists its rows in their order.
 */
export function tableViewSql(table: AnyTable): string {
  const columns = table.columns as readonly AnyColumn[];
  const joined = new Set(table.indexes.flat());
  const isJoined = (c: AnyColumn) => c.type === "text" && !c.group && joined.has(c.name);
  const select = columns
    .map((c, k) => {
      if (c.group) return `(SELECT ${c.name} FROM ${c.group} WHERE id = b.${groupId(c.group)})`;
      if (c.type !== "text") return `b.${c.name}`;
      return isJoined(c) ? `l${k}.text` : `(SELECT text FROM ${LABELS_TABLE} WHERE id = b.${c.name})`;
    })
    .map((expression, k) => `${expression} AS ${columns[k].name}`)
    .join(", ");
  const joins = columns.flatMap((c, k) => (isJoined(c) ? [` LEFT JOIN ${LABELS_TABLE} l${k} ON l${k}.id = b.${c.name}`] : []));
  return `CREATE VIEW ${table.name} AS SELECT ${select} FROM ${codedName(table.name)} b${joins.join("")}`;
}

/** The indexes of a table (the common joins), on its coded columns. */
export function indexSql(table: AnyTable): string[] {
  const stored = new Set(storedColumns(table).map((c) => c.name));
  return table.indexes.map((columns) => {
    const missing = columns.find((c) => !stored.has(c));
    if (missing) throw new Error(`${table.name}: the index on ${columns.join(", ")} names ${missing}, which is not a column of the coded table`);
    return `CREATE INDEX ${table.name}_by_${columns.join("_")} ON ${codedName(table.name)} (${columns.join(", ")})`;
  });
}

/** The texts and group values coded so far, and their ids. */
export interface Codes {
  labels: Map<string, number>;
  groups: Map<string, Map<string, number>>;
}

export const newCodes = (): Codes => ({ labels: new Map(), groups: new Map() });

/** Ids for the keys counted, most frequent first, after those already given. */
function addByFrequency(ids: Map<string, number>, counts: ReadonlyMap<string, number>): [number, string][] {
  const added = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([key], k): [number, string] => [ids.size + k, key]);
  for (const [id, key] of added) ids.set(key, id);
  return added;
}

const count = (counts: Map<string, number>, key: string, n = 1) => counts.set(key, (counts.get(key) ?? 0) + n);

/** How often each text, and each group's combination of values (as JSON), occurs in a table's rows. */
export interface TableCounts {
  labels: Map<string, number>;
  groups: Map<string, Map<string, number>>;
}

const textColumns = (table: AnyTable): number[] => (table.columns as readonly AnyColumn[]).flatMap((c, k) => (c.type === "text" && !c.group ? [k] : []));
const groupColumns = (table: AnyTable) =>
  [...groupsOf(table)].map(([name, members]) => ({ name, members, at: members.map((m) => (table.columns as readonly AnyColumn[]).indexOf(m)) }));
/** A group's combination of values in a row, as the counts and the group's ids name it. */
export const groupValuesKey = (row: readonly Cell[], at: readonly number[]) => JSON.stringify(at.map((k) => row[k]));

/** No rows counted yet. */
export const newCounts = (): TableCounts => ({ labels: new Map(), groups: new Map() });

/** The counts of a table's rows (which may come a part at a time). */
export function countsOf(table: AnyTable, rows: Iterable<readonly Cell[]>): TableCounts {
  const texts = textColumns(table);
  const groups = groupColumns(table).map((g) => ({ ...g, counts: new Map<string, number>() }));
  const labels = new Map<string, number>();
  for (const row of rows) {
    for (const k of texts) {
      const cell = row[k];
      if (typeof cell === "string") count(labels, cell);
    }
    for (const g of groups) count(g.counts, groupValuesKey(row, g.at));
  }
  return { labels, groups: new Map(groups.map((g) => [g.name, g.counts])) };
}

/** Adds the counts of more rows of the same table (another part of it). */
export function addCounts(into: TableCounts, more: TableCounts): TableCounts {
  for (const [text, n] of more.labels) count(into.labels, text, n);
  for (const [name, counts] of more.groups) {
    const sum = into.groups.get(name) ?? new Map<string, number>();
    into.groups.set(name, sum);
    for (const [key, n] of counts) count(sum, key, n);
  }
  return into;
}

/** A table's coding: the SQL and rows that create what it adds to the database, and how to code one row. */
export interface TableCoding {
  /** CREATE TABLE of the groups met for the first time. */
  create: string[];
  /** New rows of `labels` and of each group's table, as INSERT statements and their parameters. */
  inserts: { sql: string; rows: Cell[][] }[];
  /** One row coded (one at a time, so a large table is not held twice). */
  code: (row: Cell[]) => Cell[];
}

/** Those of the counts not coded yet. */
const uncoded = (counts: ReadonlyMap<string, number>, ids: ReadonlyMap<string, number>) => new Map([...counts].filter(([key]) => !ids.has(key)));

/** The coding of a table from the counts of its rows: ids for the texts and combinations not yet coded, most frequent first. */
export function codingOf(codes: Codes, table: AnyTable, counts: TableCounts): TableCoding {
  const groups = groupColumns(table);
  const create: string[] = [];
  for (const g of groups) {
    if (codes.groups.has(g.name)) continue;
    codes.groups.set(g.name, new Map());
    create.push(groupTableSql(g.name, g.members));
  }
  const idsOf = (group: string) => codes.groups.get(group) ?? new Map<string, number>();
  const inserts: TableCoding["inserts"] = [
    { sql: `INSERT INTO ${LABELS_TABLE} VALUES (?, ?)`, rows: addByFrequency(codes.labels, uncoded(counts.labels, codes.labels)) },
  ];
  for (const g of groups) {
    const ids = idsOf(g.name);
    inserts.push({
      sql: `INSERT INTO ${g.name} VALUES (${["?", ...g.at.map(() => "?")].join(", ")})`,
      rows: addByFrequency(ids, uncoded(counts.groups.get(g.name) ?? new Map(), ids)).map(([id, key]) => [id, ...(JSON.parse(key) as Cell[])]),
    });
  }
  // Each stored column's value, decided once per column rather than once per cell.
  const stored = storedSlots(table).map((slot): ((row: Cell[]) => Cell) => {
    if (slot.kind === "number") return (row) => row[slot.at];
    if (slot.kind === "text") return (row) => (typeof row[slot.at] === "string" ? (codes.labels.get(row[slot.at] as string) ?? null) : row[slot.at]);
    const ids = idsOf(slot.group);
    return (row) => ids.get(groupValuesKey(row, slot.at)) ?? null;
  });
  const code = (row: Cell[]): Cell[] => stored.map((value) => value(row));
  return { create, inserts, code };
}

/** The coding of a table from one pass over its rows (which may come a part at a time, and be read again to be coded). */
export const codeTable = (codes: Codes, table: AnyTable, rows: Iterable<readonly Cell[]>): TableCoding => codingOf(codes, table, countsOf(table, rows));
