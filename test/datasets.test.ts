/**
 * The datasets of a small archive (three tuning systems, every maqām, jins and source) written as
 * the build writes them, then read back with independent readers — hyparquet for Parquet, sql.js
 * for SQLite, csv-parse for CSV — and a seeded sample of renderings compared with the API's JSON
 * answer to the same request, degree by degree.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import initSqlJs from "sql.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type Dictionary, writeDatasets } from "../scripts/datasets.js";
import { snakeCase } from "../src/api/datasets/columns.js";
import { routes } from "../src/api/routes.js";
import { dispatch } from "../src/api/route.js";
import { PITCH_CLASS_VALUES } from "../src/api/shared/pitchClassValues.js";
import { staticFileOf, requestOfStaticFile } from "../src/api/staticPath.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";

const facts = readFacts();
const catalog = createCatalog({ ...facts, tuningSystems: facts.tuningSystems.slice(0, 3) }, "build");
const apiDir = join(mkdtempSync(join(tmpdir(), "maqam-datasets-")), "api");

type Row = Record<string, string | number | null>;
let dictionary: Dictionary;
/** Every table as hyparquet reads it. */
const parquet = new Map<string, Row[]>();

const fileOf = (url: string) => join(apiDir, url.replace(/^\/api\//, ""));

beforeAll(async () => {
  dictionary = await writeDatasets(apiDir, catalog);
  for (const t of dictionary.tables) {
    const bytes = readFileSync(fileOf(t.files.parquet.url));
    parquet.set(t.name, (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) })) as Row[]);
  }
}, 120_000);

/** A CSV field as the writer writes a cell: numbers in JavaScript's shortest form, null empty. */
const csvField = (cell: string | number | null) => (cell === null ? "" : String(cell));

describe("the tables read back", () => {
  it("lists every table with its columns, and the dictionary's byte counts are the files'", () => {
    expect(dictionary.tables.map((t) => t.name)).toEqual([
      "tuning_systems",
      "note_names",
      "sources",
      "citations",
      "pitch_classes",
      "maqam_renderings",
      "jins_renderings",
      "degree_ajnas",
      "intervals",
      "modulations",
    ]);
    expect(JSON.parse(readFileSync(join(apiDir, "datasets", "index.json"), "utf8"))).toEqual(dictionary);
    for (const t of dictionary.tables) {
      expect(t.rows, t.name).toBeGreaterThan(0);
      for (const file of Object.values(t.files)) expect(readFileSync(fileOf(file.url)).length).toBe(file.bytes);
    }
    expect(dictionary.tables.find((t) => t.name === "tuning_systems")?.rows).toBe(3);
  });

  it("Parquet (hyparquet): the catalog's row counts, columns and types", () => {
    for (const t of dictionary.tables) {
      const rows = parquet.get(t.name)!;
      expect(rows.length, t.name).toBe(t.rows);
      expect(Object.keys(rows[0])).toEqual(t.columns.map((c) => c.name));
      for (const c of t.columns) {
        const values = rows.map((r) => r[c.name]).filter((v) => v !== null);
        if (c.type === "text") expect(values.every((v) => typeof v === "string")).toBe(true);
        else expect(values.every((v) => typeof v === "number" && (c.type === "real" || Number.isInteger(v)))).toBe(true);
      }
    }
  });

  it("CSV (csv-parse, strict RFC 4180): a header row, the same rows and values as the Parquet file", () => {
    for (const t of dictionary.tables) {
      const text = readFileSync(fileOf(t.files.csv.url), "utf8");
      expect(text.endsWith("\r\n")).toBe(true);
      const records: string[][] = parse(text, { record_delimiter: "\r\n", relax_quotes: false });
      expect(records[0]).toEqual(t.columns.map((c) => c.name));
      expect(records.length - 1, t.name).toBe(t.rows);
      const rows = parquet.get(t.name)!;
      records.slice(1).forEach((record, i) => {
        expect(record).toEqual(t.columns.map((c) => csvField(rows[i][c.name])));
      });
    }
  });

  it("SQLite (sql.js): the same tables and rows, the indexes and the views", async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database(readFileSync(fileOf(dictionary.database.url)));
    expect(readFileSync(fileOf(dictionary.database.url)).length).toBe(dictionary.database.bytes);
    for (const t of dictionary.tables) {
      // The table is a view over its coded rows, which it lists in their order.
      const [result] = db.exec(`SELECT * FROM ${t.name}`);
      expect(result.columns).toEqual(t.columns.map((c) => c.name));
      expect(result.values.length, t.name).toBe(t.rows);
      const rows = parquet.get(t.name)!;
      result.values.forEach((values, i) => {
        expect(values).toEqual(t.columns.map((c) => rows[i][c.name]));
      });
    }
    // The coded layout: each table a view over its coded rows, the texts in labels, statistics for the planner.
    const kinds = Object.fromEntries(db.exec("SELECT name, type FROM sqlite_master")[0].values) as Record<string, string>;
    for (const t of dictionary.tables) expect([kinds[t.name], kinds[`${t.name}_coded`]], t.name).toEqual(["view", "table"]);
    expect([kinds.labels, kinds.pitch_values, kinds.sqlite_stat1]).toEqual(["table", "table", "table"]);
    expect(db.exec("PRAGMA page_size")[0].values[0][0]).toBe(4096);
    const firstId = "SELECT text FROM labels WHERE id = (SELECT tuning_system_id FROM pitch_classes_coded ORDER BY rowid LIMIT 1)";
    expect(db.exec(firstId)[0].values[0][0]).toBe(parquet.get("pitch_classes")![0].tuning_system_id);
    const indexes = db.exec("SELECT name FROM sqlite_master WHERE type = 'index'")[0].values.flat();
    expect(indexes).toContain("maqam_renderings_by_tuning_system_id_starting_note_rendering_id");
    // Every view answers; the thirds are the third ascending degree of each maqām rendering.
    for (const view of dictionary.database.views) expect(db.exec(`SELECT COUNT(*) FROM ${view.name}`)[0].values[0][0]).toBeGreaterThan(0);
    const renderings = db.exec("SELECT COUNT(DISTINCT tuning_system_id || starting_note || rendering_id) FROM maqam_renderings")[0].values[0][0];
    expect(db.exec("SELECT COUNT(*) FROM maqam_thirds")[0].values[0][0]).toBe(renderings);
    db.close();
  });

  it("maps each file to its own path and back, as the handler and the static hosts serve them", () => {
    for (const url of [...dictionary.tables.flatMap((t) => Object.values(t.files).map((f) => f.url)), dictionary.database.url]) {
      const path = url.replace(/^\/api/, "");
      expect(staticFileOf(path, new URLSearchParams())).toBe(path.slice(1));
      expect(requestOfStaticFile(path.slice(1))?.path).toBe(path);
    }
    expect(staticFileOf("/datasets", new URLSearchParams())).toBe("datasets/index.json");
  });
});

/** mulberry32: the same sample on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The rows of each rendering (tuning system, starting note, rendering idName), in table order. */
function renderingsIn(rows: Row[]): Row[][] {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${r.tuning_system_id} ${r.starting_note} ${r.rendering_id}`;
    const group = groups.get(key) ?? [];
    groups.set(key, group);
    group.push(r);
  }
  return [...groups.values()];
}

function sample<T>(items: T[], n: number, random: () => number): T[] {
  const pool = [...items];
  return Array.from({ length: Math.min(n, pool.length) }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]);
}

type PitchData = Record<string, unknown>;

/** A degree's row against the answer's pitch class: position, names and every value format (the fret division as the answer rounds it). */
function expectSameDegree(row: Row, pc: PitchData) {
  expect(row.pitch_class_index).toBe(pc.pitchClassIndex);
  expect(row.octave).toBe(pc.octave);
  expect(row.scale_degree).toBe(pc.scaleDegree);
  expect(row.note_name).toBe(pc.noteNameDisplay);
  expect(row.note_name_id).toBe(pc.noteName);
  for (const { field } of Object.values(PITCH_CLASS_VALUES)) {
    const cell = row[snakeCase(field)];
    expect(field === "fretDivision" ? (cell as number).toFixed(3) : cell, field).toEqual(pc[field]);
  }
}

function answer(collection: "maqamat" | "ajnas", r: Row) {
  const query = new URLSearchParams({ pitchClassDataType: "all", startingNote: String(r.starting_note), tuningSystem: String(r.tuning_system_id) });
  const response = dispatch(routes, { catalog, baseUrl: "http://localhost", path: `/${collection}/${r.rendering_id}`, query });
  expect(response.status).toBe(200);
  return response.body as { tonic: { idName: string }; pitchData: unknown };
}

describe("a seeded sample of renderings against the API's JSON answers", () => {
  it("every row of 150 maqām and 60 jins renderings equals the detail answer's pitch data, in the same order", () => {
    const random = seeded(19);
    const maqamat = sample(renderingsIn(parquet.get("maqam_renderings")!), 150, random);
    const ajnas = sample(renderingsIn(parquet.get("jins_renderings")!), 60, random);
    expect(maqamat.length + ajnas.length).toBeGreaterThanOrEqual(200);
    for (const rows of maqamat) {
      const body = answer("maqamat", rows[0]);
      const { ascending, descending } = body.pitchData as { ascending: PitchData[]; descending: PitchData[] };
      expect(rows.map((r) => r.direction)).toEqual([...ascending.map(() => "ascending"), ...descending.map(() => "descending")]);
      [...ascending, ...descending].forEach((pc, i) => {
        expectSameDegree(rows[i], pc);
      });
      expect(rows[0].tonic).toBe(body.tonic.idName);
      expect(rows[0].cents_from_tonic).toBe(0);
    }
    for (const rows of ajnas) {
      const body = answer("ajnas", rows[0]);
      const pitchData = body.pitchData as PitchData[];
      expect(rows.length).toBe(pitchData.length);
      pitchData.forEach((pc, i) => {
        expectSameDegree(rows[i], pc);
      });
    }
  });
});
