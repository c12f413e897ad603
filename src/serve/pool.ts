/**
 * The Node server's computing threads: a piscina pool of worker threads, each with a catalog of
 * its own, answers every request no file answers, so the main thread stays free to send files.
 * The queue is bounded (past it a request is refused at once) and every computation has a time
 * limit counted from its arrival (past it the thread running it is terminated and replaced).
 */
import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import type { CacheScale } from "../theory/caches.js";

/**
 * The computing threads' nice value (the main thread keeps 0): the highest, so that a file answer
 * never waits for a core behind a computation (Linux schedules threads by their own nice value).
 */
const POOL_NICE = 19;

export interface PoolOptions {
  /** Threads; default POOL_THREADS or one per core but the main thread's (at least one). */
  threads?: number;
  /** Requests that may wait for a thread; default POOL_QUEUE or 64 per thread. */
  queue?: number;
  /** Milliseconds a computed answer may take from its arrival; default POOL_TIME_LIMIT_MS or 10,000. */
  timeLimitMs?: number;
  /** V8 heap of each thread in MB; default POOL_HEAP_MB or 128. */
  heapMb?: number;
  /** Directory of the facts (DATA_DIR); default data/. */
  dataDir?: string;
  /** Scheme + host of absolute links in computed answers. */
  baseUrl: string;
}

/** What a thread is started with. */
export interface PoolThreadData {
  dataDir: string | undefined;
  baseUrl: string;
  scale: CacheScale;
  /** The thread's own nice value, set when it starts. */
  nice: number;
}

/** A request for a thread: the target as Node read it, the method and the headers the answer depends on. */
export interface ComputeTask {
  /** A task that only waits for the thread to be up (its catalog made). */
  warm?: true;
  target: string;
  method: "GET" | "HEAD";
  acceptEncoding?: string;
  ifNoneMatch?: string;
}

/** A thread's answer: status, header list (name, value, …) and body. */
export interface ComputedAnswer {
  status: number;
  headers: string[];
  body?: Uint8Array;
}

/** Why a computation was not answered: the queue was full, the time limit passed, the thread failed, or the client left while it waited. */
export type PoolRefusal = { refused: "busy" } | { refused: "time limit"; limitMs: number } | { refused: "failed"; message: string } | { refused: "gone" };

export interface ComputePool {
  /** Computes `task`; a request whose client left (`gone` aborted) while it waited is dropped from the queue. */
  run(task: ComputeTask, gone?: AbortSignal): Promise<ComputedAnswer | PoolRefusal>;
  /** Requests being computed or waiting. */
  pending(): number;
  threads: number;
  queue: number;
  timeLimitMs: number;
  close(): Promise<void>;
}

const fromEnv = (name: string): number | undefined => {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(value) && value >= 0 ? value : undefined;
};

/** Pool sizes as configured: options first, then the environment, then the defaults. */
export function poolSettings(options: Partial<PoolOptions> = {}) {
  // The main thread answers files on a core of its own; each computing thread holds a catalog, so memory grows with them.
  const threads = Math.max(1, Math.floor(options.threads ?? fromEnv("POOL_THREADS") ?? availableParallelism() - 1));
  return {
    threads,
    queue: Math.floor(options.queue ?? fromEnv("POOL_QUEUE") ?? 64 * threads),
    timeLimitMs: options.timeLimitMs ?? fromEnv("POOL_TIME_LIMIT_MS") ?? 10_000,
    heapMb: options.heapMb ?? fromEnv("POOL_HEAP_MB") ?? 128,
  };
}

interface Waiting {
  task: ComputeTask;
  deadline: number;
  done: (answer: ComputedAnswer | PoolRefusal) => void;
}

export function computePool(options: PoolOptions): ComputePool {
  const { threads, queue, timeLimitMs, heapMb } = poolSettings(options);
  const piscina = new Piscina<ComputeTask, ComputedAnswer>({
    filename: new URL("./poolEntry.mjs", import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.MAX_SAFE_INTEGER,
    // The queue is ours (below): piscina gets a task only when a thread is free.
    maxQueue: threads,
    // The entry registers the TypeScript loader itself; the main thread's flags are its own.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    // The isolate scale (the worker's, sized for a 128 MB isolate) bounds each thread's caches.
    workerData: { dataDir: options.dataDir, baseUrl: options.baseUrl, scale: "isolate", nice: POOL_NICE } satisfies PoolThreadData,
  });
  // A thread that dies (out of memory, terminated) is replaced by piscina; its task's promise rejects.
  piscina.on("error", (e: Error) => console.error(`pool: a thread failed: ${e.message}`));
  const waiting: Waiting[] = [];
  let running = 0;
  // Until every thread has loaded (a warm-up task each), requests wait in our queue: a time limit
  // reached while a thread is still loading would otherwise stop the loading thread.
  let ready = false;

  const start = (item: Waiting) => {
    const remaining = item.deadline - performance.now();
    if (remaining <= 0) return item.done({ refused: "time limit", limitMs: timeLimitMs });
    running++;
    piscina
      .run(item.task, { signal: AbortSignal.timeout(Math.ceil(remaining)) })
      .then(item.done, (e: Error) =>
        item.done(
          e.name === "AbortError" || e.name === "TimeoutError" ? { refused: "time limit", limitMs: timeLimitMs } : { refused: "failed", message: e.message },
        ),
      )
      .finally(() => {
        running--;
        const next = waiting.shift();
        if (next) start(next);
      });
  };

  const warmUp = { warm: true, target: "/", method: "GET" } as const;
  void Promise.allSettled(Array.from({ length: threads }, () => piscina.run(warmUp))).then(() => {
    ready = true;
    while (running < threads && waiting.length > 0) start(waiting.shift()!);
  });
  const leave = (item: Waiting, why: PoolRefusal) => {
    const at = waiting.indexOf(item);
    if (at >= 0) waiting.splice(at, 1)[0].done(why);
  };

  return {
    threads,
    queue,
    timeLimitMs,
    pending: () => running + waiting.length,
    run(task, gone) {
      return new Promise((done) => {
        const item: Waiting = { task, deadline: performance.now() + timeLimitMs, done };
        if (ready && running < threads) return start(item);
        if (waiting.length >= queue) return done({ refused: "busy" });
        waiting.push(item);
        gone?.addEventListener("abort", () => leave(item, { refused: "gone" }));
        setTimeout(() => leave(item, { refused: "time limit", limitMs: timeLimitMs }), timeLimitMs).unref();
      });
    },
    close: () => piscina.destroy(),
  };
}
