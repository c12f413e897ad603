/**
 * The worker's guard over its assets binding (src/serve/worker.ts): a file counts only when the
 * build wrote it (manifest.json's shapes, bundled into build/_worker.js), the binding answers it
 * with 200 and the type of its extension. The stand-in binding answers as Cloudflare Pages does
 * for a project without a top-level 404.html (and Workers assets in single-page-application
 * mode): the landing page, `text/html`, status 200, for every missing file.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import worker, { expectedType, writtenFiles, type WorkerEnv, type WrittenShapes } from "../src/serve/worker.js";
import { handleRequest } from "../src/serve/handler.js";
import { staticFileOf } from "../src/api/staticPath.js";
import { bundle } from "../scripts/bundle.js";
import { catalog } from "./support/catalog.js";

const ORIGIN = "http://localhost:3000";
const LANDING = "<!doctype html><title>Arabic Maqām Archive API</title>";

/** Canonical requests whose files the stand-in publishes (the bytes the handler computes for them). */
const PUBLISHED = ["/tuning-systems?includeArabic=true", "/sources", "/exports/tuning-systems/ibnsina_1037/yegah.scl"];
/** What the build wrote: the published files' shapes, plus one shape whose file is missing here. */
const SHAPES: WrittenShapes = {
  "GET /tuning-systems": ["includeArabic"],
  "GET /sources": [""],
  "GET /exports/tuning-systems/{id}/{startingNote}.scl": [""],
  "GET /sources/{id}": [""],
};

const fileOf = (request: string) => {
  const url = new URL(request, "http://x");
  return staticFileOf(url.pathname, url.searchParams)!;
};
const typeOf = (file: string) => (file.endsWith(".json") ? "application/json" : "application/octet-stream");

const files = new Map<string, Uint8Array>();
beforeAll(async () => {
  for (const request of PUBLISHED) {
    const answer = await handleRequest(new Request(`${ORIGIN}/api${request}`), { catalog, baseUrl: ORIGIN });
    files.set(`/api/${fileOf(request)}`, new Uint8Array(await answer.arrayBuffer()));
  }
});

/** A Pages-like binding: the file with its type, else index.html with 200; `asked` records the paths. */
function pagesAssets(asked: string[] = [], typeFor: (path: string) => string = typeOf): NonNullable<WorkerEnv["ASSETS"]> {
  return {
    async fetch(input) {
      const path = new URL(typeof input === "string" ? input : input.url).pathname;
      asked.push(path);
      const body = files.get(path);
      return body
        ? new Response(body.slice(), { headers: { "Content-Type": typeFor(path) } })
        : new Response(LANDING, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    },
  };
}

/** The Node handler's answer: the reference every worker answer must equal. */
const reference = async (path: string) => {
  const r = await handleRequest(new Request(`${ORIGIN}/api${path}`), { catalog, baseUrl: ORIGIN });
  return { status: r.status, body: await r.text() };
};

describe("expectedType", () => {
  it("wants JSON for answers and plain text or an octet stream for downloads, never HTML", () => {
    expect(expectedType("sources/index.json", "application/json")).toBe(true);
    expect(expectedType("sources/index.json", "application/json; charset=utf-8")).toBe(true);
    expect(expectedType("sources/index.json", "text/html; charset=utf-8")).toBe(false);
    expect(expectedType("sources/index.json", "application/octet-stream")).toBe(false);
    expect(expectedType("sources/index.json", null)).toBe(false);
    const scl = "exports/tuning-systems/ibnsina_1037/yegah.scl";
    for (const type of ["text/plain; charset=us-ascii", "application/octet-stream", "binary/octet-stream", null])
      expect(expectedType(scl, type), String(type)).toBe(true);
    expect(expectedType(scl, "text/html")).toBe(false);
    expect(expectedType(scl, "application/json")).toBe(false);
  });
});

describe("writtenFiles", () => {
  const written = writtenFiles(SHAPES);
  it("admits a file whose route and query shape the build wrote", () => {
    expect(written("tuning-systems/@includeArabic=true.json")).toBe(true);
    expect(written("sources/index.json")).toBe(true);
    expect(written("sources/forster_2010/index.json")).toBe(true);
    expect(written("exports/tuning-systems/ibnsina_1037/yegah.scl")).toBe(true);
  });
  it("refuses other shapes, other routes and names no request stands for", () => {
    expect(written("tuning-systems/index.json")).toBe(false);
    expect(written("tuning-systems/@includeArabic=true&includeSources=true.json")).toBe(false);
    expect(written("sources/forster_2010/maqamat/index.json")).toBe(false);
    expect(written("exports/tuning-systems/ibnsina_1037/yegah.kbm")).toBe(false);
    expect(written("sources/x.html")).toBe(false);
    expect(written("index.html")).toBe(false);
  });
});

describe("the worker over a binding that answers misses with index.html and 200", () => {
  // Every endpoint family: files present, files missing, errors, computed-only and non-canonical requests.
  const CASES = [
    ...PUBLISHED,
    "/tuning-systems",
    "/sources/forster_2010",
    "/sources/nope",
    "/maqamat?sortBy=name",
    "/maqamat/maqam_nope/availability",
    "/maqamat/maqam_rast/transpositions",
    "/maqamat?filterByFamily=nawa_athar",
    "/exports/tuning-systems/ibnsina_1037/yegah.kbm",
    "/tuning-systems?includeSources=true&includeArabic=true",
    "/intervals/calculate?tuningSystem=ibnsina_1037&startingNote=yegah&from=rast&to=dugah",
  ];

  it("answers every request as the Node handler does: the file where it exists, computed otherwise, never HTML", async () => {
    for (const path of CASES) {
      const got = await worker.fetch(new Request(`${ORIGIN}/api${path}`), { ASSETS: pagesAssets() });
      const want = await reference(path);
      const body = await got.text();
      expect({ status: got.status, body }, path).toEqual(want);
      expect(got.headers.get("content-type"), path).not.toMatch(/html/);
      expect(got.headers.get("x-answer-source"), path).toBe(PUBLISHED.includes(path) ? "static" : "computed");
    }
  });

  it("takes no file served with another type (a host's page standing in for it)", async () => {
    const asked: string[] = [];
    const got = await worker.fetch(new Request(`${ORIGIN}/api/sources`), { ASSETS: pagesAssets(asked, () => "text/html; charset=utf-8") });
    expect(asked).toEqual(["/api/sources/index.json"]);
    expect(got.headers.get("x-answer-source")).toBe("computed");
    expect({ status: got.status, body: await got.text() }).toEqual(await reference("/sources"));
  });

  it("takes no answer but a 200, and computes when the binding fails", async () => {
    const statuses: NonNullable<WorkerEnv["ASSETS"]>[] = [
      { fetch: async () => new Response("{}", { status: 404, headers: { "Content-Type": "application/json" } }) },
      { fetch: async () => new Response("{}", { status: 206, headers: { "Content-Type": "application/json" } }) },
      { fetch: async () => Promise.reject(new Error("binding down")) },
    ];
    for (const ASSETS of statuses) {
      const got = await worker.fetch(new Request(`${ORIGIN}/api/sources`), { ASSETS });
      expect(got.headers.get("x-answer-source")).toBe("computed");
      expect({ status: got.status, body: await got.text() }).toEqual(await reference("/sources"));
    }
  });
});

describe("the bundled worker with the build's manifest", () => {
  let dir: string;
  let bundled: { fetch(request: Request, env?: WorkerEnv): Promise<Response> };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "maqam-guard-"));
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    await bundle({ entry: "src/serve/worker.ts", outFile: join(dir, "_worker.js"), baseUrl: ORIGIN, written: SHAPES });
    bundled = (await import(pathToFileURL(join(dir, "_worker.js")).href)).default;
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("asks the binding only for files of the shapes the build wrote", async () => {
    const asked: string[] = [];
    for (const path of [
      "/sources",
      "/tuning-systems?includeArabic=true",
      "/tuning-systems",
      "/maqamat?sortBy=name",
      "/sources/forster_2010",
      "/sources/forster_2010/maqamat",
    ]) {
      const got = await bundled.fetch(new Request(`${ORIGIN}/api${path}`), { ASSETS: pagesAssets(asked) });
      expect({ status: got.status, body: await got.text() }, path).toEqual(await reference(path));
    }
    // A written shape whose file is missing (forster_2010) is asked and refused: the landing page is not it.
    expect(asked).toEqual(["/api/sources/index.json", "/api/tuning-systems/@includeArabic=true.json", "/api/sources/forster_2010/index.json"]);
  });
});
