/**
 * A build worker: loads the data and handlers once, then renders the batches of requests the
 * main thread sends (one tuning system × starting note at a time, so the theory caches are
 * reused), writes each file and its compressed siblings, and reports sizes and content hashes.
 */
import { parentPort, workerData } from "node:worker_threads";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync, brotliCompressSync, constants as zlib } from "node:zlib";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { serialize, hashOf, COMPRESS_MIN_BYTES, type Encoding } from "../src/serve/server.js";

export interface WorkerSetup {
  entry: string;
  apiDir: string;
  baseUrl: string;
  encodings: Encoding[];
}

/** One request of a batch: the request below /api and the file staticFileOf gave it. */
export type Job = [request: string, file: string];

export interface Rendered {
  file: string;
  status: number;
  bytes: number;
  hash: string;
  /** Sizes of the siblings written (`.gz`, `.br`). */
  encoded: Partial<Record<Encoding, number>>;
}

export type FromWorker = { type: "ready" } | { type: "rendered"; results: Rendered[]; batchDone: boolean };

const SUFFIX: Record<Encoding, string> = { gzip: ".gz", br: ".br" };
// gzip -9 costs about what -6 does on these bodies; brotli beyond quality 5 gets slow fast (measured in docs/benchmarks.md).
const COMPRESS: Record<Encoding, (b: Buffer) => Buffer> = {
  gzip: (b) => gzipSync(b, { level: 9 }),
  br: (b) =>
    brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: b.length } }),
};
const REPORT_EVERY = 250;

const { apiDir, baseUrl, encodings } = workerData as WorkerSetup;
const madeDirs = new Set<string>();

function render([request, file]: Job): Rendered {
  const url = new URL(request, "http://x");
  const response = dispatch(routes, { baseUrl, path: url.pathname, query: url.searchParams });
  const body = serialize(response);
  const result: Rendered = { file, status: response.status, bytes: body.length, hash: hashOf(body), encoded: {} };
  if (response.status !== 200) return result;
  const target = join(apiDir, file);
  const dir = dirname(target);
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  writeFileSync(target, body);
  if (body.length > COMPRESS_MIN_BYTES)
    for (const e of encodings) {
      const packed = COMPRESS[e](body);
      writeFileSync(target + SUFFIX[e], packed);
      result.encoded[e] = packed.length;
    }
  return result;
}

const port = parentPort!;
port.on("message", (jobs: Job[]) => {
  let results: Rendered[] = [];
  for (const job of jobs) {
    results.push(render(job));
    if (results.length === REPORT_EVERY) {
      port.postMessage({ type: "rendered", results, batchDone: false } satisfies FromWorker);
      results = [];
    }
  }
  port.postMessage({ type: "rendered", results, batchDone: true } satisfies FromWorker);
});
port.postMessage({ type: "ready" } satisfies FromWorker);
