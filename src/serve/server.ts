/**
 * The fallback server (node:http, no framework): answers every spec URL under /api from the
 * pre-rendered file when the request is canonical and the file exists, else from the handler.
 * Both paths produce the same bytes. Nothing outside the build directory is read for a request.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import { createHash } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { dispatch } from "../api/route.js";
import { routes } from "../api/routes.js";
import { staticFileOf } from "../api/staticPath.js";
import { apiError, type ApiResponse } from "../api/errors.js";

export interface ServerOptions {
  /** Directory holding `api/…` pre-rendered files and `manifest.json`; may be missing. */
  buildDir: string;
  /** Scheme + host for absolute links of computed answers. */
  baseUrl: string;
}

export interface Answer {
  status: number;
  body: Buffer;
  source: "static" | "computed";
}

const etagOf = (body: Buffer) => `"${createHash("sha1").update(body).digest("base64url")}"`;

/** Serialises a handler answer: compact JSON, keys in insertion order, no timestamps. */
export const serialize = (response: ApiResponse): Buffer => Buffer.from(JSON.stringify(response.body));

/** Answers a request below /api: the static file when there is one, else the handler. */
export function answer(options: ServerOptions, pathBelowApi: string, query: URLSearchParams): Answer {
  const file = staticFileOf(pathBelowApi, query);
  if (file) {
    const root = resolve(options.buildDir, "api");
    const full = resolve(root, file);
    if (full.startsWith(root + sep) && existsSync(full)) return { status: 200, body: readFileSync(full), source: "static" };
  }
  const response = dispatch(routes, { baseUrl: options.baseUrl, path: pathBelowApi, query });
  return { status: response.status, body: serialize(response), source: "computed" };
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer, source: string) {
  const etag = etagOf(body);
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("X-Answer-Source", source);
  if (status === 200) {
    res.setHeader("ETag", etag);
    res.setHeader("Cache-Control", "public, max-age=3600");
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304);
      res.end();
      return;
    }
  }
  let payload = body;
  if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? "")) && body.length > 1024) {
    payload = gzipSync(body);
    res.setHeader("Content-Encoding", "gzip");
  }
  res.setHeader("Content-Length", payload.length);
  res.writeHead(status);
  res.end(req.method === "HEAD" ? undefined : payload);
}

export function handleRequest(options: ServerOptions, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (req.method === "OPTIONS") {
    res.writeHead(204, {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "*",
      "Access-Control-Max-Age": "86400",
    });
    res.end();
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = serialize(
      apiError({ status: 405, error: "Method not allowed", message: `${req.method} is not supported.`, hint: "Every endpoint is a GET." }),
    );
    res.setHeader("Allow", "GET, HEAD, OPTIONS");
    send(req, res, 405, body, "computed");
    return;
  }
  if (url.pathname !== "/api" && !url.pathname.startsWith("/api/")) {
    const body = serialize(
      apiError({ status: 404, error: "Not found", message: `Nothing is served at ${url.pathname}.`, hint: "Every endpoint starts with /api, e.g. /api/tuning-systems." }),
    );
    send(req, res, 404, body, "computed");
    return;
  }
  const a = answer(options, url.pathname.slice(4) || "/", url.searchParams);
  send(req, res, a.status, a.body, a.source);
}

/** Reads the base URL the build used for links, so computed answers match the files. */
export function buildBaseUrl(buildDir: string): string | undefined {
  const manifest = join(buildDir, "manifest.json");
  if (!existsSync(manifest)) return undefined;
  try {
    return JSON.parse(readFileSync(manifest, "utf8")).baseUrl;
  } catch {
    return undefined;
  }
}

export function startServer(options: ServerOptions, port: number, host = "127.0.0.1"): Promise<Server> {
  const server = createServer((req, res) => handleRequest(options, req, res));
  return new Promise((resolveServer) => server.listen(port, host, () => resolveServer(server)));
}
