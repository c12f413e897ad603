/**
 * Refusals the Node server makes before or beside the web handler (a head Node could not parse,
 * a full queue, a computation past its time limit), as JSON bodies with the handler's headers.
 */
import { contentHash, respond } from "./handler.js";

export interface Refusal {
  status: number;
  body: { error: string; message: string; hint: string };
}

/** Refusals carry no request's headers: nothing to negotiate, no ETag to match. */
const ANY_REQUEST = "http://localhost/";

/** The Response of a refusal, through the handler's respond: CORS, Cache-Control: no-cache, Content-Length. */
export async function jsonRefusal(refusal: Refusal, extra: Record<string, string> = {}): Promise<Response> {
  const body = new TextEncoder().encode(JSON.stringify(refusal.body));
  return respond(new Request(ANY_REQUEST), { status: refusal.status, body, hash: await contentHash(body), source: "computed", encoded: {} }, false, extra);
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  414: "URI Too Long",
  417: "Expectation Failed",
  431: "Request Header Fields Too Large",
};

/** A Response as the bytes of an HTTP/1.1 answer that closes the connection, for a socket Node gave up parsing. */
export async function rawAnswer(response: Response): Promise<Buffer> {
  const body = Buffer.from(await response.arrayBuffer());
  const head = [`HTTP/1.1 ${response.status} ${REASONS[response.status] ?? "Refused"}`];
  response.headers.forEach((value, name) => {
    head.push(`${name}: ${value}`);
  });
  head.push("connection: close");
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}

/** The JSON answer to a request head Node could not parse, by llhttp's error code. */
export function headRefusal(code: string | undefined, rawPacket?: Buffer, headersTimeoutMs = 10_000): Refusal {
  const firstLine = rawPacket ? rawPacket.subarray(0, Math.max(0, rawPacket.indexOf("\r\n"))).length : 0;
  if (code === "HPE_HEADER_OVERFLOW" && (firstLine === 0 || firstLine > 8 * 1024))
    return {
      status: 414,
      body: {
        error: "URI too long",
        message: "The request line is longer than the server reads.",
        hint: "Shorten the request: split long lists over several requests.",
      },
    };
  if (code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      body: {
        error: "Request header fields too large",
        message: "The request's headers are larger than the server reads.",
        hint: "Send fewer or shorter headers.",
      },
    };
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return {
      status: 408,
      body: {
        error: "Request timeout",
        message: `The request head did not arrive within ${headersTimeoutMs / 1000} s.`,
        hint: "Send the whole request head at once.",
      },
    };
  if (code === "HPE_INVALID_URL")
    return {
      status: 400,
      body: {
        error: "Invalid request target",
        message: "The request target holds characters HTTP does not allow, such as raw non-ASCII bytes or spaces.",
        hint: "Percent-encode the path and query as UTF-8 (é is %C3%A9).",
      },
    };
  return {
    status: 400,
    body: {
      error: "Bad request",
      message: `The request could not be parsed as HTTP/1.1 (${code ?? "unknown error"}).`,
      hint: "Send a well-formed HTTP/1.1 GET request.",
    },
  };
}
