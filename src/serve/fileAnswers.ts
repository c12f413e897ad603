/**
 * Files answered without web Request/Response objects. The first request for each form of a file
 * (GET or HEAD × identity, gzip or br × 200 or 304) goes through the web handler, which stays the
 * one definition of headers, ETag/304, CORS and HEAD; its status, header list and body are kept
 * beside the file in the cache (nodeAssets.ts), and later requests for that form get them as they
 * are. Which form a request wants is decided by the handler's own functions (acceptedEncodings,
 * encodingFor, etagMatches) over the cached file. Ranges (a 206 or 416) are never recorded: they go
 * through the handler each time, as the datasets' files, which are read from disk, always do.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  MAX_QUERY_PARAMETERS,
  MAX_URL_BYTES,
  acceptedEncodings,
  encodingFor,
  etagMatches,
  respond,
  staticRequestOf,
  type AssetReader,
  type Encoding,
  type HandlerOptions,
} from "./handler.js";
import { fileStore, nodeAssets, type FileStore, type NodeAssetOptions, type RecordedAnswer, type StoredFile } from "./nodeAssets.js";
import { requestUrl } from "./nodeRequest.js";
import { contentTypeOf, siteFileOf } from "./siteFiles.js";

/** Where a request target leads: the file that may answer it (a path below the build directory) and whether it is below /api. */
export interface Target {
  file: string | undefined;
  api: boolean;
}

const encoder = new TextEncoder();
const isApi = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

/** The file a URL may be answered with, by the handler's own rules: staticRequestOf below /api (within its limits), siteFileOf outside. */
export function targetOf(url: URL): Target {
  if (!isApi(url.pathname)) return { file: siteFileOf(url.pathname), api: false };
  const withinLimits = encoder.encode(url.pathname + url.search).length <= MAX_URL_BYTES && [...url.searchParams.keys()].length <= MAX_QUERY_PARAMETERS;
  const file = withinLimits ? staticRequestOf(url.pathname.slice(4) || "/", url.searchParams).file : undefined;
  return { file: file && `api/${file}`, api: true };
}

/** A map that forgets everything once it holds `limit` entries: targets and header values repeat, and a miss only costs a parse. */
function memo<V>(limit: number, compute: (key: string) => V): (key: string) => V {
  const entries = new Map<string, V>();
  return (key) => {
    let v = entries.get(key);
    if (v === undefined && !entries.has(key)) {
      if (entries.size >= limit) entries.clear();
      v = compute(key);
      entries.set(key, v);
    }
    return v as V;
  };
}

/** The form of a file a request wants, as the key of its recorded answer. */
const formOf = (method: string, encoding: Encoding | undefined, notModified: boolean) => `${method} ${encoding ?? "identity"} ${notModified ? 304 : 200}`;

export interface FileAnswers {
  store: FileStore;
  /** The handler's reader of pre-rendered files, over the same cache. */
  assets: AssetReader;
  /** The handler's answer to GET and HEAD outside /api: the build's site files. */
  outside: NonNullable<HandlerOptions["outside"]>;
  /** Where a request target (as Node read it) leads, memoised. */
  target(raw: string): Target;
  /**
   * Answers a GET or HEAD for `file` from its recorded answer; false when that form was not
   * recorded yet or a GET asks for a range (then answer through the handler and record() its answer).
   */
  answer(req: IncomingMessage, res: ServerResponse, file: StoredFile): boolean;
  /** Keeps the handler's answer to `req` beside `file` when it is the file's (X-Answer-Source: static, the file's bytes). */
  record(req: IncomingMessage, file: StoredFile, answer: RecordedAnswer): void;
  /** Answers recorded and answers sent from them, since start (for tests and the bench). */
  counts: { recorded: number; sent: number };
}

export function fileAnswers(options: NodeAssetOptions): FileAnswers {
  const store = fileStore(options);
  const accepted = memo(256, acceptedEncodings);
  const target = memo(10_000, (raw) => targetOf(new URL(requestUrl(raw))));
  const counts = { recorded: 0, sent: 0 };
  const formOfRequest = (req: IncomingMessage, file: StoredFile) =>
    formOf(req.method!, encodingFor(file, accepted(req.headers["accept-encoding"] ?? "")), etagMatches(req.headers["if-none-match"], file.hash));

  return {
    store,
    assets: nodeAssets(store),
    target,
    counts,
    async outside(request) {
      const name = siteFileOf(new URL(request.url).pathname);
      const file = name === undefined ? undefined : await store.get(name);
      if (!file) return undefined;
      return respond(
        request,
        { status: 200, body: file.body, hash: file.hash, source: "static", encoded: file.encoded ?? {}, contentType: contentTypeOf(name!) },
        true,
      );
    },
    answer(req, res, file) {
      // A range of GET is the handler's to answer (recorded forms are whole files; HEAD ignores Range).
      if (req.method === "GET" && req.headers.range !== undefined) return false;
      const recorded = file.answers.get(formOfRequest(req, file));
      if (!recorded) return false;
      counts.sent++;
      res.writeHead(recorded.status, recorded.headers);
      res.end(recorded.body);
      return true;
    },
    record(req, file, answer) {
      const sourceAt = answer.headers.findIndex((h, i) => i % 2 === 0 && h === "x-answer-source");
      if (answer.headers[sourceAt + 1] !== "static") return;
      const form = formOfRequest(req, file);
      const encoding = encodingFor(file, accepted(req.headers["accept-encoding"] ?? ""));
      const bytes = answer.status === 200 && req.method === "GET" ? (encoding ? file.encoded[encoding] : file.body) : undefined;
      // The body kept is the cache's own copy of the form, checked against what the handler sent.
      if (bytes ? !answer.body || Buffer.compare(answer.body, bytes) !== 0 : answer.body !== undefined && answer.body.length > 0) return;
      file.answers.set(form, { ...answer, body: bytes });
      counts.recorded++;
    },
  };
}
