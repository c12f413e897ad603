/**
 * The Node server: a thin node:http adapter over the web-standard handler, serving a build
 * directory's files through the Node asset reader and computing the rest. Requests Node's own
 * HTTP parser refuses (raw non-ASCII bytes, oversized heads, slow clients) still get a JSON body.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { handleRequest, type HandlerOptions } from "./handler.js";
import { nodeAssets, type NodeAssetOptions } from "./nodeAssets.js";
import type { Catalog } from "../theory/catalog.js";

export interface ServerOptions extends NodeAssetOptions {
  catalog: Catalog;
  /** Scheme + host for absolute links of computed answers. */
  baseUrl: string;
  /** Time a client has to send the request head; default HEADERS_TIMEOUT_MS. */
  headersTimeoutMs?: number;
}

/** Time a client has to send the request head before it gets a 408. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Time a client has to send the whole request. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The request target as a URL. Node hands over the target's bytes as latin-1 characters; bytes
 * above 0x7f are percent-encoded back, so UTF-8 text stays UTF-8. A fixed origin keeps `//x/…`
 * and absolute-form targets paths.
 */
export function requestUrl(target: string): string {
  const bytes = Array.from(target, (c) => c.charCodeAt(0) & 0xff);
  return `http://localhost${bytes.map((b) => (b > 0x7e || b < 0x21 ? `%${b.toString(16).toUpperCase().padStart(2, "0")}` : String.fromCharCode(b))).join("")}`;
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(requestUrl(req.url ?? "/"), { method: req.method, headers });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.end(response.body ? new Uint8Array(await response.arrayBuffer()) : undefined);
}

/** The JSON answer to a request head Node could not parse, by llhttp's error code. */
export function headRefusal(
  code: string | undefined,
  rawPacket?: Buffer,
  headersTimeoutMs = HEADERS_TIMEOUT_MS,
): { status: number; body: Record<string, string> } {
  const firstLine = rawPacket ? rawPacket.subarray(0, Math.max(0, rawPacket.indexOf("\r\n"))).length : 0;
  if (code === "HPE_HEADER_OVERFLOW" && (firstLine === 0 || firstLine > 8 * 1024))
    return { status: 414, body: { error: "URI too long", message: "The request line is longer than the server reads.", hint: "Shorten the request: split long lists over several requests." } };
  if (code === "HPE_HEADER_OVERFLOW")
    return { status: 431, body: { error: "Request header fields too large", message: "The request's headers are larger than the server reads.", hint: "Send fewer or shorter headers." } };
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, body: { error: "Request timeout", message: `The request head did not arrive within ${headersTimeoutMs / 1000} s.`, hint: "Send the whole request head at once." } };
  if (code === "HPE_INVALID_URL")
    return { status: 400, body: { error: "Invalid request target", message: "The request target holds characters HTTP does not allow, such as raw non-ASCII bytes or spaces.", hint: "Percent-encode the path and query as UTF-8 (é is %C3%A9)." } };
  return { status: 400, body: { error: "Bad request", message: `The request could not be parsed as HTTP/1.1 (${code ?? "unknown error"}).`, hint: "Send a well-formed HTTP/1.1 GET request." } };
}

function refuseHead(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex, headersTimeoutMs: number) {
  if (!socket.writable || (err.code === "ECONNRESET" && !err.rawPacket)) return socket.destroy();
  const { status, body } = headRefusal(err.code, err.rawPacket, headersTimeoutMs);
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${status === 400 ? "Bad Request" : "Refused"}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Access-Control-Allow-Origin: *\r\nCache-Control: no-cache\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}

/** The node:http listener of the server, bound to one build directory and one catalog. */
export function requestListener(options: ServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const handlerOptions: HandlerOptions = { catalog: options.catalog, baseUrl: options.baseUrl, assets: nodeAssets(options), compress: true };
  return (req, res) => {
    handleRequest(toRequest(req), handlerOptions)
      .then((response) => send(res, response))
      .catch(() => res.destroy());
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

export function startServer(options: ServerOptions, port: number, host = "127.0.0.1"): Promise<Server> {
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = createServer(
    // Node looks for expired heads every connectionsCheckingInterval (30 s by default): often enough that the bound holds.
    { headersTimeout, requestTimeout: Math.max(headersTimeout, REQUEST_TIMEOUT_MS), connectionsCheckingInterval: Math.min(1000, headersTimeout / 4) },
    requestListener(options),
  );
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => refuseHead(err, socket, headersTimeout));
  return new Promise((resolveServer, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolveServer(server));
  });
}
