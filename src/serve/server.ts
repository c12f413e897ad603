/**
 * The Node server: a node:http adapter over the web-standard handler. The main thread answers
 * files (the build's pre-rendered answers and its site) from memory (fileAnswers.ts) and hands
 * every computation to a pool of threads (pool.ts). Nothing a socket sends stops it: requests
 * Node's parser refuses, methods a web Request cannot carry (TRACE, CONNECT), expectations it does
 * not meet and faults inside an answer all get a JSON body or a clean close.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import { Readable, type Duplex } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { handleRequest, methodNotAllowed, type HandlerOptions } from "./handler.js";
import { headRefusal, jsonRefusal, rawAnswer } from "./refusals.js";
import { isStoredFile, type NodeAssetOptions } from "./nodeAssets.js";
import { fileAnswers, type FileAnswers } from "./fileAnswers.js";
import { requestUrl } from "./nodeRequest.js";
import { computePool, type ComputePool, type PoolOptions, type PoolRefusal } from "./pool.js";
import type { Catalog } from "../theory/catalog.js";
import { fault } from "../api/errors.js";

export interface ServerOptions extends NodeAssetOptions {
  /** The main thread's catalog (the handler's; the pool's threads make their own from dataDir). */
  catalog: Catalog;
  /** Scheme + host for absolute links of computed answers. */
  baseUrl: string;
  /** Directory of the facts the pool's threads read (DATA_DIR); default data/. */
  dataDir?: string;
  /** Threads, queue, time limit and heap of the computing pool (defaults: pool.ts). */
  pool?: Omit<Partial<PoolOptions>, "baseUrl" | "dataDir">;
  /** Time a client has to send the request head; default HEADERS_TIMEOUT_MS. */
  headersTimeoutMs?: number;
}

/** Time a client has to send the request head before it gets a 408. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Time a client has to send the whole request. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Time answers in flight have to finish when the server stops. */
export const DRAIN_MS = 10_000;
/** Seconds a client refused for a full queue is asked to wait. */
const RETRY_AFTER_SECONDS = 2;

export { requestUrl } from "./nodeRequest.js";
export { headRefusal } from "./refusals.js";

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(requestUrl(req.url ?? "/"), { method: req.method, headers });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    headers.push(name, value);
  });
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  // Streamed a chunk at a time: a file read from disk (a dataset's range or whole file) is never held whole.
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res).catch((e: NodeJS.ErrnoException) => {
    // A client that leaves before the end is no fault.
    if (e.code !== "ERR_STREAM_PREMATURE_CLOSE") throw e;
  });
}

/** The method a request Node's parser refused names, when it is an HTTP token (lowercase or unknown to Node). */
const methodToken = (rawPacket: Buffer | undefined) => /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) /.exec(rawPacket?.subarray(0, 40).toString("latin1") ?? "")?.[1];

/** Sockets whose refusal is being written: a client that half-closes makes Node report the same parse error again. */
const refusing = new WeakSet<Duplex>();

async function refuseHead(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex, headersTimeoutMs: number) {
  if (refusing.has(socket)) return;
  if (!socket.writable || (err.code === "ECONNRESET" && !err.rawPacket)) return socket.destroy();
  refusing.add(socket);
  // Paused, the socket reports no end while the refusal is made: Node would close it on a half-close.
  socket.pause();
  const method = err.code === "HPE_INVALID_METHOD" ? methodToken(err.rawPacket) : undefined;
  const response = method
    ? await methodNotAllowed(new Request("http://localhost/"), method, false)
    : await jsonRefusal(headRefusal(err.code, err.rawPacket, headersTimeoutMs));
  if (socket.writable) socket.end(await rawAnswer(response), () => socket.destroy());
  else socket.destroy();
}

function poolRefusal(refusal: Exclude<PoolRefusal, { refused: "gone" }>): Promise<Response> {
  if (refusal.refused === "busy")
    return jsonRefusal(
      {
        status: 503,
        body: {
          error: "Service busy",
          message: "Every computing thread is busy and the queue of waiting requests is full.",
          hint: `Retry after ${RETRY_AFTER_SECONDS} s; pre-rendered files are still answered at once.`,
        },
      },
      { "Retry-After": String(RETRY_AFTER_SECONDS) },
    );
  if (refusal.refused === "time limit")
    return jsonRefusal({
      status: 503,
      body: {
        error: "Time limit exceeded",
        message: `The answer was not computed within the server's limit of ${refusal.limitMs / 1000} s per computed answer and its computation was stopped.`,
        hint: "Ask for less (fewer hops, waypoints or routes; one tuning system), or compute it in the page or with the client (build/client), which have no limit.",
      },
    });
  return jsonRefusal({
    status: 503,
    body: { error: "Computation failed", message: `The computing thread stopped: ${refusal.message}.`, hint: "Retry; if it fails again, ask for less." },
  });
}

interface Running {
  files: FileAnswers;
  pool: ComputePool;
  inFlight: number;
  draining: boolean;
}
const running = new WeakMap<Server, Running>();

/** The node:http listener of the server, bound to one build directory, one catalog and one pool. */
function requestListener(state: Running, options: ServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { files, pool } = state;
  const handlerOptions: HandlerOptions = { catalog: options.catalog, baseUrl: options.baseUrl, assets: files.assets, outside: files.outside, compress: true };

  const compute = async (req: IncomingMessage, res: ServerResponse, method: "GET" | "HEAD"): Promise<void> => {
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    const task = { target: req.url ?? "/", method, acceptEncoding: req.headers["accept-encoding"], ifNoneMatch: req.headers["if-none-match"] };
    const answer = await pool.run(task, gone.signal);
    if ("refused" in answer) {
      if (answer.refused === "gone") res.destroy();
      else await send(res, await poolRefusal(answer));
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };

  const throughHandler = async (req: IncomingMessage, res: ServerResponse) => send(res, await handleRequest(toRequest(req), handlerOptions));

  /** Answers `req`; returns a promise only when the answer is not sent at once. */
  const answer = (req: IncomingMessage, res: ServerResponse): Promise<void> | void => {
    const method = req.method ?? "";
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS")
      return methodNotAllowed(new Request("http://localhost/"), method, false).then((r) => send(res, r));
    const target = req.url ?? "/";
    if (target === "*" && method !== "OPTIONS")
      return jsonRefusal({
        status: 400,
        body: {
          error: "Invalid request target",
          message: "The target * names the server as a whole and goes with OPTIONS only.",
          hint: "Request a path, e.g. GET /api.",
        },
      }).then((r) => send(res, r));
    if (method === "OPTIONS") return throughHandler(req, res);
    const { file: key, api } = files.target(target);
    const cached = key === undefined ? undefined : files.store.peek(key);
    if (cached && files.answer(req, res, cached)) return;
    return (async () => {
      const file = cached ?? (key === undefined ? undefined : await files.store.get(key));
      if (!file) return api ? compute(req, res, method) : throughHandler(req, res);
      // A streamed file (a dataset's table or database) is answered by the handler each time, from disk.
      if (!isStoredFile(file)) return throughHandler(req, res);
      if (files.answer(req, res, file)) return;
      const response = await handleRequest(toRequest(req), handlerOptions);
      const headers: string[] = [];
      response.headers.forEach((value, name) => {
        headers.push(name, value);
      });
      const body = response.body ? new Uint8Array(await response.arrayBuffer()) : undefined;
      files.record(req, file, { status: response.status, headers, body });
      res.writeHead(response.status, headers);
      res.end(body);
    })();
  };

  const fail = (res: ServerResponse, e: unknown) => {
    console.error(`server: answering failed: ${(e as Error)?.stack ?? e}`);
    if (res.headersSent || res.destroyed) return res.destroy();
    jsonRefusal(fault(e))
      .then((r) => send(res, r))
      .catch(() => res.destroy());
  };

  return (req, res) => {
    state.inFlight++;
    res.once("close", () => state.inFlight--);
    if (state.draining) res.shouldKeepAlive = false;
    try {
      answer(req, res)?.catch((e) => fail(res, e));
    } catch (e) {
      fail(res, e);
    }
  };
}

/** Reads the base URL the build used for links, so computed answers match the files. */
export function buildBaseUrl(buildDir: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(buildDir, "manifest.json"), "utf8")).baseUrl;
  } catch {
    return undefined;
  }
}

/** Counts of the file fast path (answers recorded from the handler, answers sent from them) and the pool's settings. */
export function serverState(server: Server): { files: FileAnswers["counts"]; pool: Pick<ComputePool, "threads" | "queue" | "timeLimitMs"> } | undefined {
  const state = running.get(server);
  return state && { files: state.files.counts, pool: { threads: state.pool.threads, queue: state.pool.queue, timeLimitMs: state.pool.timeLimitMs } };
}

export async function startServer(options: ServerOptions, port: number, host = "127.0.0.1"): Promise<Server> {
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = createServer(
    // Node looks for expired heads every connectionsCheckingInterval (30 s by default): often enough that the bound holds.
    { headersTimeout, requestTimeout: Math.max(headersTimeout, REQUEST_TIMEOUT_MS), connectionsCheckingInterval: Math.min(1000, headersTimeout / 4) },
  );
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) =>
    refuseHead(err, socket, headersTimeout).catch(() => socket.destroy()),
  );
  // CONNECT asks for a tunnel: refused like any other method the API does not serve.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => socket.destroy());
    socket.pause();
    methodNotAllowed(new Request("http://localhost/"), "CONNECT", false)
      .then(rawAnswer)
      .then(
        (bytes) => socket.end(bytes, () => socket.destroy()),
        () => socket.destroy(),
      );
  });
  // An Expect other than 100-continue cannot be met: a JSON 417 rather than Node's empty one.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) =>
    jsonRefusal({
      status: 417,
      body: {
        error: "Expectation failed",
        message: `The expectation ${JSON.stringify(String(req.headers.expect))} is not one the server meets.`,
        hint: "Send no Expect header, or Expect: 100-continue.",
      },
    }).then(
      (r) => send(res, r),
      () => res.destroy(),
    ),
  );
  // A client that half-closes after its request still gets the answer.
  Object.assign(server, { httpAllowHalfOpen: true });
  await new Promise<void>((listening, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      listening();
    });
  });
  const pool = computePool({ ...options.pool, baseUrl: options.baseUrl, dataDir: options.dataDir });
  const state: Running = { files: fileAnswers(options), pool, inFlight: 0, draining: false };
  running.set(server, state);
  server.on("request", requestListener(state, options));
  server.on("error", (e) => console.error(`server: ${e.message}`));
  server.once("close", () => void pool.close());
  return server;
}

/**
 * Stops the server: no new connections, answers in flight finish (within `ms`), idle and then all
 * connections are closed and the pool's threads stopped. Resolves to whether every answer finished.
 */
export async function stopServer(server: Server, ms = DRAIN_MS): Promise<boolean> {
  const state = running.get(server);
  if (state) state.draining = true;
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeIdleConnections();
  const deadline = performance.now() + ms;
  while (state && state.inFlight > 0 && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    server.closeIdleConnections();
  }
  const drained = !state || state.inFlight === 0;
  server.closeAllConnections();
  await closed;
  await state?.pool.close();
  return drained;
}
