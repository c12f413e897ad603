/**
 * The threads of the datasets step (scripts/datasetSliceWorker.ts), each with a catalog of its own
 * made from the facts it is given: they compute the slices that are missing, then one writes the
 * CSV and Parquet files while another builds the database.
 */
import { Piscina } from "piscina";
import type { Facts } from "../src/data/facts.js";
import type { TableFiles } from "./datasetFiles.js";
import type { SliceDirs } from "./datasetSlices.js";
import { threadEntry } from "./threadBundle.js";

/** What a thread is given: the facts of the catalog it makes. */
export interface SliceThreadData {
  facts: Facts;
}

/** A slice to compute and keep: the tuning system, its key and where its files go. */
export interface SliceTask {
  kind: "slice";
  tuningSystem: string;
  key: string;
  dir: string;
}

/** The tables' CSV and Parquet files written into `apiDir` from the slices in `dirs.into` (tuning system id → key), row groups kept in `dirs`; answers their entries of the dictionary and the number of groups encoded. */
export interface FilesTask {
  kind: "files";
  keys: [string, string][];
  dirs: SliceDirs;
  apiDir: string;
}

/** The database built from the slices in `dir` and the reference tables, written into `file`; answers its bytes. */
export interface DatabaseTask {
  kind: "database";
  keys: [string, string][];
  dir: string;
  file: string;
}

export type DatasetsTask = SliceTask | FilesTask | DatabaseTask;

/** What each kind of task answers. */
export interface DatasetsAnswer {
  slice: undefined;
  files: TableFiles;
  database: number;
}

export type DatasetsPool = Piscina<DatasetsTask, DatasetsAnswer[DatasetsTask["kind"]]>;

/** Up to `threads` threads, started as tasks come. */
export const datasetsPool = (facts: Facts, threads: number): DatasetsPool =>
  new Piscina({
    filename: threadEntry("scripts/datasetSliceWorker.ts").href,
    minThreads: 1,
    maxThreads: threads,
    execArgv: [],
    workerData: { facts } satisfies SliceThreadData,
  });

/** Runs a task on the pool, typed by its kind. */
export const runOn = <T extends DatasetsTask>(pool: DatasetsPool, task: T): Promise<DatasetsAnswer[T["kind"]]> =>
  pool.run(task) as Promise<DatasetsAnswer[T["kind"]]>;
