/**
 * The web-standard handler on its own (no HTTP server): files through an injected asset reader,
 * computed answers otherwise, the same bytes and ETag either way, and a JSON body for every
 * refusal, including requests Node's parser never lets through.
 */
import { describe, it, expect } from "vitest";
import { gunzipSync } from "node:zlib";
import { handleRequest, contentHash, serialize, type AssetReader, type HandlerOptions } from "../src/serve/handler.js";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { catalog } from "./support/catalog.js";

const BASE = "http://localhost:3000";
const computedOnly: HandlerOptions = { catalog, baseUrl: BASE };
const get = (path: string, options: HandlerOptions = computedOnly, init: RequestInit = {}) =>
  handleRequest(new Request(`http://127.0.0.1:9${path}`, init), options);
const json = async (r: Response) => JSON.parse(await r.text()) as Record<string, unknown>;

async function expectJsonError(r: Response, status: number) {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = await json(r);
  for (const k of ["error", "message", "hint"]) expect(typeof body[k], k).toBe("string");
  return body;
}

/** An asset reader over an in-memory tree, counting reads. */
function memoryAssets(files: Record<string, unknown>) {
  const reads: string[] = [];
  const reader: AssetReader = async (file) => {
    reads.push(file);
    return file in files ? { body: new TextEncoder().encode(JSON.stringify(files[file])) } : undefined;
  };
  return { reader, reads };
}

describe("computed answers", () => {
  it("are the dispatch answer's bytes, with the content hash as ETag", async () => {
    const r = await get("/api/tuning-systems/ibnsina_1037/yegah/pitch-classes?pitchClassDataType=cents&octave=1");
    expect(r.status).toBe(200);
    const bytes = new Uint8Array(await r.arrayBuffer());
    const direct = serialize(
      dispatch(routes, {
        catalog,
        baseUrl: BASE,
        path: "/tuning-systems/ibnsina_1037/yegah/pitch-classes",
        query: new URLSearchParams("pitchClassDataType=cents&octave=1"),
      }),
    );
    expect(bytes).toEqual(direct);
    expect(r.headers.get("etag")).toBe(`"${await contentHash(direct)}"`);
    expect(r.headers.get("x-answer-source")).toBe("computed");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("are gzipped only when asked to compress and the client accepts it", async () => {
    const plain = await get("/api/tuning-systems", computedOnly, { headers: { "Accept-Encoding": "gzip" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const body = new Uint8Array(await plain.arrayBuffer());
    const gz = await get("/api/tuning-systems", { ...computedOnly, compress: true }, { headers: { "Accept-Encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("etag")).toBe(plain.headers.get("etag")!.replace(/"$/, '-gz"'));
    expect(new Uint8Array(gunzipSync(new Uint8Array(await gz.arrayBuffer())))).toEqual(body);
  });
});

describe("pre-rendered files", () => {
  it("are read only for canonical requests, and served as they are", async () => {
    const { reader, reads } = memoryAssets({ "tuning-systems/index.json": { from: "file" } });
    const options = { ...computedOnly, assets: reader };
    const r = await get("/api/tuning-systems", options);
    expect(await json(r)).toEqual({ from: "file" });
    expect(r.headers.get("x-answer-source")).toBe("static");
    await get("/api/tuning-systems?includeSources=true&includeArabic=true", options);
    expect(reads).toEqual(["tuning-systems/index.json"]);
  });

  it("fall back to the computed answer when the file is missing, also for a file URL", async () => {
    const { reader, reads } = memoryAssets({});
    const r = await get("/api/tuning-systems/@includeArabic=true.json", { ...computedOnly, assets: reader });
    expect(reads).toEqual(["tuning-systems/@includeArabic=true.json"]);
    expect(r.headers.get("x-answer-source")).toBe("computed");
    expect(await r.text()).toBe(await (await get("/api/tuning-systems?includeArabic=true")).text());
  });
});

describe("HTTP semantics", () => {
  it("304 on a matching If-None-Match, HEAD without a body, OPTIONS preflight, 405 with Allow", async () => {
    const first = await get("/api/sources");
    const etag = first.headers.get("etag")!;
    const again = await get("/api/sources", computedOnly, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const head = await get("/api/sources", computedOnly, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String((await first.arrayBuffer()).byteLength));
    expect(await head.text()).toBe("");
    const preflight = await get("/api/sources", computedOnly, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    const post = await get("/api/sources", computedOnly, { method: "POST" });
    await expectJsonError(post, 405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("passes requests outside /api to the site when one is given, else a JSON 404", async () => {
    await expectJsonError(await get("/index.html"), 404);
    const site = await get("/index.html", { ...computedOnly, outside: async () => new Response("<p>site</p>") });
    expect(await site.text()).toBe("<p>site</p>");
  });
});

describe("odd requests get JSON refusals", () => {
  it.each([
    ["/api/maqamat/%E0%A4%A", 400],
    ["/api/pitch-classes/note-names/%FF%FE", 400],
    ["/api/nothing-here", 404],
  ])("%s → %i", async (path, status) => {
    await expectJsonError(await get(path), status);
  });

  it("malformed percent-encoding and raw non-ASCII in the query reach the parameter checks", async () => {
    const malformed = await expectJsonError(await get("/api/tuning-systems?includeArabic=%E0%A4%A"), 400);
    expect(String(malformed.error)).toContain("includeArabic");
    const raw = await get("/api/tuning-systems?includeArabic=tr\u00fce");
    await expectJsonError(raw, 400);
  });

  it("a target over the URL limit is a 414, more than 64 parameters a 400", async () => {
    await expectJsonError(await get(`/api/intervals/calculate?noteNames=${"rast,".repeat(2000)}`), 414);
    const many = Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join("&");
    const body = await expectJsonError(await get(`/api/tuning-systems?${many}`), 400);
    expect(String(body.message)).toContain("1000");
  });

  it("a failure inside the handler is a JSON 500 with a hint", async () => {
    const broken: AssetReader = async () => {
      throw new Error("disk on fire");
    };
    const body = await expectJsonError(await get("/api/tuning-systems", { ...computedOnly, assets: broken }), 500);
    expect(String(body.message)).toContain("disk on fire");
  });

  it("a fault inside a route is the same JSON 500, made in the handler: dispatch lets it through", async () => {
    // A catalog whose every read fails: the route throws while computing its answer.
    const failing = new Proxy(catalog, {
      get() {
        throw new Error("facts unreadable");
      },
    });
    const ctx = { catalog: failing, baseUrl: BASE, path: "/tuning-systems", query: new URLSearchParams() };
    expect(() => dispatch(routes, ctx)).toThrow("facts unreadable");
    const body = await expectJsonError(await get("/api/tuning-systems", { ...computedOnly, catalog: failing }), 500);
    expect(body).toEqual({
      error: "Internal server error",
      message: "The answer could not be produced: facts unreadable",
      hint: "This is a fault of the service, not of the request; please report the URL.",
    });
  });
});
