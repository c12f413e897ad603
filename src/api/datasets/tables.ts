/**
 * The datasets: the tables in their order, the files each is published as and the views of the
 * SQLite database. Paths are below /api, as the handler and the build name them.
 */
import type { AnyTable } from "./columns.js";
import { citations, noteNames, sources, tuningSystems } from "./reference.js";
import { degreeAjnas, intervals, jinsRenderings, maqamRenderings, modulations, pitchClasses } from "./renderings.js";

export const TABLES: readonly AnyTable[] = [
  tuningSystems,
  noteNames,
  sources,
  citations,
  pitchClasses,
  maqamRenderings,
  jinsRenderings,
  degreeAjnas,
  intervals,
  modulations,
];

export const DATASETS_PATH = "/datasets";
/** The data dictionary (GET /api/datasets). */
export const DICTIONARY_FILE = "datasets/index.json";

/** The formats every table is written in, and the one database that holds them all. */
export const DATASET_FORMATS = {
  csv: { name: "CSV (RFC 4180, UTF-8, header row)", type: "text/csv; charset=utf-8; header=present" },
  parquet: { name: "Apache Parquet (Snappy)", type: "application/vnd.apache.parquet" },
  sqlite: { name: "SQLite 3 database of every table, with indexes and views", type: "application/vnd.sqlite3" },
} as const;
export type DatasetFormat = keyof typeof DATASET_FORMATS;

/** The name of the database file. */
export const DATABASE_NAME = "maqam_archive";

/** A file of the datasets below /api: `/datasets/<table>.<csv|parquet>` or the database. */
export const DATASET_FILE = /^\/datasets\/([a-z_]+)\.(csv|parquet|sqlite)$/;
export const tableFilePath = (table: string, format: DatasetFormat) => `${DATASETS_PATH}/${table}.${format}`;

/** The Content-Type of a dataset file path, undefined for any other path. */
export function datasetTypeOf(path: string): string | undefined {
  const match = DATASET_FILE.exec(path);
  return match ? DATASET_FORMATS[match[2] as DatasetFormat].type : undefined;
}

/** Whether a file below build/api is one of the datasets' (a table, the database or the dictionary). */
export const isDatasetFile = (file: string): boolean => file === DICTIONARY_FILE || DATASET_FILE.test(`/${file}`);

/** Views of the database for common questions, each a name, what it answers and its SQL. */
export const VIEWS = [
  {
    name: "maqam_scales",
    about: "The ascending scale of every maqām rendering in cents from its tonic, one row per degree.",
    sql: `SELECT tuning_system_id, starting_note, maqam_id, rendering_id, tonic, position, scale_degree, note_name, cents, cents_from_tonic
FROM maqam_renderings WHERE direction = 'ascending'`,
  },
  {
    name: "maqam_thirds",
    about: "The third degree of every maqām rendering (ascending), in cents above the tonic.",
    sql: `SELECT tuning_system_id, starting_note, maqam_id, rendering_id, tonic, note_name, cents_from_tonic
FROM maqam_renderings WHERE direction = 'ascending' AND position = 2`,
  },
  {
    name: "note_cents_spread",
    about: "Per note name in octave 1, the lowest and highest cents over every tuning system from the starting note yegah, and their difference.",
    sql: `SELECT note_name_id, COUNT(DISTINCT tuning_system_id) AS tuning_systems, MIN(cents) AS min_cents, MAX(cents) AS max_cents, MAX(cents) - MIN(cents) AS spread_cents
FROM pitch_classes WHERE octave = 1 AND starting_note = 'yegah' AND note_name_id <> 'none' GROUP BY note_name_id`,
  },
  {
    name: "cited_pages",
    about: "Every citation with the source's title, type and authors.",
    sql: `SELECT c.entity_kind, c.entity_id, c.page, s.source_id, s.source_type, s.title_english, s.authors
FROM citations c JOIN sources s ON s.source_id = c.source_id`,
  },
] as const;
