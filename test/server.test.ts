import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { startServer } from "../src/serve/server.js";
import { acceptedEncodings, etagMatches } from "../src/serve/handler.js";
import { nodeAssets } from "../src/serve/nodeAssets.js";
import { catalog } from "./support/catalog.js";
import { buildSample, SAMPLE_BASE_URL } from "./support/buildSample.js";

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
let port: number;
let sample: Awaited<ReturnType<typeof buildSample>>;
const SECRET = "do-not-serve-this-secret";

/** A raw HTTP request: the path goes on the wire as written (no client-side normalisation). */
function send(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", fail);
    req.end();
  });
}

const file = (f: string) => readFileSync(join(sample.outDir, "api", f));
const LIST = "tuning-systems/@includeArabic=true&includeSources=true.json";
const PCS = "/api/tuning-systems/ibnsina_1037/yegah/pitch-classes";

beforeAll(async () => {
  sample = await buildSample();
  // Beside the build directory, where no request may reach.
  writeFileSync(join(sample.dir, "secret.json"), JSON.stringify({ SECRET }));
  server = await startServer({ catalog, buildDir: sample.outDir, baseUrl: SAMPLE_BASE_URL }, 0);
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  if (server) await new Promise((r) => server.close(r));
  if (sample) rmSync(sample.dir, { recursive: true, force: true });
});

describe("pre-rendered answers", () => {
  it("come from the file, with cache and CORS headers", async () => {
    const r = await send("/api/tuning-systems?includeArabic=true&includeSources=true");
    expect(r.status).toBe(200);
    expect(r.headers["x-answer-source"]).toBe("static");
    expect(r.body.equals(file(LIST))).toBe(true);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["cache-control"]).toBe("public, max-age=3600");
    expect(r.headers["vary"]).toBe("Accept-Encoding");
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    expect(r.headers["etag"]).toMatch(/^"[\w-]{27}"$/);
    expect(Number(r.headers["content-length"])).toBe(r.body.length);
  });

  it("equal the computed answer, headers and ETag included, when the query is not canonical", async () => {
    const stat = await send("/api/tuning-systems?includeArabic=true&includeSources=true");
    const live = await send("/api/tuning-systems?includeSources=true&includeArabic=true");
    expect(live.headers["x-answer-source"]).toBe("computed");
    expect(live.body.equals(stat.body)).toBe(true);
    for (const h of ["etag", "cache-control", "vary", "content-type", "access-control-allow-origin"]) expect(live.headers[h]).toBe(stat.headers[h]);
  });

  it("are computed when the request is not canonical, echoing the raw request in self links", async () => {
    const r = await send(`${PCS}?pitchClassDataType=cents&octave=1`);
    expect(r.status).toBe(200);
    expect(r.headers["x-answer-source"]).toBe("computed");
    const slash = await send(`${PCS}/`);
    expect(slash.headers["x-answer-source"]).toBe("computed");
  });

  it("answer a matching If-None-Match with 304 and no body", async () => {
    const first = await send("/api/tuning-systems");
    const etag = first.headers["etag"]!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, etag.replace(/"$/, '-gz"'), "*"]) {
      const r = await send("/api/tuning-systems", { "If-None-Match": inm });
      expect(r.status, inm).toBe(304);
      expect(r.body.length).toBe(0);
      expect(r.headers["etag"]).toBe(etag);
      expect(r.headers["cache-control"]).toBe("public, max-age=3600");
    }
    expect((await send("/api/tuning-systems", { "If-None-Match": '"other"' })).status).toBe(200);
  });

  it("send the precompressed siblings the client accepts", async () => {
    const plain = await send("/api/tuning-systems");
    expect(plain.body.length).toBeGreaterThan(1024);
    const gz = await send("/api/tuning-systems", { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.body.equals(file("tuning-systems/index.json.gz"))).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers["etag"]).toBe(plain.headers["etag"]!.replace(/"$/, '-gz"'));
    const br = await send("/api/tuning-systems", { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const refused = await send("/api/tuning-systems", { "Accept-Encoding": "gzip;q=0, br;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
  });

  it("compress computed answers on the fly", async () => {
    const r = await send("/api/tuning-systems?includeSources=true&includeArabic=true", { "Accept-Encoding": "gzip, br" });
    expect(r.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(r.body).equals(file(LIST))).toBe(true);
  });

  it("answer HEAD with the GET headers and no body", async () => {
    const get = await send("/api/tuning-systems");
    const head = await send("/api/tuning-systems", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(get.body.length));
    expect(head.headers["etag"]).toBe(get.headers["etag"]);
  });

  it("answer OPTIONS as a CORS preflight and refuse other methods", async () => {
    const r = await send("/api/tuning-systems", { Origin: "https://example.org", "Access-Control-Request-Method": "GET" }, "OPTIONS");
    expect(r.status).toBe(204);
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    expect(r.headers["access-control-allow-methods"]).toContain("GET");
    const post = await send("/api/tuning-systems", {}, "POST");
    expect(post.status).toBe(405);
    expect(post.headers["allow"]).toBe("GET, HEAD, OPTIONS");
  });

  it("serve file URLs as a static host would, and compute them when the file is missing", async () => {
    const r = await send(`/api/${LIST}`);
    expect(r.headers["x-answer-source"]).toBe("static");
    expect(r.body.equals(file(LIST))).toBe(true);
    const missing = await send(`${PCS}/@includeArabic=true.json`);
    expect(missing.status).toBe(200);
    expect(missing.headers["x-answer-source"]).toBe("computed");
    const direct = await send(`${PCS}?includeArabic=true`);
    expect(missing.body.equals(direct.body)).toBe(true);
  });
});

it("drops its memory cache when a new build replaces the directory", async () => {
  const { build } = await import("../scripts/build.js");
  const outDir = join(sample.dir, "rebuilt");
  const options = { baseUrl: SAMPLE_BASE_URL, workers: 1, encodings: [] };
  await build({ ...options, outDir, requests: ["/tuning-systems"] });
  const read = nodeAssets({ buildDir: outDir, recheckMs: 0 });
  expect(await read("tuning-systems/index.json")).toBeDefined();
  await build({ ...options, outDir, requests: ["/sources"] });
  expect(await read("tuning-systems/index.json")).toBeUndefined();
  expect(await read("sources/index.json")).toBeDefined();
});

describe("request paths never reach outside the build", () => {
  it.each([
    "/api/../package.json",
    "/api/../secret.json",
    "/api/../../secret.json",
    "/api/%2e%2e/secret.json",
    "/api/%2E%2E/%2e%2e/secret.json",
    "/api/..%2fsecret.json",
    "/api/..%2Fmanifest.json",
    "/api/tuning-systems/..%2f..%2f..%2fsecret.json",
    "/api/tuning-systems/%2e%2e%2f%2e%2e%2fsecret.json",
    "/api/..%5c..%5csecret.json",
    "/api/.%2e/secret.json",
    "/api//../secret.json",
    "//api/../secret.json",
    "/api/secret.json/../..",
    "/api/@x=..~secret.json",
    "/api/..?x=1",
    "/secret.json",
    "/../secret.json",
    "/%2e%2e/secret.json",
    "/pictures/..%2f..%2fsecret.json",
    "/package.json",
    "/_worker.js",
    "/.nojekyll",
  ])("%s", async (path) => {
    const r = await send(path);
    expect(r.body.toString()).not.toContain(SECRET);
    expect(r.body.toString()).not.toContain('"devDependencies"');
    // A path that normalises to a file of the build (`/api/secret.json/../..` is `/`) is that file, as on any static host.
    if (r.status === 200) {
      expect(r.headers["x-answer-source"]).toBe("static");
      return;
    }
    expect(r.headers["x-answer-source"]).not.toBe("static");
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(r.body.toString())).toHaveProperty("error");
  });
});

it("treats a query that names a path as an ordinary parameter", async () => {
  const r = await send("/api/tuning-systems?x=../../secret.json");
  expect(r.headers["x-answer-source"]).toBe("computed");
  expect(r.body.toString()).not.toContain(SECRET);
});

describe("header helpers", () => {
  it("rank accepted encodings", () => {
    expect(acceptedEncodings(undefined)).toEqual([]);
    expect(acceptedEncodings("gzip, deflate, br")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("br;q=0, gzip")).toEqual(["gzip"]);
    expect(acceptedEncodings("*")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("*, br;q=0")).toEqual(["gzip"]);
  });

  it("match entity tags of every representation", () => {
    expect(etagMatches('"abc"', "abc")).toBe(true);
    expect(etagMatches('W/"abc-br"', "abc")).toBe(true);
    expect(etagMatches('"abcd"', "abc")).toBe(false);
    expect(etagMatches(undefined, "abc")).toBe(false);
  });
});

describe("the whole build on one port", () => {
  it.each([
    ["/", "index.html", "text/html; charset=utf-8"],
    ["/index.html", "index.html", "text/html; charset=utf-8"],
    ["/reference.html", "reference.html", "text/html; charset=utf-8"],
    ["/sw.js", "sw.js", "text/javascript; charset=utf-8"],
    ["/site.css", "site.css", "text/css; charset=utf-8"],
    ["/client/maqam-api.js", "client/maqam-api.js", "text/javascript; charset=utf-8"],
    ["/client/maqam-api.d.ts", "client/maqam-api.d.ts", "text/plain; charset=utf-8"],
    ["/reference/swagger-ui.css", "reference/swagger-ui.css", "text/css; charset=utf-8"],
    ["/manifest.json", "manifest.json", "application/json; charset=utf-8"],
  ])("%s is build/%s as %s, with the API's headers", async (path, name, type) => {
    const r = await send(path);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe(type);
    expect(r.body.equals(readFileSync(join(sample.outDir, name)))).toBe(true);
    expect(r.headers["x-answer-source"]).toBe("static");
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    expect(r.headers["cache-control"]).toBe("public, max-age=3600");
    expect(Number(r.headers["content-length"])).toBe(r.body.length);
    const again = await send(path, { "If-None-Match": r.headers["etag"]! });
    expect(again.status).toBe(304);
    const head = await send(path, {}, "HEAD");
    expect(head.headers["content-length"]).toBe(r.headers["content-length"]);
    expect(head.body.length).toBe(0);
  });

  it("a picture is an SVG image at its file's path, `@`, `=` and `&` included", async () => {
    // The sample has no maqām files, so no pictures: one is put where the build writes them.
    const picture = "maqamat/maqam_rast/@startingNote=yegah&tuningSystem=ibnsina_1037.svg";
    mkdirSync(join(sample.outDir, "pictures", "maqamat", "maqam_rast"), { recursive: true });
    writeFileSync(join(sample.outDir, "pictures", picture), '<svg xmlns="http://www.w3.org/2000/svg"><text>rāst</text></svg>');
    for (const path of [`/pictures/${picture}`, `/pictures/${encodeURI(picture).replace(/&/g, "%26").replace(/=/g, "%3D").replace(/@/g, "%40")}`]) {
      const r = await send(path);
      expect(r.status, path).toBe(200);
      expect(r.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
      expect(r.body.equals(readFileSync(join(sample.outDir, "pictures", picture)))).toBe(true);
    }
  });

  it("large site files are compressed as the client accepts", async () => {
    const plain = await send("/client/maqam-api.js");
    const br = await send("/client/maqam-api.js", { "Accept-Encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await send("/client/maqam-api.js", { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });

  it("a path the build has no file for is a JSON 404; the bundles for other hosts are not served", async () => {
    for (const path of ["/nothing-here.html", "/_worker.js", "/_redirects", "/.nojekyll", "/client/", "/pictures"]) {
      const r = await send(path);
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.body.toString()).error).toBe("Not found");
    }
  });
});
