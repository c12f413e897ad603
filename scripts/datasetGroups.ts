/**
 * The Parquet row groups of the sliced tables, kept between builds beside the slices
 * (scripts/datasetSlices.ts). A table's rows are those of its slices one after the other: a small
 * table's in one group, a larger table's each slice's cut into groups of at most ROW_GROUP_ROWS
 * rows (groupLayout); a group is named by a hash of the slices' keys and the ranges of their rows it
 * holds, so a build after one tuning system changed encodes again only that tuning system's groups
 * (and a small table's one group), and places the others as they were encoded: the file is the
 * bytes of one encoding of every row.
 *
 * A kept file: one line of JSON (its key, rows, bytes and the SHA-256 of what follows), the
 * group's bytes, then its metadata as JSON (integers of 64 bits, byte strings and numbers JSON
 * cannot write tagged). A file whose key or checksum does not match, or that does not parse, is
 * not trusted: its group is encoded again.
 */
import { createHash } from "node:crypto";
import { existsSync, linkSync } from "node:fs";
import { join } from "node:path";
import type { AnyTable } from "../src/api/datasets/columns.js";
import type { ParquetGroup } from "../src/api/datasets/write.js";
import { keepWhole, readKept } from "./datasetSlices.js";

/** A slice's rows in a group: the slice's key and the range [from, to) of its rows. */
export interface GroupPart {
  key: string;
  from: number;
  to: number;
}

/**
 * The groups of a table whose slices hold the rows given, in order: each a list of the slices' ranges
 * it holds. A table of at most `groupRows` rows is one group. A larger one has groups of one slice's
 * rows (one tuning system's), at most `groupRows` of them: their bounds depend on that slice alone,
 * so a change of one tuning system encodes again only its own groups, whatever its number of rows;
 * and a reader filtering on a tuning system skips the other groups by their statistics.
 */
export function groupLayout(slices: readonly { key: string; rows: number }[], groupRows: number): GroupPart[][] {
  const filled = slices.filter((s) => s.rows > 0);
  if (filled.reduce((n, s) => n + s.rows, 0) <= groupRows) return filled.length ? [filled.map(({ key, rows }) => ({ key, from: 0, to: rows }))] : [];
  const groups: GroupPart[][] = [];
  for (const { key, rows } of filled) for (let from = 0; from < rows; from += groupRows) groups.push([{ key, from, to: Math.min(rows, from + groupRows) }]);
  return groups;
}

/** The key of a table's group: what it holds, by slice and range. */
export const groupKeyOf = (table: AnyTable, parts: readonly GroupPart[]): string =>
  createHash("sha256")
    .update(`parquet group 1\0${table.name}\0${JSON.stringify(parts)}`)
    .digest("hex");

const fileOf = (dir: string, key: string) => join(dir, `${key}.group`);

interface GroupHead {
  key: string;
  rows: number;
  bytes: number;
  sha256: string;
}

/** JSON of the metadata: 64-bit integers, byte strings, and the numbers JSON has no text for, tagged. */
const tagged = (_: string, value: unknown): unknown => {
  if (typeof value === "bigint") return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.length).toString("base64") };
  if (ArrayBuffer.isView(value)) throw new Error("datasets: a row group's metadata holds an array of a kind not kept");
  if (typeof value === "number" && (!Number.isFinite(value) || Object.is(value, -0))) return { $number: String(Object.is(value, -0) ? "-0" : value) };
  return value;
};

const untagged = (_: string, value: unknown): unknown => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1) return value;
  const v = (value as Record<string, unknown>)[keys[0]];
  if (typeof v !== "string") return value;
  if (keys[0] === "$bigint") return BigInt(v);
  if (keys[0] === "$bytes") return new Uint8Array(Buffer.from(v, "base64"));
  if (keys[0] === "$number") return Number(v);
  return value;
};

/** Keeps a group's encoding. */
export function writeGroup(dir: string, key: string, group: ParquetGroup): void {
  const meta = Buffer.from(JSON.stringify({ rowGroup: group.rowGroup, indexes: group.indexes.map(({ chunk: _, ...index }) => index) }, tagged));
  const digest = createHash("sha256").update(group.bytes).update(meta).digest("hex");
  const head: GroupHead = { key, rows: group.rows, bytes: group.bytes.length, sha256: digest };
  keepWhole(fileOf(dir, key), [Buffer.from(`${JSON.stringify(head)}\n`), group.bytes, meta]);
}

/** A kept group, when its file is there and is what its name says; undefined otherwise. */
export function readGroup(dir: string, key: string): ParquetGroup | undefined {
  try {
    const kept = readKept<GroupHead>(fileOf(dir, key));
    if (!kept) return undefined;
    const { head, body } = kept;
    if (head.key !== key || createHash("sha256").update(body).digest("hex") !== head.sha256) return undefined;
    const meta = JSON.parse(body.subarray(head.bytes).toString(), untagged) as Pick<ParquetGroup, "rowGroup"> & {
      indexes: Omit<ParquetGroup["indexes"][number], "chunk">[];
    };
    if (meta.indexes.length !== meta.rowGroup.columns.length) return undefined;
    const indexes = meta.indexes.map((index, k) => ({ ...index, chunk: meta.rowGroup.columns[k] }));
    return { rows: head.rows, bytes: new Uint8Array(body.subarray(0, head.bytes)), rowGroup: meta.rowGroup, indexes };
  } catch {
    return undefined;
  }
}

/** A kept group from the cache being made or, linked into it, from the previous one. */
export function keptGroup(dirs: { from?: string; into: string }, key: string): ParquetGroup | undefined {
  const here = readGroup(dirs.into, key);
  if (here || !dirs.from || dirs.from === dirs.into) return here;
  const there = readGroup(dirs.from, key);
  if (there && !existsSync(fileOf(dirs.into, key))) {
    try {
      linkSync(fileOf(dirs.from, key), fileOf(dirs.into, key));
    } catch {
      writeGroup(dirs.into, key, there);
    }
  }
  return there;
}
