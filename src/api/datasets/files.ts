/**
 * The files of the datasets as paths below /api: the dictionary, a table in each format, the one
 * database, and their content types. Apart from the tables themselves, so that the request↔file
 * map and the adapters name the files without loading what computes them.
 */
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
