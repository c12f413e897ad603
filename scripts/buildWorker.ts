/**
 * A build worker: loads the data and handlers once, then renders the batches of requests the
 * main thread sends (one tuning system × starting note at a time, so the theory caches are
 * reused), writes each file, its compressed siblings and, for a maqām or jins realisation, its
 * picture, and reports sizes and content hashes.
 */
import { parentPort, workerData } from "node:worker_threads";
import { mkdirSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { gzipSync, brotliCompressSync, constants as zlib } from "node:zlib";
import { createHash } from "node:crypto";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { serialize, COMPRESS_MIN_BYTES, SIBLING_SUFFIX, type Encoding } from "../src/serve/handler.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import type { GroupingShape } from "../src/theory/pitchClassSets.js";
import { pictureDrawer, pictureFileOf } from "./pictures.js";

export interface WorkerSetup {
  apiDir: string;
  baseUrl: string;
  encodings: Encoding[];
  /** Directory of the fact files. */
  dataDir: string;
  /** Where the pictures are drawn (build/pictures); undefined when the profile wants none. */
  picturesDir?: string;
  /** Heap in use after a batch beyond which the worker drops its catalog, and with it every memo. */
  dropCachesBytes: number;
}

/**
 * One request of a batch: its index in the build plan, the request below /api and its file, and
 * what to do with its picture: by default it is drawn with the answer (when the build draws
 * pictures); "none" answers only, "only" draws the picture of a request answered earlier.
 */
export type Job = [index: number, request: string, file: string, picture?: "none" | "only"];

/**
 * 12-tone groupings the planning made, as seeds of the catalog's twelveToneGroupings memo
 * (src/theory/caches.ts): key and shape. Sent before the first batch; every catalog the worker
 * makes afterwards takes them, so a tuning system × starting note is not grouped again.
 */
export type TwelveToneSeeds = [key: string, shape: GroupingShape][];

/** What the main thread sends: a batch, or the seeds. */
export type ToWorker = Job[] | { seeds: TwelveToneSeeds };

/** A picture drawn alone ("only"): the plan index of its request and its bytes. */
export type Drawn = [index: number, bytes: number];

export interface Rendered {
  index: number;
  status: number;
  bytes: number;
  hash: string;
  /** Sizes of the siblings written (`.gz`, `.br`). */
  encoded: Partial<Record<Encoding, number>>;
  /** Bytes of the picture drawn (pictures/…svg), for a maqām or jins realisation when pictures are drawn. */
  picture?: number;
}

export type FromWorker =
  | { type: "ready" }
  /**
   * `times` holds two numbers per result, in turn: the milliseconds spent answering (dispatch,
   * serialisation and the picture) and writing (with compression). Apart from the results, as the
   * main thread adds them up by route and keeps the results: two numbers more on each of 1.8 M
   * results took some 90 MB of its heap for a doubled archive.
   */
  | { type: "rendered"; results: Rendered[]; times: Float64Array; drawn: Drawn[]; gcMs: number }
  /** End of a batch, with the heap in use then, and whether the worker then dropped its caches. */
  | { type: "batchDone"; heapUsedBytes: number; dropped: boolean };

// Level 9 is no smaller than 6 on these bodies; brotli past quality 5 gets slow fast (docs/benchmarks.md).
const COMPRESS: Record<Encoding, (b: Uint8Array) => Buffer> = {
  gzip: (b) => gzipSync(b, { level: 6 }),
  br: (b) => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: b.length } }),
};
const REPORT_EVERY = 250;

const { apiDir, baseUrl, encodings, dataDir, picturesDir, dropCachesBytes } = workerData as WorkerSetup;
const facts = readFacts(dataDir);
/**
 * The catalog and the pictures' drawer over it, made again once the heap holds more than
 * dropCachesBytes after a batch: the theory caches of past tuning system × starting note groups
 * are of little use to the next ones, and dropping them bounds the worker's memory and the
 * collector's work without the cost of a new thread (its start, the facts read and checked again,
 * its code compiled again).
 */
let seeds = new Map<string, GroupingShape>();
const fresh = () => {
  const catalog = createCatalog(facts, "build", { twelveToneGroupings: seeds });
  return { catalog, pictures: picturesDir === undefined ? undefined : { dir: picturesDir, draw: pictureDrawer(catalog, baseUrl) } };
};
let { catalog, pictures } = fresh();
/** The handler's content hash (SHA-1, base64url), computed synchronously here. */
const hashOf = (body: Uint8Array): string => createHash("sha1").update(body).digest("base64url");
/**
 * Folders made since the caches were last dropped, so each is made once: emptied with the caches,
 * as a `full` build writes some 100,000 folders per archive, and held to the end they would grow
 * with the archive and take room of the heap the caches are bounded by.
 */
const madeDirs = new Set<string>();
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

/**
 * Writes a file as a new one: a name already there (left by the spare tree a build starts from)
 * is unlinked first, never written through, as it may be a link to the previous build's file.
 */
function writeNew(target: string, bytes: Uint8Array | string) {
  try {
    writeFileSync(target, bytes, { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    unlinkSync(target);
    writeFileSync(target, bytes, { flag: "wx" });
  }
}

/** Writes a file, making its folder the first time. */
function writeInto(target: string, bytes: Uint8Array | string) {
  const dir = dirname(target);
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  writeNew(target, bytes);
}

/** Draws and writes the picture of a request whose answer was rendered before; its bytes, or undefined when it has none. */
function drawAlone([, request, file]: Job): number | undefined {
  const picture = pictures?.draw(request);
  if (picture === undefined || !pictures) return undefined;
  writeInto(join(pictures.dir, pictureFileOf(file)), picture);
  return Buffer.byteLength(picture);
}

function render([index, request, file, drawing]: Job, times: number[]): Rendered {
  const started = performance.now();
  const url = new URL(request, "http://x");
  const response = dispatch(routes, { catalog, baseUrl, path: url.pathname, query: url.searchParams });
  const body = serialize(response);
  const picture = response.status === 200 && drawing !== "none" ? pictures?.draw(request) : undefined;
  const computed = performance.now();
  const result: Rendered = { index, status: response.status, bytes: body.length, hash: hashOf(body), encoded: {} };
  if (response.status !== 200) {
    times.push(computed - started, 0);
    return result;
  }
  const target = join(apiDir, file);
  writeInto(target, body);
  if (body.length > COMPRESS_MIN_BYTES)
    for (const e of encodings) {
      const packed = COMPRESS[e](body);
      writeNew(target + SIBLING_SUFFIX[e], packed);
      result.encoded[e] = packed.length;
    }
  if (picture !== undefined && pictures) {
    writeInto(join(pictures.dir, pictureFileOf(file)), picture);
    result.picture = Buffer.byteLength(picture);
  }
  times.push(computed - started, performance.now() - computed);
  return result;
}

const port = parentPort!;
const flush = (results: Rendered[], times: number[], drawn: Drawn[]) => {
  port.postMessage({ type: "rendered", results, times: Float64Array.from(times), drawn, gcMs } satisfies FromWorker);
  gcMs = 0;
};
port.on("message", (message: ToWorker) => {
  if (!Array.isArray(message)) {
    seeds = new Map(message.seeds);
    ({ catalog, pictures } = fresh());
    return;
  }
  const jobs = message;
  let results: Rendered[] = [];
  let times: number[] = [];
  let drawn: Drawn[] = [];
  for (const job of jobs) {
    if (job[3] === "only") {
      const bytes = drawAlone(job);
      if (bytes !== undefined) drawn.push([job[0], bytes]);
    } else results.push(render(job, times));
    if (results.length + drawn.length === REPORT_EVERY) {
      flush(results, times, drawn);
      results = [];
      times = [];
      drawn = [];
    }
  }
  flush(results, times, drawn);
  const heapUsedBytes = getHeapStatistics().used_heap_size;
  const dropped = heapUsedBytes > dropCachesBytes;
  if (dropped) {
    const made = fresh();
    catalog = made.catalog;
    pictures = made.pictures;
    madeDirs.clear();
  }
  port.postMessage({ type: "batchDone", heapUsedBytes, dropped } satisfies FromWorker);
});
port.postMessage({ type: "ready" } satisfies FromWorker);
