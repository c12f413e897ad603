/**
 * AWS Lambda function URL (payload format 2.0) adapter over the worker's `fetch`: the event
 * becomes a web Request, the Response a result object whose body is text when it is UTF-8 and
 * base64 otherwise (binary, or content-encoded). In the S3 + CloudFront recipe the bucket serves
 * the files and CloudFront's origin group sends its misses here, so the worker has no assets.
 * Bundled by the build into build/_lambda/index.mjs (handler `index.handler`).
 */
import { apiError } from "../api/errors.js";
import worker from "./worker.js";

/** The fields of a function-URL event that make up the request. */
export interface FunctionUrlEvent {
  version?: string;
  rawPath: string;
  rawQueryString?: string;
  headers?: Record<string, string | undefined>;
  /** Cookie header values, taken out of `headers`. */
  cookies?: string[];
  requestContext: { domainName?: string; http: { method: string } };
  body?: string;
  isBase64Encoded?: boolean;
}

export interface FunctionUrlResult {
  statusCode: number;
  headers: Record<string, string>;
  /** Set-Cookie values, which a header map cannot hold more than once. */
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

const BODYLESS = new Set(["GET", "HEAD"]);

/** Bytes as base64, in slices that stay below the engines' argument limits. */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/**
 * The request an event stands for. The host is the function URL's (`requestContext.domainName`),
 * so absolute links come from the worker's base URL, not from a client's Host header. A `?` or
 * `#` in the path (rawPath may arrive decoded) is escaped, so it stays part of the path.
 */
export function requestOf(event: FunctionUrlEvent): Request {
  const method = event.requestContext.http.method.toUpperCase();
  const host = event.requestContext.domainName ?? event.headers?.host ?? "localhost";
  const path = (event.rawPath || "/").replace(/[?#]/g, (c) => encodeURIComponent(c));
  const query = event.rawQueryString ? `?${event.rawQueryString}` : "";
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  if (event.cookies?.length && !headers.has("cookie")) headers.set("cookie", event.cookies.join("; "));
  const body = BODYLESS.has(method) || event.body === undefined ? undefined : event.isBase64Encoded ? fromBase64(event.body) : event.body;
  return new Request(`https://${host}${path}${query}`, { method, headers, body });
}

/**
 * The body as text when it is UTF-8 (Lambda encodes a text body as UTF-8, so the bytes stay the
 * same), else undefined. A content-encoded body is binary whatever its bytes happen to be.
 */
function textOf(bytes: Uint8Array, headers: Headers): string | undefined {
  const encoding = headers.get("content-encoding");
  if (encoding && encoding !== "identity") return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The result object for a Response: headers as a map, Set-Cookie apart, the body as text or base64. */
export async function resultOf(response: Response): Promise<FunctionUrlResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = textOf(bytes, response.headers);
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body: text ?? toBase64(bytes),
    isBase64Encoded: text === undefined && bytes.length > 0,
  };
}

/** The result for an event no Request can be made of (a path or host the URL parser refuses). */
function unreadable(e: unknown): FunctionUrlResult {
  const { status, body } = apiError({
    error: "Bad request",
    message: `The request could not be read: ${(e as Error).message}`,
    hint: "Check the path and the percent-encoding of the URL.",
  });
  return {
    statusCode: status,
    headers: { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

/** A Lambda handler answering function-URL events with `fetch` (the worker's, without ASSETS). */
export function functionUrlHandler(fetch: (request: Request) => Promise<Response>): (event: FunctionUrlEvent) => Promise<FunctionUrlResult> {
  return async (event) => {
    let request: Request;
    try {
      request = requestOf(event);
    } catch (e) {
      return unreadable(e);
    }
    return resultOf(await fetch(request));
  };
}

export const handler = functionUrlHandler((request) => worker.fetch(request));
