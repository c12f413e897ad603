/**
 * The Node server's fast path for files answers exactly what the web handler answers: status,
 * headers and bytes, for pre-rendered files of every route that has them and for the site, with
 * identity, gzip and brotli, GET and HEAD, with and without a matching If-None-Match, through a
 * spec URL and through the file's own URL.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import { routes } from "../src/api/routes.js";
import { staticFileOf } from "../src/api/staticPath.js";
import { startServer, stopServer, serverState } from "../src/serve/server.js";
import { handleRequest, type HandlerOptions } from "../src/serve/handler.js";
import { fileAnswers } from "../src/serve/fileAnswers.js";
import { prerenderRequests } from "../scripts/prerender/index.js";
import { specUrlOf } from "../scripts/benchRequests.js";
import { catalog } from "./support/catalog.js";
import { buildSample, SAMPLE_BASE_URL } from "./support/buildSample.js";

/** Two pre-rendered requests of every route that has any (the first with a query, when there is one). */
function twoPerRoute(): string[] {
  const chosen = new Map<string, string[]>();
  for (const r of prerenderRequests(catalog)) {
    const route = routes.find((x) => x.matcher.test(r.split("?")[0].replace(/\/+$/, "")))?.name ?? "?";
    const list = chosen.get(route) ?? [];
    if (list.length < 2 && (list.length === 0 || list[0].includes("?") !== r.includes("?"))) list.push(r);
    chosen.set(route, list);
  }
  return [...chosen.values()].flat();
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers Node adds to every answer by itself (the same on both paths, but not the handler's). */
const NODE_OWN = new Set(["date", "connection", "keep-alive"]);
const own = (headers: IncomingHttpHeaders | Headers) => {
  const entries = headers instanceof Headers ? [...headers] : Object.entries(headers).map(([k, v]) => [k, String(v)]);
  return Object.fromEntries(entries.filter(([k]) => !NODE_OWN.has(k)).sort(([a], [b]) => (a < b ? -1 : 1)));
};

let server: Server;
let port: number;
let sample: Awaited<ReturnType<typeof buildSample>>;
let requests: string[];
let reference: HandlerOptions;

beforeAll(async () => {
  requests = twoPerRoute();
  // gzip siblings only: the brotli forms are the ones the server makes.
  sample = await buildSample(["gzip"], { requests });
  server = await startServer({ catalog, buildDir: sample.outDir, baseUrl: SAMPLE_BASE_URL, pool: { threads: 1 } }, 0);
  port = (server.address() as AddressInfo).port;
  const files = fileAnswers({ buildDir: sample.outDir });
  reference = { catalog, baseUrl: SAMPLE_BASE_URL, assets: files.assets, outside: files.outside, compress: true };
}, 300_000);
afterAll(async () => {
  if (server) await stopServer(server, 1000);
  if (sample) rmSync(sample.dir, { recursive: true, force: true });
});

function send(path: string, method: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode!, headers: own(res.headers), body: Buffer.concat(chunks) }));
    });
    req.on("error", fail);
    req.end();
  });
}

const ENCODINGS: Record<string, string>[] = [{}, { "Accept-Encoding": "gzip" }, { "Accept-Encoding": "gzip, deflate, br" }];

async function expectSamePaths(path: string) {
  const plain = await handleRequest(new Request(`http://localhost${path}`), reference);
  expect(plain.status, path).toBe(200);
  const etag = plain.headers.get("etag")!;
  for (const method of ["GET", "HEAD"])
    for (const encoding of ENCODINGS)
      for (const match of [{}, { "If-None-Match": etag }] as Record<string, string>[]) {
        const headers: Record<string, string> = { ...encoding, ...match };
        const web = await handleRequest(new Request(`http://localhost${path}`, { method, headers }), reference);
        const expected = { status: web.status, headers: own(web.headers), body: Buffer.from(await web.arrayBuffer()) };
        const sentBefore = serverState(server)!.files.sent;
        const first = await send(path, method, headers);
        const second = await send(path, method, headers);
        const what = `${method} ${path} ${JSON.stringify(headers)}`;
        // The second answer at least comes from the fast path (the first too when an equal form was recorded before).
        expect(serverState(server)!.files.sent - sentBefore, what).toBeGreaterThanOrEqual(1);
        expect(first, what).toEqual(expected);
        expect(second, what).toEqual(expected);
      }
}

describe("the fast path answers what the web handler answers", () => {
  it("the build holds pre-rendered files of most routes", () => {
    const routesWithFiles = new Set(requests.map((r) => routes.find((x) => x.matcher.test(r.split("?")[0].replace(/\/+$/, "")))?.name));
    expect(routesWithFiles.size).toBeGreaterThanOrEqual(25);
  });

  it("for every route's pre-rendered files, through spec URLs and file URLs", async () => {
    for (const [i, r] of requests.entries()) {
      const url = new URL(r, "http://x");
      const file = staticFileOf(url.pathname, url.searchParams)!;
      await expectSamePaths(specUrlOf(file));
      // The file's own URL for every other file: the same file, reached through requestOfStaticFile.
      if (i % 2 === 0) await expectSamePaths(`/api/${encodeURI(file)}`);
    }
  }, 600_000);

  it("for the site's files", async () => {
    for (const path of ["/", "/reference.html", "/sw.js", "/site.css", "/client/maqam-api.js", "/manifest.json"]) await expectSamePaths(path);
  }, 120_000);
});
