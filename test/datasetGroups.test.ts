/**
 * The Parquet row groups kept with the slices (scripts/datasetGroups.ts), over a small archive
 * (three tuning systems) cut into small groups so that each table has several: a table's file
 * made of groups encoded apart is the bytes of one encoding of all its rows by hyparquet-writer,
 * groups kept and read back included; after one tuning system changed, only its own groups are
 * encoded again (those of the tuning systems after it are kept, though their rows moved), and the
 * files are those of a clean write; a corrupt kept group is encoded again.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parquetReadObjects } from "hyparquet";
import { ByteWriter, ParquetWriter, schemaFromColumnData } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import { writeTableFiles } from "../scripts/datasetFiles.js";
import { groupKeyOf, groupLayout, readGroup, writeGroup } from "../scripts/datasetGroups.js";
import { prepareSlices, SLICED_TABLES, sliceKeys, sliceTableOf } from "../scripts/datasetSlices.js";
import { engineDigest } from "../scripts/sliceHash.js";
import type { AnyTable, Cell } from "../src/api/datasets/columns.js";
import { cellsOf, parquetGroupOf, parquetOf, parquetOfGroups } from "../src/api/datasets/write.js";
import type { Facts } from "../src/data/facts.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";

const facts = readFacts();
const small: Facts = { ...facts, tuningSystems: facts.tuningSystems.slice(0, 3) };
/** The second of the three tuning systems, so that the third's groups come after its own; its 32/27 becomes 6/5 (between its neighbours 9/8 and 81/64). */
const altered = small.tuningSystems[1];
const changed: Facts = {
  ...small,
  tuningSystems: small.tuningSystems.map((ts) =>
    ts.id === altered.id ? { ...ts, tuningSystemPitchClasses: ts.tuningSystemPitchClasses.map((r, k) => (k === 3 ? "6/5" : r)) } : ts,
  ),
};
const GROUP_ROWS = 700;
const work = mkdtempSync(join(tmpdir(), "maqam-datasets-groups-"));
const dir = (name: string) => join(work, name);
const engine = engineDigest();

const table = (name: string): AnyTable => {
  const found = SLICED_TABLES.find((t) => t.name === name);
  if (!found) throw new Error(`no sliced table ${name}`);
  return found;
};

/** One write of all the rows by hyparquet-writer, as the build's writer is set up. */
function oneWrite(t: AnyTable, rows: readonly Cell[][], groupRows: number): Uint8Array {
  const type = { text: "STRING", integer: "INT32", real: "DOUBLE" } as const;
  const columns = t.columns.map((c) => ({ name: c.name, type: type[c.type], nullable: true }));
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: schemaFromColumnData({ columnData: columns.map((c) => ({ ...c, data: [] })) }),
    createdBy: "maqam-archive-api",
  });
  parquet.write({ columnData: columns.map((c, k) => ({ ...c, data: rows.map((r) => r[k]) })), rowGroupSize: groupRows });
  parquet.finish();
  return new Uint8Array(writer.getBuffer());
}

/** Writes the tables' files of `of` into `<name>/`, slices and groups read from `from` and kept in `into`; returns the groups encoded. */
async function write(name: string, of: Facts, into: string, from?: string): Promise<number> {
  const cat = createCatalog(of, "build");
  const keys = sliceKeys(cat, engine);
  await prepareSlices(cat, keys, { from, into });
  mkdirSync(join(dir(name), "datasets"), { recursive: true });
  return writeTableFiles(dir(name), cat, keys, { from, into }, GROUP_ROWS).encoded;
}

const filesOf = (name: string) => new Map(readdirSync(join(dir(name), "datasets")).map((f) => [f, readFileSync(join(dir(name), "datasets", f))]));

/** The keys of every sliced table's groups, as laid out over the slices of `of` (kept in `into`), with the tuning systems whose rows each holds. */
function groupKeys(of: Facts, into: string): Map<string, string[]> {
  const cat = createCatalog(of, "build");
  const keys = sliceKeys(cat, engine);
  return new Map(
    SLICED_TABLES.flatMap((t) => {
      const slices = cat.tuningSystems.map((ts) => {
        const key = keys.get(ts.id) ?? "";
        return { ts: ts.id, key, rows: sliceTableOf(cat, ts, key, into, t, "csv").length };
      });
      const tuningSystemOf = new Map(slices.map((s) => [s.key, s.ts]));
      return groupLayout(slices, GROUP_ROWS).map((parts): [string, string[]] => [groupKeyOf(t, parts), parts.map((p) => tuningSystemOf.get(p.key) ?? "")]);
    }),
  );
}

describe("Parquet row groups kept with the slices", () => {
  it("lays a small table out in one group, a larger one's slices each in groups of their own", () => {
    const slices = [
      { key: "a", rows: 3 },
      { key: "b", rows: 0 },
      { key: "c", rows: 9 },
    ];
    expect(groupLayout(slices, 12)).toEqual([
      [
        { key: "a", from: 0, to: 3 },
        { key: "c", from: 0, to: 9 },
      ],
    ]);
    expect(groupLayout(slices, 4)).toEqual([
      [{ key: "a", from: 0, to: 3 }],
      [{ key: "c", from: 0, to: 4 }],
      [{ key: "c", from: 4, to: 8 }],
      [{ key: "c", from: 8, to: 9 }],
    ]);
    // A slice's groups do not depend on the slices before it: one more row in a leaves c's groups as they were.
    const grown = groupLayout([{ key: "a", rows: 4 }, ...slices.slice(1)], 4);
    expect(grown.slice(1)).toEqual(groupLayout(slices, 4).slice(1));
    expect(groupLayout([], 4)).toEqual([]);
  });

  it("makes of groups encoded apart, and of groups kept and read back, the bytes of one encoding of all the rows", async () => {
    const cat = createCatalog(small, "build");
    // Groups smaller still, so that the small tables have several.
    const GROUP_ROWS = 97;
    for (const name of ["maqam_renderings", "pitch_classes", "intervals"]) {
      const { rows } = cellsOf(cat, table(name));
      const whole = oneWrite(table(name), rows, GROUP_ROWS);
      expect(Buffer.from(parquetOf({ table: table(name), rows }, GROUP_ROWS)).equals(whole), name).toBe(true);
      const kept = dir(`kept-${name}`);
      mkdirSync(kept, { recursive: true });
      const groups = [];
      for (let at = 0, k = 0; at < rows.length; at += GROUP_ROWS, k += 1) {
        writeGroup(kept, `g${k}`, parquetGroupOf(table(name), rows.slice(at, at + GROUP_ROWS)));
        groups.push(readGroup(kept, `g${k}`));
      }
      expect(groups.length).toBeGreaterThan(1);
      const read = groups.map((g) => g ?? expect.unreachable(`group of ${name} not read back`));
      const assembled = parquetOfGroups(table(name), read);
      expect(Buffer.from(assembled).equals(whole), name).toBe(true);
      // An independent reader finds the rows, the reals and nulls as they were.
      const objects = await parquetReadObjects({ file: assembled.buffer as ArrayBuffer });
      expect(objects.length).toBe(rows.length);
      expect(table(name).columns.map((c) => objects[rows.length - 1][c.name] ?? null)).toEqual(rows[rows.length - 1]);
    }
  }, 120_000);

  it("after one tuning system changed, encodes only its groups, and writes the clean write's bytes", async () => {
    const total = await write("before", small, dir("cache-before"));
    const before = groupKeys(small, dir("cache-before"));
    expect(total).toBe(before.size);
    const encoded = await write("after", changed, dir("cache-after"), dir("cache-before"));
    const after = groupKeys(changed, dir("cache-after"));
    const fresh = [...after].filter(([k]) => !before.has(k));
    expect(encoded).toBe(fresh.length);
    expect(encoded).toBeGreaterThan(0);
    // Every group encoded again holds the changed tuning system's rows; every other group was kept, though its rows moved.
    expect(fresh.every(([, ts]) => ts.includes(altered.id))).toBe(true);
    expect([...after].filter(([, ts]) => !ts.includes(altered.id)).every(([k]) => before.has(k))).toBe(true);
    // The larger tables' groups hold one tuning system each: the third's were kept.
    expect([...after].some(([k, ts]) => ts.length === 1 && ts[0] === small.tuningSystems[2].id && before.has(k))).toBe(true);
    expect(await write("clean", changed, dir("cache-clean"))).toBe(after.size);
    const clean = filesOf("clean");
    const incremental = filesOf("after");
    expect([...incremental.keys()].sort()).toEqual([...clean.keys()].sort());
    for (const [name, bytes] of clean) expect(incremental.get(name)?.equals(bytes), name).toBe(true);
    // The change shows in the files.
    expect(
      filesOf("before")
        .get("maqam_renderings.parquet")
        ?.equals(clean.get("maqam_renderings.parquet") ?? Buffer.alloc(0)),
    ).toBe(false);
  }, 300_000);

  it("does not trust a corrupt kept group: it is encoded again", async () => {
    const from = dir("cache-after");
    const [corrupt] = readdirSync(from).filter((f) => f.endsWith(".group"));
    const bytes = readFileSync(join(from, corrupt));
    bytes[bytes.length - 40] ^= 1;
    writeFileSync(join(from, corrupt), bytes);
    expect(readGroup(from, corrupt.replace(/\.group$/, ""))).toBeUndefined();
    expect(await write("again", changed, dir("cache-again"), from)).toBe(1);
    const clean = filesOf("clean");
    for (const [name, b] of filesOf("again")) expect(clean.get(name)?.equals(b), name).toBe(true);
  }, 300_000);
});
