/**
 * The Netlify edge function (deploy/netlify/edge-functions/maqam-api.js over build/_worker.js)
 * with a stand-in `context.next` that plays Netlify's static files: the published file of a
 * canonical request is served, anything else is computed. Run in Node and under `deno serve`
 * (Netlify's runtime), laid out as on Netlify: the function three folders below the build's worker.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import worker from "../src/serve/worker.js";
import { bundle } from "../scripts/bundle.js";
import { startDeno, unavailable, type RunningRuntime } from "../scripts/runtimes.js";

const ORIGIN = "http://localhost:3000";
const root = join(import.meta.dirname, "..");
const FUNCTION = join("deploy", "netlify", "edge-functions", "maqam-api.js");

type EdgeFunction = ((request: Request, context: { next(request: Request): Promise<Response> }) => Promise<Response>) & { config?: unknown };

/** Published files by path, filled from the worker's own answers so the bytes are the real ones. */
const files: Record<string, string> = {};
const PUBLISHED = "/api/tuning-systems/@includeArabic=true.json";
let site: string;
let edge: { default: EdgeFunction; config: { path: string[]; cache?: string; excludedPath?: unknown } };

beforeAll(async () => {
  files[PUBLISHED] = await (await worker.fetch(new Request(`${ORIGIN}/api/tuning-systems?includeArabic=true`))).text();
  site = mkdtempSync(join(tmpdir(), "maqam-netlify-"));
  writeFileSync(join(site, "package.json"), '{ "type": "module" }\n');
  await bundle({ entry: "src/serve/worker.ts", outFile: join(site, "build", "_worker.js"), baseUrl: ORIGIN });
  mkdirSync(join(site, "deploy", "netlify", "edge-functions"), { recursive: true });
  copyFileSync(join(root, FUNCTION), join(site, FUNCTION));
  edge = await import(pathToFileURL(join(site, FUNCTION)).href);
});
afterAll(() => {
  if (site) rmSync(site, { recursive: true, force: true });
});

/** Netlify's chain below the function, written once for Node and Deno: a published file, or a 404 page. */
const STAND_IN = `(files, asked) => async (request) => {
  const path = decodeURIComponent(new URL(request.url).pathname);
  asked.push(request.method + " " + path);
  const file = files[path];
  return file === undefined
    ? new Response("<h1>Page not found</h1>", { status: 404, headers: { "Content-Type": "text/html" } })
    : new Response(file, { headers: { "Content-Type": "application/json" } });
}`;
const standIn = new Function(`return ${STAND_IN}`)() as (files: Record<string, string>, asked: string[]) => (request: Request) => Promise<Response>;

interface Answer {
  status: number;
  source: string | null;
  body: string;
  asked: string[];
}

/** The cases both runs check: request path, method, and what the function must do. */
const CASES: [string, string, (a: Answer, computed: string) => void][] = [
  [
    "/api/tuning-systems?includeArabic=true",
    "GET",
    (a) => expect(a).toEqual({ status: 200, source: "static", body: files[PUBLISHED], asked: [`GET ${PUBLISHED}`] }),
  ],
  [PUBLISHED, "GET", (a) => expect(a).toEqual({ status: 200, source: "static", body: files[PUBLISHED], asked: [`GET ${PUBLISHED}`] })],
  ["/api/tuning-systems?includeArabic=true", "HEAD", (a) => expect(a).toMatchObject({ status: 200, source: "static", body: "" })],
  ["/api/sources", "GET", (a, computed) => expect(a).toEqual({ status: 200, source: "computed", body: computed, asked: ["GET /api/sources/index.json"] })],
  // Not canonical (parameters unsorted): no file is looked for.
  [
    "/api/tuning-systems?includeSources=true&includeArabic=true",
    "GET",
    (a, computed) => expect(a).toEqual({ status: 200, source: "computed", body: computed, asked: [] }),
  ],
  ["/api/maqamat/maqam_nothing", "GET", (a, computed) => expect(a).toMatchObject({ status: 404, body: computed })],
];

const computed = async (path: string, method: string) => (await worker.fetch(new Request(`${ORIGIN}${path}`, { method }))).text();

describe("Netlify edge function in Node", () => {
  it("runs on /api and below, with Netlify caching its answers, no path excluded", () => {
    expect(edge.config).toEqual({ path: ["/api", "/api/*"], cache: "manual" });
  });

  it("serves published files through context.next and computes the rest", async () => {
    for (const [path, method, check] of CASES) {
      const asked: string[] = [];
      const response = await edge.default(new Request(`${ORIGIN}${path}`, { method }), { next: standIn(files, asked) });
      check({ status: response.status, source: response.headers.get("x-answer-source"), body: await response.text(), asked }, await computed(path, method));
      expect(response.headers.get("access-control-allow-origin"), path).toBe("*");
    }
  });

  it("computes what has no file when the chain answers misses with the landing page and 200 (a single-page-application rule)", async () => {
    for (const [path, method, check] of CASES) {
      const asked: string[] = [];
      const spa = (request: Request) =>
        standIn(
          files,
          asked,
        )(request).then((r) => (r.status === 404 ? new Response("<!doctype html><title>home</title>", { headers: { "Content-Type": "text/html" } }) : r));
      const response = await edge.default(new Request(`${ORIGIN}${path}`, { method }), { next: spa });
      check({ status: response.status, source: response.headers.get("x-answer-source"), body: await response.text(), asked }, await computed(path, method));
      expect(response.headers.get("content-type"), path).not.toMatch(/html/);
    }
  });

  it("gives a published file the ETag of the same computed bytes, and 304 on a match", async () => {
    const request = () => new Request(`${ORIGIN}/api/tuning-systems?includeArabic=true`);
    const viaFile = await edge.default(request(), { next: standIn(files, []) });
    const alone = await worker.fetch(request());
    expect(viaFile.headers.get("etag")).toBe(alone.headers.get("etag"));
    const revalidated = await edge.default(new Request(request(), { headers: { "If-None-Match": alone.headers.get("etag")! } }), { next: standIn(files, []) });
    expect(revalidated.status).toBe(304);
  });
});

const denoMissing = process.env.CI ? undefined : unavailable("deno");

describe.skipIf(denoMissing !== undefined)("Netlify edge function under deno serve", () => {
  let server: RunningRuntime;

  beforeAll(async () => {
    // The stand-in chain, and what was asked of it returned as a header.
    writeFileSync(
      join(site, "serve.mjs"),
      `import maqamApi from "./${FUNCTION.replaceAll("\\", "/")}";
const files = ${JSON.stringify(files)};
const standIn = ${STAND_IN};
export default {
  async fetch(request) {
    const asked = [];
    const response = await maqamApi(request, { next: standIn(files, asked) });
    const headers = new Headers(response.headers);
    headers.set("X-Asked", JSON.stringify(asked));
    return new Response(response.body, { status: response.status, headers });
  },
};
`,
    );
    server = await startDeno({ script: join(site, "serve.mjs") });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers as in Node: same status, source and bytes", async () => {
    for (const [path, method, check] of CASES) {
      const response = await fetch(`${server.origin}${path}`, { method });
      const asked = JSON.parse(response.headers.get("x-asked") ?? "null") as string[];
      check({ status: response.status, source: response.headers.get("x-answer-source"), body: await response.text(), asked }, await computed(path, method));
    }
  });
});

if (denoMissing) it.skip(`deno is skipped: ${denoMissing}`, () => {});
