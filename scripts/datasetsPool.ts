/**
 * The threads of the datasets step, each with a catalog of its own made from the facts it is
 * given: a pool (scripts/datasetSliceWorker.ts) computes the slices that are missing, then one
 * thread writes the CSV and Parquet files while another builds the database, each ending when its
 * task is done (scripts/datasetTaskThread.ts).
 */
import { Worker } from "node:worker_threads";
import { Piscina } from "piscina";
import type { PrerenderOptions } from "../src/api/shared/prerender.js";
import type { Facts } from "../src/data/facts.js";
import type { TableFiles } from "./datasetFiles.js";
import type { SliceDirs } from "./datasetSlices.js";
import type { TuningSystemListed } from "./planListing.js";
import { threadEntry } from "./threadBundle.js";

/** What a thread is given: the facts of the catalog it makes. */
export interface SliceThreadData {
  facts: Facts;
}

/** A slice to compute and keep: the tuning system, its key and where its files go; with `listing`, its planning parts listed too (listTuningSystem). */
export interface SliceTask {
  kind: "slice";
  tuningSystem: string;
  key: string;
  dir: string;
  listing?: Pick<PrerenderOptions, "full">;
}

/** The tables' CSV and Parquet files written into `apiDir` from the slices in `dirs.into` (tuning system id → key), row groups kept in `dirs`; answers their entries of the dictionary and the number of groups encoded. */
export interface FilesTask {
  kind: "files";
  keys: [string, string][];
  dirs: SliceDirs;
  apiDir: string;
}

/**
 * The database built from the slices in `dir` and the reference tables, written into `file`;
 * answers its bytes. With `first`, the thread first computes and keeps those slices (tuning system
 * id → key) in `dir` and says so (ApartThread.computed): after a change of few tuning systems, no
 * pool is started for them.
 */
export interface DatabaseTask {
  kind: "database";
  keys: [string, string][];
  dir: string;
  file: string;
  /** The bytes the database is expected to take (databaseOf). */
  sizeHint?: number;
  first?: [string, string][];
}

export type DatasetsTask = SliceTask | FilesTask | DatabaseTask;

/** What each kind of task answers. */
export interface DatasetsAnswer {
  slice: TuningSystemListed | undefined;
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

/**
 * A thread that runs one task (scripts/datasetTaskThread.ts), started before it is given: it makes
 * its catalog meanwhile. It ends once it has answered, and `run` answers when it has ended: its
 * memory (the database's pages in sql.js's WebAssembly memory and the file it grows, some 350 MB)
 * is returned by then, where a pool's thread waits for the caller to end it.
 */
export interface ApartThread {
  run<T extends DatasetsTask>(task: T): Promise<DatasetsAnswer[T["kind"]]>;
  /** Resolves once the slices its task names `first` are kept (once it has a task without); rejects as run does when the thread fails before. */
  computed: Promise<void>;
  /** Ends the thread without a task. */
  stop(): void;
}

/** What the thread posts: that its first slices are kept, then its answer. */
export type ApartMessage = { computed: true } | { answer: unknown };

export function startApart(facts: Facts): ApartThread {
  const thread = new Worker(threadEntry("scripts/datasetTaskThread.ts"), { workerData: { facts } satisfies SliceThreadData, execArgv: [] });
  let task = "";
  let slicesKept = () => {};
  const ended = new Promise<unknown>((done, fail) => {
    let answer: { value: unknown } | undefined;
    thread.on("message", (message: ApartMessage) => {
      if ("computed" in message) slicesKept();
      else answer = { value: message.answer };
    });
    thread.once("error", fail);
    thread.once("exit", (code) =>
      answer ? done(answer.value) : fail(new Error(`the datasets' ${task || "task"} thread ended (exit code ${code}) without an answer`)),
    );
  });
  // A failure before the task is given is thrown by run (and by computed).
  ended.catch(() => undefined);
  const computed = new Promise<void>((kept, fail) => {
    slicesKept = kept;
    ended.then(() => kept(), fail);
  });
  computed.catch(() => undefined);
  return {
    run: <T extends DatasetsTask>(given: T) => {
      task = given.kind;
      thread.postMessage(given);
      return ended as Promise<DatasetsAnswer[T["kind"]]>;
    },
    computed,
    stop: () => void thread.terminate(),
  };
}
