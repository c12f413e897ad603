/**
 * Whatever a socket delivers, the Node server answers with JSON or closes cleanly, and keeps
 * answering: every method (those a web Request cannot carry, lowercase and unknown tokens),
 * CONNECT, absolute-form and asterisk-form targets, Expect, bodies on GET, pipelined requests,
 * HTTP/1.0, half-closed and reset sockets. Sent through raw sockets (node:net).
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { connect } from "node:net";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startServer, stopServer } from "../src/serve/server.js";
import { catalog } from "./support/catalog.js";
import { SAMPLE_BASE_URL } from "./support/buildSample.js";

let server: Server;
let port: number;

beforeAll(async () => {
  // No build directory: every /api answer is computed on the pool, the path with the most to go wrong.
  server = await startServer({ catalog, buildDir: "/nonexistent", baseUrl: SAMPLE_BASE_URL, pool: { threads: 1 } }, 0);
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  if (server) await stopServer(server, 1000);
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what the server sent into answers (each with Content-Length, or none for 1xx, 204, 304 and HEAD). */
function answersIn(bytes: Buffer, heads: string[] = []): Answer[] {
  const answers: Answer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf("\r\n\r\n", at);
    if (end < 0) break;
    const [line, ...fields] = bytes.subarray(at, end).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]));
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1] ?? 0);
    const noBody = status < 200 || status === 204 || status === 304 || heads[answers.filter((a) => a.status >= 200).length] === "HEAD";
    const length = noBody ? 0 : Number(headers["content-length"] ?? 0);
    answers.push({ status, headers, body: bytes.subarray(end + 4, end + 4 + length).toString("utf8") });
    at = end + 4 + length;
  }
  return answers;
}

/** Sends `bytes` (then, with `halfClose`, ends the writing side) and collects everything until the server closes. */
function exchange(bytes: string | Buffer, { halfClose = false, waitMs = 20_000 } = {}): Promise<Buffer> {
  return new Promise((done, fail) => {
    const socket = connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    const timer = setTimeout(
      () => (socket.destroy(), fail(new Error(`no close within ${waitMs} ms; got ${Buffer.concat(received).toString("latin1").slice(0, 300)}`))),
      waitMs,
    );
    socket.on("data", (c) => received.push(c));
    socket.on("error", () => undefined);
    socket.on("close", () => (clearTimeout(timer), done(Buffer.concat(received))));
    socket.write(bytes);
    if (halfClose) socket.end();
  });
}

const jsonError = (a: Answer) => {
  expect(a.headers["content-type"]).toBe("application/json; charset=utf-8");
  const body = JSON.parse(a.body);
  expect(Object.keys(body)).toEqual(["error", "message", "hint"]);
  return body as { error: string; message: string };
};

async function stillServing() {
  const [a] = answersIn(await exchange("GET /api/sources HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  expect(a.status).toBe(200);
  expect(JSON.parse(a.body).count).toBeGreaterThan(0);
}

describe("methods", () => {
  it.each(["TRACE", "TRACK", "CONNECT", "POST", "PUT", "DELETE", "PATCH", "PROPFIND", "PURGE", "get", "Get", "FOO", "M-SEARCH", "BREW"])(
    "%s /api/sources is a JSON 405 naming the allowed methods",
    async (method) => {
      const target = method === "CONNECT" ? "example.org:443" : "/api/sources";
      const answers = answersIn(await exchange(`${method} ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`));
      expect(answers).toHaveLength(1);
      expect(answers[0].status).toBe(405);
      expect(answers[0].headers["allow"]).toBe("GET, HEAD, OPTIONS");
      expect(answers[0].headers["access-control-allow-origin"]).toBe("*");
      expect(jsonError(answers[0]).message).toBe(`${method} is not supported.`);
      await stillServing();
    },
  );
});

describe("request targets", () => {
  it("an absolute-form target is answered as its path", async () => {
    const [absolute] = answersIn(await exchange("GET http://example.org:8080/api/sources HTTP/1.1\r\nHost: example.org\r\nConnection: close\r\n\r\n"));
    const [origin] = answersIn(await exchange("GET /api/sources HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    expect(absolute.status).toBe(200);
    expect(absolute.body).toBe(origin.body);
  });

  it("OPTIONS * is the CORS preflight; GET * is a JSON 400", async () => {
    const [options] = answersIn(await exchange("OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    expect(options.status).toBe(204);
    expect(options.headers["access-control-allow-methods"]).toBe("GET, HEAD, OPTIONS");
    const [get] = answersIn(await exchange("GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    expect(get.status).toBe(400);
    expect(jsonError(get).error).toBe("Invalid request target");
    await stillServing();
  });

  it("garbage instead of a request line is a JSON 400", async () => {
    const [a] = answersIn(await exchange(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a])));
    expect(a.status).toBe(400);
    jsonError(a);
    await stillServing();
  });
});

describe("bodies and expectations", () => {
  it("Expect: 100-continue gets 100 Continue, then the answer", async () => {
    const answers = answersIn(
      await exchange("GET /api/sources HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd"),
    );
    expect(answers.map((a) => a.status)).toEqual([100, 200]);
  });

  it("any other expectation is a JSON 417", async () => {
    const [a] = answersIn(await exchange("GET /api/sources HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n"));
    expect(a.status).toBe(417);
    expect(jsonError(a).message).toContain("teapot");
    await stillServing();
  });

  it("a GET with a body, sized or chunked, is answered and the next request on the connection too", async () => {
    const answers = answersIn(
      await exchange(
        "GET /api/sources HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world" +
          "GET /api/sources HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" +
          "GET /api/tuning-systems HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(JSON.parse(answers[2].body).count).toBeGreaterThan(0);
  });
});

describe("connections", () => {
  it("pipelined requests are answered in order, file, computed, refused and HEAD alike", async () => {
    const methods = ["GET", "HEAD", "DELETE", "GET", "GET"];
    const targets = ["/api/sources", "/api/sources", "/api/sources", "/nothing", "/api/tuning-systems"];
    const wire = methods.map((m, i) => `${m} ${targets[i]} HTTP/1.1\r\nHost: x\r\n${i === methods.length - 1 ? "Connection: close\r\n" : ""}\r\n`).join("");
    const answers = answersIn(await exchange(wire), methods);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 405, 404, 200]);
    expect(answers[1].body).toBe("");
    expect(answers[1].headers["content-length"]).toBe(answers[0].headers["content-length"]);
    expect(JSON.parse(answers[4].body).count).toBeGreaterThan(0);
  });

  it("HTTP/1.0 without a Host header is answered and closed", async () => {
    const bytes = await exchange("GET /api/sources HTTP/1.0\r\n\r\n");
    const [a] = answersIn(bytes);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body).count).toBeGreaterThan(0);
  });

  it("a client that half-closes after its request still gets the answer", async () => {
    const [computed] = answersIn(await exchange("GET /api/sources HTTP/1.1\r\nHost: x\r\n\r\n", { halfClose: true }));
    expect(computed.status).toBe(200);
    const [refused] = answersIn(await exchange("BREW /api/sources HTTP/1.1\r\nHost: x\r\n\r\n", { halfClose: true }));
    expect(refused.status).toBe(405);
    const [tunnel] = answersIn(await exchange("CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n", { halfClose: true }));
    expect(tunnel.status).toBe(405);
  });

  it("sockets reset before, during and after their request leave the server serving", async () => {
    const resets = [
      "GET /api/maqamat/classification/maqam-pitch-class-sets?tuningSystem=ronzevalle_1904&startingNote=ushayran&includeIncompatible=true HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /api/sources HTTP/1.1\r\nHo",
      "GET /api/sources HTTP/1.1\r\nHost: x\r\n\r\n",
      "",
    ];
    await Promise.all(
      resets.flatMap((wire) =>
        [0, 1, 20].map(
          (ms) =>
            new Promise<void>((done) => {
              const socket = connect(port, "127.0.0.1", () => {
                if (wire) socket.write(wire);
                setTimeout(() => (socket.resetAndDestroy(), done()), ms);
              });
              socket.on("error", () => done());
            }),
        ),
      ),
    );
    await stillServing();
  });
});

it("after all of the above, the server answers", async () => {
  await stillServing();
  expect(server.listening).toBe(true);
});
