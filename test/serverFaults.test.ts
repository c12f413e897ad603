/**
 * The Node server under hostile clients, through real sockets: clients that leave mid-answer,
 * heads sent slowly or never, oversized request lines, too many parameters or headers. Each gets
 * a bounded JSON refusal or a closed connection, and the server keeps answering everyone else.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { connect, type Socket } from "node:net";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startServer } from "../src/serve/server.js";
import { catalog } from "./support/catalog.js";
import { SAMPLE_BASE_URL } from "./support/buildSample.js";

const HEADERS_TIMEOUT_MS = 1000;
let server: Server;
let port: number;

beforeAll(async () => {
  // No build directory: every answer is computed, the slowest way to answer.
  server = await startServer({ catalog, buildDir: "/nonexistent", baseUrl: SAMPLE_BASE_URL, headersTimeoutMs: HEADERS_TIMEOUT_MS }, 0);
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

interface RawReply {
  status: number;
  headers: string;
  body: string;
  /** Milliseconds from the first byte sent until the server closed the connection. */
  ms: number;
}

/** Writes `chunks` on a raw socket (a function: called with the socket, for timed writes) and reads until the server closes. */
function raw(chunks: string | ((s: Socket) => void)): Promise<RawReply> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (c) => received.push(c));
    // A reset after the answer arrived still counts as an answer.
    socket.on("error", (e) => (received.length ? undefined : fail(e)));
    socket.on("close", () => {
      const text = Buffer.concat(received).toString("latin1");
      const [head, ...rest] = text.split("\r\n\r\n");
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: rest.join("\r\n\r\n"), ms: performance.now() - started });
    });
    if (typeof chunks === "string") socket.write(chunks);
    else chunks(socket);
  });
}

const get = (target: string, headers = "") => raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers}\r\n`);

function expectJsonRefusal(r: RawReply, status: number) {
  expect(r.status).toBe(status);
  expect(r.headers).toMatch(/content-type: application\/json/i);
  const body = JSON.parse(r.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n$/g, ""));
  expect(Object.keys(body)).toEqual(["error", "message", "hint"]);
  return body as { error: string; message: string; hint: string };
}

async function stillServing() {
  const r = await get("/api/tuning-systems/ibnsina_1037/yegah/pitch-classes");
  expect(r.status).toBe(200);
  expect(JSON.parse(r.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n$/g, "")).pitchClasses.length).toBeGreaterThan(0);
}

const HEAVY = "/api/maqamat/classification/maqam-pitch-class-sets?tuningSystem=ronzevalle_1904&startingNote=ushayran&includeIncompatible=true";

describe("clients that leave", () => {
  it("before the answer is computed, or after its first bytes, leave the server serving", async () => {
    for (let i = 0; i < 20; i++) {
      // Gone before the answer: the server computes it and writes to a closed socket.
      const early = connect(port, "127.0.0.1", () => early.end(`GET ${HEAVY}&i=${i} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
      early.on("data", () => undefined);
      early.on("error", () => undefined);
      early.on("connect", () => setTimeout(() => early.destroy(), 5));
      // Gone after the first chunk of a large answer.
      await new Promise<void>((done) => {
        const late = connect(port, "127.0.0.1", () => late.write(`GET ${HEAVY} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
        late.once("data", () => (late.resetAndDestroy(), done()));
        late.on("error", () => undefined);
      });
    }
    await stillServing();
  });
});

describe("slow clients", () => {
  it("a head sent a byte at a time is refused with a JSON 408 within the headers timeout, while others are served", async () => {
    const slow = raw((s) => {
      s.write("GET /api/tuning-systems HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
      const drip = setInterval(() => (s.writable ? s.write("a") : clearInterval(drip)), 100);
      s.on("close", () => clearInterval(drip));
    });
    for (let i = 0; i < 5; i++) await stillServing();
    const r = await slow;
    const body = expectJsonRefusal(r, 408);
    expect(body.message).toContain(`${HEADERS_TIMEOUT_MS / 1000} s`);
    // Node looks for expired heads every quarter of the timeout.
    expect(r.ms).toBeLessThan(HEADERS_TIMEOUT_MS * 3);
  });

  it("a connection that sends nothing is closed within the headers timeout", async () => {
    const r = await raw(() => undefined);
    expect([0, 408]).toContain(r.status);
    expect(r.ms).toBeLessThan(HEADERS_TIMEOUT_MS * 3);
    await stillServing();
  });
});

describe("oversized requests get bounded JSON refusals through the socket", () => {
  it("a 64 KB URL is a 414", async () => {
    const r = await get(`/api/intervals/calculate?tuningSystem=ibnsina_1037&startingNote=yegah&noteNames=${"rast,".repeat(13_200)}`);
    const body = expectJsonRefusal(r, 414);
    expect(body.hint).toMatch(/split long lists/);
    await stillServing();
  });

  it("a URL over the handler's 8 KB limit but within Node's head is a 414 naming its size", async () => {
    const r = await get(`/api/intervals/calculate?noteNames=${"rast,".repeat(2000)}`);
    expect(expectJsonRefusal(r, 414).message).toContain("10035 bytes");
  });

  it("1,000 query parameters are a 400 naming the count and the limit", async () => {
    const r = await get(`/api/tuning-systems?${Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join("&")}`);
    const body = expectJsonRefusal(r, 400);
    expect(body.message).toBe("The request has 1000 query parameters; at most 64 are answered.");
  });

  it("1,000 repetitions of a parameter are a 414 beyond Node's 16 KB head, a 400 within it", async () => {
    const r = await get(`/api/tuning-systems?${"includeArabic=true&".repeat(1000)}`);
    expect(r.status).toBe(414);
    const short = await get(`/api/tuning-systems?${"a=1&".repeat(1000)}`);
    expect(expectJsonRefusal(short, 400).message).toContain("1000 query parameters");
  });

  it("headers over Node's limit are a 431", async () => {
    const headers = Array.from({ length: 400 }, (_, i) => `X-Padding-${i}: ${"x".repeat(60)}\r\n`).join("");
    expectJsonRefusal(await get("/api/tuning-systems", headers), 431);
    await stillServing();
  });
});
