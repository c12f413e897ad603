/**
 * A part of a table's rows packed as numbers, so that it is read back without parsing: one
 * float64 per row and stored column of the coded layout (coded.ts) — a text by its index among
 * the part's texts, a group's combination of values by its index among the part's combinations
 * (both in the order of the part's counts, which name them), a number as it is, null as NaN.
 * A number is kept as JSON would keep it (-0 as 0, one JSON has no text for as null), so the
 * cells unpacked are those of the rows as JSON. The database codes a part from its packed rows
 * (ids looked up once per text and combination, not once per cell); the Parquet writer unpacks it.
 */
import type { AnyTable, Cell } from "./columns.js";
import { type Codes, groupValuesKey, newCounts, storedSlots, type TableCounts } from "./coded.js";

const asJson = (n: number) => (Number.isFinite(n) ? n + 0 : Number.NaN);

/** A part's rows packed, and their counts (as countsOf makes them): one pass, each group's values made a key once per row. */
export function packRows(table: AnyTable, rows: readonly (readonly Cell[])[]): { packed: Float64Array; counts: TableCounts } {
  const slots = storedSlots(table);
  const counts = newCounts();
  // A key's index is its place in its count's order: the order in which the rows first hold it.
  const noted = (count: Map<string, number>, index: Map<string, number>, key: string): number => {
    const known = index.get(key);
    if (known !== undefined) {
      count.set(key, (count.get(key) ?? 0) + 1);
      return known;
    }
    index.set(key, index.size);
    count.set(key, 1);
    return index.size - 1;
  };
  const labelIndex = new Map<string, number>();
  const slotGroups = slots.map((slot) => {
    if (slot.kind !== "group") return undefined;
    const count = counts.groups.get(slot.group) ?? new Map<string, number>();
    counts.groups.set(slot.group, count);
    return { count, index: new Map<string, number>() };
  });
  const packed = new Float64Array(rows.length * slots.length);
  rows.forEach((row, r) => {
    slots.forEach((slot, s) => {
      const at = r * slots.length + s;
      if (slot.kind === "group") {
        const group = slotGroups[s];
        packed[at] = group ? noted(group.count, group.index, groupValuesKey(row, slot.at)) : Number.NaN;
        return;
      }
      const cell = row[slot.at];
      if (cell === null) packed[at] = Number.NaN;
      else if (slot.kind === "text") {
        if (typeof cell !== "string") throw new Error(`${table.name}: the text column ${table.columns[slot.at].name} holds the number ${cell}`);
        packed[at] = noted(counts.labels, labelIndex, cell);
      } else {
        if (typeof cell !== "number") throw new Error(`${table.name}: the number column ${table.columns[slot.at].name} holds the text ${cell}`);
        packed[at] = asJson(cell);
      }
    });
  });
  return { packed, counts };
}

/** How each stored column's packed value becomes a cell, decided once per column. */
function readers<T>(table: AnyTable, counts: TableCounts, label: (text: string) => T, group: (name: string, key: string) => T) {
  const texts = [...counts.labels.keys()].map(label);
  return storedSlots(table).map((slot) => {
    if (slot.kind === "number") return { slot, of: (v: number): T | number | null => (Number.isNaN(v) ? null : v) };
    const values = slot.kind === "text" ? texts : [...(counts.groups.get(slot.group)?.keys() ?? [])].map((key) => group(slot.group, key));
    return { slot, of: (v: number): T | number | null => (Number.isNaN(v) ? null : values[v]) };
  });
}

/** Packed rows back to their cells. */
export function unpackRows(table: AnyTable, packed: Float64Array, counts: TableCounts): Cell[][] {
  const read = readers(
    table,
    counts,
    (text): Cell[] => [text],
    (_, key) => JSON.parse(key) as Cell[],
  );
  const width = read.length;
  const rows: Cell[][] = [];
  for (let at = 0; at < packed.length; at += width) {
    const row: Cell[] = new Array(table.columns.length).fill(null);
    read.forEach(({ slot, of }, s) => {
      const value = of(packed[at + s]);
      if (slot.kind === "number") row[slot.at] = value as number | null;
      else if (slot.kind === "text") row[slot.at] = value === null ? null : (value as Cell[])[0];
      else
        slot.at.forEach((k, m) => {
          row[k] = value === null ? null : (value as Cell[])[m];
        });
    });
    rows.push(row);
  }
  return rows;
}

/** Packed rows coded for the database's table: each text and combination's id in `codes`, found once per part. */
export function* codedRowsOf(table: AnyTable, packed: Float64Array, counts: TableCounts, codes: Codes): Generator<Cell[]> {
  const read = readers(
    table,
    counts,
    (text) => codes.labels.get(text) ?? null,
    (name, key) => codes.groups.get(name)?.get(key) ?? null,
  );
  const width = read.length;
  for (let at = 0; at < packed.length; at += width) yield read.map(({ of }, s) => of(packed[at + s]));
}
