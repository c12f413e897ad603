/**
 * The fallback server (node:http, no framework): answers every spec URL under /api from the
 * pre-rendered file when the request is canonical and the file exists, else from the handler.
 * Both paths produce the same bytes and the same headers. Only paths that staticFileOf derives
 * (plain segments, no dot segments) are read, and only inside the build directory.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { dispatch } from "../api/route.js";
import { routes } from "../api/routes.js";
import { staticFileOf, requestOfStaticFile } from "../api/staticPath.js";
import { apiError, type ApiResponse } from "../api/errors.js";

export interface ServerOptions {
  /** Directory holding `api/…` pre-rendered files and `manifest.json`; may be missing. */
  buildDir: string;
  /** Scheme + host for absolute links of computed answers. */
  baseUrl: string;
  /** Bytes of pre-rendered files (with their compressed siblings) kept in memory; default 64 MB. */
  cacheBytes?: number;
  /** How often (ms) to look whether a new build replaced the directory, dropping the memory cache; default 1000. */
  recheckMs?: number;
}

/** Bodies up to this size are sent as they are: compression gains little and costs a round of zlib. */
export const COMPRESS_MIN_BYTES = 1024;

const ENCODINGS = ["br", "gzip"] as const;
export type Encoding = (typeof ENCODINGS)[number];
const SIBLING_SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };
const ETAG_SUFFIX: Record<Encoding, string> = { br: "-br", gzip: "-gz" };

export interface Answer {
  status: number;
  body: Buffer;
  /** Content hash of `body`; the ETag of every representation derives from it. */
  hash: string;
  source: "static" | "computed";
  /** Precompressed siblings found next to a static file. */
  encoded: Partial<Record<Encoding, Buffer>>;
}

export const hashOf = (body: Buffer): string => createHash("sha1").update(body).digest("base64url");

/** Serialises a handler answer: compact JSON, keys in insertion order, no timestamps. */
export const serialize = (response: ApiResponse): Buffer => Buffer.from(JSON.stringify(response.body));

function readIfFile(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "ENAMETOOLONG") return undefined;
    throw e;
  }
}

/** Least-recently-used map of static answers bounded by bytes (Map keeps insertion order). */
function answerCache(limit: number) {
  const entries = new Map<string, Answer>();
  let bytes = 0;
  const sizeOf = (a: Answer) => a.body.length + Object.values(a.encoded).reduce((s, b) => s + b.length, 0);
  return {
    get(key: string): Answer | undefined {
      const a = entries.get(key);
      if (a) {
        entries.delete(key);
        entries.set(key, a);
      }
      return a;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    set(key: string, a: Answer) {
      const size = sizeOf(a);
      if (size > limit) return;
      entries.set(key, a);
      bytes += size;
      for (const [k, v] of entries) {
        if (bytes <= limit) break;
        entries.delete(k);
        bytes -= sizeOf(v);
      }
    },
  };
}

export type Answerer = (pathBelowApi: string, query: URLSearchParams) => Answer;

const computed = (response: ApiResponse): Answer => {
  const body = serialize(response);
  return { status: response.status, body, hash: hashOf(body), source: "computed", encoded: {} };
};

/**
 * Answers requests below /api: the static file when the request is canonical and the file
 * exists, else the handler. A file URL (`…/index.json`, `…/@k=v.json`, what edge rewrites
 * produce) is served the same way, and computed from the request it stands for when missing.
 */
export function answerer(options: ServerOptions): Answerer {
  const root = resolve(options.buildDir, "api");
  const cache = answerCache(options.cacheBytes ?? 64 * 1024 * 1024);
  // A build swaps in a whole new directory with a new manifest.json: its inode tells them apart.
  const buildStamp = () => {
    const st = statSync(join(options.buildDir, "manifest.json"), { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.mtimeMs}` : "";
  };
  let stamp = buildStamp();
  let checkedAt = performance.now();
  return (pathBelowApi, query) => {
    if (performance.now() - checkedAt >= (options.recheckMs ?? 1000)) {
      checkedAt = performance.now();
      const now = buildStamp();
      if (now !== stamp) cache.clear();
      stamp = now;
    }
    const asFile = query.size === 0 ? requestOfStaticFile(pathBelowApi.slice(1)) : undefined;
    const request = asFile ?? { path: pathBelowApi, query };
    const file = staticFileOf(request.path, request.query);
    if (file) {
      const cached = cache.get(file);
      if (cached) return cached;
      const full = resolve(root, file);
      const body = full.startsWith(root + sep) ? readIfFile(full) : undefined;
      if (body) {
        const encoded: Answer["encoded"] = {};
        if (body.length > COMPRESS_MIN_BYTES)
          for (const e of ENCODINGS) {
            const sibling = readIfFile(full + SIBLING_SUFFIX[e]);
            if (sibling) encoded[e] = sibling;
          }
        const a: Answer = { status: 200, body, hash: hashOf(body), source: "static", encoded };
        cache.set(file, a);
        return a;
      }
    }
    return computed(dispatch(routes, { baseUrl: options.baseUrl, path: request.path, query: request.query }));
  };
}

/** Encodings the client accepts, best first (br before gzip; `q=0` refuses). */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  const accepted = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name, q ? Number(q[1]) : 1);
  }
  const wildcard = accepted.get("*");
  return ENCODINGS.filter((e) => (accepted.get(e) ?? wildcard ?? 0) > 0);
}

/** Whether an If-None-Match header names any representation of the content `hash`. */
export function etagMatches(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    return tag === "*" || tag.replace(/-(gz|br)$/, "") === hash;
  });
}

/** The encoding to send: the first accepted one with a sibling, else gzip (on the fly), else none. */
function encodingFor(a: Answer, accepted: Encoding[]): Encoding | undefined {
  if (a.body.length <= COMPRESS_MIN_BYTES) return undefined;
  // Without a sibling (computed answer, or built without one) only gzip is made on the fly: brotli would cost more than it saves.
  return accepted.find((e) => a.encoded[e]) ?? (accepted.includes("gzip") ? "gzip" : undefined);
}

const payloadOf = (a: Answer, encoding: Encoding | undefined): Buffer =>
  encoding === undefined ? a.body : (a.encoded[encoding] ?? gzipSync(a.body));

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, X-Answer-Source",
};

function send(req: IncomingMessage, res: ServerResponse, a: Answer) {
  const encoding = encodingFor(a, acceptedEncodings(req.headers["accept-encoding"]));
  res.setHeader("Access-Control-Allow-Origin", CORS["Access-Control-Allow-Origin"]);
  res.setHeader("Access-Control-Expose-Headers", CORS["Access-Control-Expose-Headers"]);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("X-Answer-Source", a.source);
  if (a.status === 200) {
    res.setHeader("ETag", `"${a.hash}${encoding ? ETAG_SUFFIX[encoding] : ""}"`);
    res.setHeader("Cache-Control", "public, max-age=3600");
    if (etagMatches(req.headers["if-none-match"], a.hash)) {
      res.writeHead(304);
      res.end();
      return;
    }
  } else res.setHeader("Cache-Control", "no-cache");
  const payload = payloadOf(a, encoding);
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", payload.length);
  res.writeHead(a.status);
  res.end(req.method === "HEAD" ? undefined : payload);
}

/** The request handler of the fallback server, bound to one build directory. */
export function requestHandler(options: ServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const answer = answerer(options);
  return (req, res) => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...CORS,
        "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
        "Access-Control-Allow-Headers": "*",
        "Access-Control-Max-Age": "86400",
      });
      res.end();
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD, OPTIONS");
      send(req, res, computed(apiError({ status: 405, error: "Method not allowed", message: `${req.method} is not supported.`, hint: "Every endpoint is a GET." })));
      return;
    }
    // Parsed against a fixed origin so that `//host/…` or absolute-form targets stay paths.
    const url = URL.canParse(`http://localhost${req.url}`) ? new URL(`http://localhost${req.url}`) : undefined;
    if (!url || (url.pathname !== "/api" && !url.pathname.startsWith("/api/"))) {
      const where = url?.pathname ?? String(req.url);
      send(req, res, computed(apiError({ status: 404, error: "Not found", message: `Nothing is served at ${where}.`, hint: "Every endpoint starts with /api, e.g. /api/tuning-systems." })));
      return;
    }
    send(req, res, answer(url.pathname.slice(4) || "/", url.searchParams));
  };
}

/** Reads the base URL the build used for links, so computed answers match the files. */
export function buildBaseUrl(buildDir: string): string | undefined {
  const manifest = readIfFile(join(buildDir, "manifest.json"));
  if (!manifest) return undefined;
  try {
    return JSON.parse(manifest.toString("utf8")).baseUrl;
  } catch {
    return undefined;
  }
}

export function startServer(options: ServerOptions, port: number, host = "127.0.0.1"): Promise<Server> {
  const server = createServer(requestHandler(options));
  return new Promise((resolveServer, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolveServer(server));
  });
}
