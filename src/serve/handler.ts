/**
 * The web-standard request handler: `Request` in, `Response` out, with no Node API, so the Node
 * server, the worker (Cloudflare, Deno, Bun, Netlify, Lambda) and the browser's service worker
 * all answer with the same bytes and headers. It routes, serves the canonical pre-rendered file
 * through an injected asset reader, computes everything else with `dispatch`, and adds the
 * content ETag (304 on a match), CORS, OPTIONS and HEAD. Every refusal is a JSON body.
 */
import { dispatch } from "../api/route.js";
import { routes } from "../api/routes.js";
import { staticFileOf, requestOfStaticFile, isDownloadPath, downloadNameOf } from "../api/staticPath.js";
import { apiError, fault, type ApiResponse, type ErrorStatus } from "../api/errors.js";
import { downloadTypeOf } from "../exports/formats.js";
import type { Catalog } from "../theory/catalog.js";
import { datasetTypeOf } from "../api/datasets/files.js";
import { ifRangeHolds, rangeOf, type ByteRange } from "./ranges.js";

export const ENCODINGS = ["br", "gzip"] as const;
export type Encoding = (typeof ENCODINGS)[number];
export const SIBLING_SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };
const ETAG_SUFFIX: Record<Encoding, string> = { br: "-br", gzip: "-gz" };

/** Bodies up to this size are sent as they are: compression gains little and costs a round of zlib. */
export const COMPRESS_MIN_BYTES = 1024;
/** Longest request target answered (bytes of path and query); longer ones get a 414. */
export const MAX_URL_BYTES = 8 * 1024;
/** Most query parameters one request may carry; more get a 400. */
export const MAX_QUERY_PARAMETERS = 64;

/** Bytes as the web APIs take them (an ArrayBuffer behind, never a shared one). */
export type Bytes = Uint8Array<ArrayBuffer>;

/** A pre-rendered file and the precompressed siblings found next to it. */
export interface Asset {
  body: Bytes;
  encoded?: Partial<Record<Encoding, Bytes>>;
  /** contentHash(body), when the reader keeps it. */
  hash?: string;
}

/** A body left where it is (a large file on disk): its size, and a stream of any range of it. */
export interface FileBody {
  size: number;
  read(range: ByteRange): ReadableStream<Uint8Array>;
}

/** Whether a body is bytes in hand, not a file left on disk (not by instanceof: bytes made in another realm, such as a sandbox given the host's TextEncoder, are not the realm's Uint8Array). */
export const isBytes = (body: Bytes | FileBody): body is Bytes => ArrayBuffer.isView(body);

/** A pre-rendered file read a range at a time, never whole: sent as it is (no Content-Encoding). */
export interface StreamedAsset {
  body: FileBody;
  hash: string;
  encoded?: undefined;
}

/** Reads a pre-rendered file by its path below `build/api/` (as staticFileOf names it); undefined when absent. */
export type AssetReader = (file: string) => Promise<Asset | StreamedAsset | undefined>;

export interface HandlerOptions {
  catalog: Catalog;
  /** Scheme + host of absolute links in computed answers (the build's, so files and answers agree). */
  baseUrl: string;
  /** Where pre-rendered files come from; without it every answer is computed. */
  assets?: AssetReader;
  /** Negotiate Content-Encoding (siblings, gzip on the fly); leave off where the platform compresses. */
  compress?: boolean;
  /** Answers GET and HEAD requests outside /api (a site's own files); undefined or by default, a JSON 404. */
  outside?: (request: Request) => Promise<Response | undefined>;
}

export interface Answer {
  status: number;
  body: Bytes | FileBody;
  /** Content hash of `body`; the ETag of every representation derives from it. */
  hash: string;
  source: "static" | "computed";
  encoded: Partial<Record<Encoding, Bytes>>;
  /** A download and the name it is saved as; JSON otherwise. */
  download?: string;
  /** The Content-Type of a file that is not JSON (a download, a site's page, script or picture). */
  contentType?: string;
}

const encoder = new TextEncoder();

/** Serialises a handler answer: a file's bytes or text as they are, else compact JSON (keys in insertion order, no timestamps). */
export function serialize(response: ApiResponse): Bytes {
  if (!response.file) return encoder.encode(JSON.stringify(response.body));
  return typeof response.body === "string" ? encoder.encode(response.body) : response.body;
}

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** SHA-1 of the body, base64url: the ETag a file and a computed answer of the same bytes share. */
export async function contentHash(body: Bytes): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-1", body)));
}

async function answerOf(response: ApiResponse, source: Answer["source"] = "computed", encoded: Answer["encoded"] = {}): Promise<Answer> {
  const body = serialize(response);
  const file = response.file ? { download: response.file.name, contentType: response.file.type } : {};
  return { status: response.status, body, hash: await contentHash(body), source, encoded, ...file };
}

/** Encodings the client accepts, best first (br before gzip; `q=0` refuses). */
export function acceptedEncodings(header: string | null | undefined): Encoding[] {
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
export function etagMatches(header: string | null | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    return tag === "*" || tag.replace(/-(gz|br)$/, "") === hash;
  });
}

/** The encoding to send: the first accepted one with a sibling, else gzip (made now), else none; a streamed file goes as it is. */
export function encodingFor(a: Pick<Answer, "body" | "encoded">, accepted: Encoding[]): Encoding | undefined {
  if (!isBytes(a.body) || a.body.length <= COMPRESS_MIN_BYTES) return undefined;
  // Without a sibling only gzip is made on the fly: brotli would cost more than it saves.
  return accepted.find((e) => a.encoded[e]) ?? (accepted.includes("gzip") ? "gzip" : undefined);
}

async function gzip(body: Bytes): Promise<Bytes> {
  const stream = new Blob([body]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, X-Answer-Source, Accept-Ranges, Content-Range",
};

const sizeOf = (body: Answer["body"]) => (isBytes(body) ? body.length : body.size);

/** The bytes of `range` of a body (all of it without one), as they are. */
function partOf(body: Answer["body"], range: ByteRange | undefined): Bytes | ReadableStream<Uint8Array> {
  if (isBytes(body)) return range ? body.subarray(range.start, range.end + 1) : body;
  return body.size === 0 ? new Uint8Array(0) : body.read(range ?? { start: 0, end: body.size - 1 });
}

/**
 * The Response of an answer: content negotiation, ETag and 304, CORS, cache headers, HEAD and, for
 * a file, one byte range of GET (206, unencoded, with the unencoded file's ETag; 416 past its end).
 */
export async function respond(request: Request, a: Answer, compress: boolean, extra: Record<string, string> = {}): Promise<Response> {
  const size = sizeOf(a.body);
  const isFile = a.status === 200 && a.source === "static";
  // Range is defined for GET only (RFC 9110 §14.2): a HEAD gets the whole file's headers.
  const asked =
    isFile && request.method === "GET" && ifRangeHolds(request.headers.get("if-range"), a.hash) ? rangeOf(request.headers.get("range"), size) : undefined;
  const range = typeof asked === "object" ? asked : undefined;
  const encoding = compress && !range ? encodingFor(a, acceptedEncodings(request.headers.get("accept-encoding"))) : undefined;
  const headers = new Headers({
    ...CORS_HEADERS,
    Vary: "Accept-Encoding",
    "Content-Type": a.contentType ?? "application/json; charset=utf-8",
    "X-Answer-Source": a.source,
    ...(a.download === undefined ? {} : { "Content-Disposition": `attachment; filename="${a.download}"` }),
    ...(isFile ? { "Accept-Ranges": "bytes" } : {}),
    ...extra,
  });
  if (a.status === 200) {
    headers.set("ETag", `"${a.hash}${encoding ? ETAG_SUFFIX[encoding] : ""}"`);
    headers.set("Cache-Control", "public, max-age=3600");
    if (etagMatches(request.headers.get("if-none-match"), a.hash)) return new Response(null, { status: 304, headers });
  } else headers.set("Cache-Control", "no-cache");
  if (asked === "unsatisfiable")
    return respond(
      request,
      await refusal(
        416,
        "Range not satisfiable",
        `The range ${request.headers.get("range")} starts past the end of the file's ${size} bytes.`,
        `Ask for bytes below ${size}, e.g. Range: bytes=0-${Math.max(0, size - 1)}.`,
      ),
      false,
      { "Accept-Ranges": "bytes", "Content-Range": `bytes */${size}` },
    );
  if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
  if (encoding) headers.set("Content-Encoding", encoding);
  // encodingFor names an encoding only for a body in memory.
  const encoded = encoding === undefined ? undefined : (a.encoded[encoding] ?? (await gzip(a.body as Bytes)));
  headers.set("Content-Length", String(encoded?.length ?? (range ? range.end - range.start + 1 : size)));
  const payload = request.method === "HEAD" ? null : (encoded ?? partOf(a.body, range));
  return new Response(payload, { status: range ? 206 : a.status, headers });
}

const refusal = (status: ErrorStatus, error: string, message: string, hint: string) => answerOf(apiError({ status, error, message, hint }));

/** Methods the API answers, as a 405's Allow header lists them. */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/** The 405 of any other method (also of those a web Request cannot carry, such as TRACE or CONNECT). */
export async function methodNotAllowed(request: Request, method: string, compress: boolean): Promise<Response> {
  const refused = await refusal(405, "Method not allowed", `${method} is not supported.`, "Every endpoint is a GET.");
  return respond(request, refused, compress, { Allow: ALLOWED_METHODS });
}

/**
 * The request a path below /api stands for and the pre-rendered file that answers it, if any: a
 * file URL (`…/index.json`, `…/@k=v.json`, what edge rules rewrite to) stands for its request.
 */
export function staticRequestOf(pathBelowApi: string, query: URLSearchParams): { path: string; query: URLSearchParams; file: string | undefined } {
  const asFile = query.size === 0 ? requestOfStaticFile(pathBelowApi.slice(1)) : undefined;
  const request = asFile ?? { path: pathBelowApi, query };
  return { ...request, file: staticFileOf(request.path, request.query) };
}

/**
 * The answer to a request below /api: the pre-rendered file when the request is canonical and
 * the file exists, else the handler. A file URL (`…/index.json`, `…/@k=v.json`, what edge rules
 * rewrite to) is served the same way, and computed from the request it stands for when missing.
 * Without an asset reader every answer is computed, its body in memory.
 */
export async function answerApi(
  pathBelowApi: string,
  query: URLSearchParams,
  options: HandlerOptions & { assets?: undefined },
): Promise<Answer & { body: Bytes }>;
export async function answerApi(pathBelowApi: string, query: URLSearchParams, options: HandlerOptions): Promise<Answer>;
export async function answerApi(pathBelowApi: string, query: URLSearchParams, options: HandlerOptions): Promise<Answer> {
  const { file, ...request } = staticRequestOf(pathBelowApi, query);
  const asset = file && options.assets ? await options.assets(file) : undefined;
  if (asset) {
    const download = isDownloadPath(request.path) ? downloadNameOf(request.path) : undefined;
    const file = download === undefined ? { contentType: datasetTypeOf(request.path) } : { download, contentType: downloadTypeOf(download) };
    // A streamed asset always carries its hash.
    const hash = asset.hash ?? (await contentHash(asset.body as Bytes));
    return { status: 200, body: asset.body, hash, source: "static", encoded: asset.encoded ?? {}, ...file };
  }
  return answerOf(dispatch(routes, { catalog: options.catalog, baseUrl: options.baseUrl, path: request.path, query: request.query }));
}

async function route(request: Request, options: HandlerOptions): Promise<Response> {
  const compress = options.compress ?? false;
  if (request.method === "OPTIONS")
    return new Response(null, {
      status: 204,
      headers: { ...CORS_HEADERS, "Access-Control-Allow-Methods": ALLOWED_METHODS, "Access-Control-Allow-Headers": "*", "Access-Control-Max-Age": "86400" },
    });
  const url = new URL(request.url);
  const onApi = url.pathname === "/api" || url.pathname.startsWith("/api/");
  const outside = !onApi && options.outside && (request.method === "GET" || request.method === "HEAD") ? await options.outside(request) : undefined;
  if (outside) return outside;
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(request, request.method, compress);
  if (!onApi)
    return respond(
      request,
      await refusal(404, "Not found", `Nothing is served at ${url.pathname}.`, "Every endpoint starts with /api, e.g. /api/tuning-systems."),
      compress,
    );
  const targetBytes = encoder.encode(url.pathname + url.search).length;
  if (targetBytes > MAX_URL_BYTES)
    return respond(
      request,
      await refusal(
        414,
        "URI too long",
        `The request target has ${targetBytes} bytes; at most ${MAX_URL_BYTES} are answered.`,
        "Shorten the request: split long lists over several requests.",
      ),
      compress,
    );
  const parameters = [...url.searchParams.keys()].length;
  if (parameters > MAX_QUERY_PARAMETERS)
    return respond(
      request,
      await refusal(
        400,
        "Too many query parameters",
        `The request has ${parameters} query parameters; at most ${MAX_QUERY_PARAMETERS} are answered.`,
        "Give each parameter once; lists are comma-separated values of one parameter.",
      ),
      compress,
    );
  return respond(request, await answerApi(url.pathname.slice(4) || "/", url.searchParams, options), compress);
}

/** Answers any request; a fault anywhere inside (a route, a file read) becomes the one JSON 500 here, never an empty or HTML body. */
export async function handleRequest(request: Request, options: HandlerOptions): Promise<Response> {
  try {
    return await route(request, options);
  } catch (e) {
    return respond(request, await answerOf(fault(e)), false);
  }
}
