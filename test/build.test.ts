import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { readFileSync, readdirSync, rmSync, mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { createHash } from "node:crypto";
import { build } from "../scripts/build.js";
import { cacheGroupOf, planBatches } from "../scripts/slicePlan.js";
import { layoutTable, type Manifest } from "../scripts/manifest.js";
import type { Job } from "../scripts/buildWorker.js";
import { answerApi, COMPRESS_MIN_BYTES } from "../src/serve/handler.js";
import { catalog } from "./support/catalog.js";
import { requestOfStaticFile } from "../src/api/staticPath.js";
import { buildSample, sampleRequests, SAMPLE_BASE_URL } from "./support/buildSample.js";

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

/** A pre-rendered answer (JSON, or a download of the exports), not a compressed sibling. */
const isAnswerFile = (f: string) => !/\.(gz|br)$/.test(f);

/** Relative path → sha1 of every file of a tree. */
const treeOf = (dir: string) =>
  Object.fromEntries(
    walk(dir)
      .map((f) => [relative(dir, f), createHash("sha1").update(readFileSync(f)).digest("hex")])
      .sort(),
  );

let twoWorkers: Awaited<ReturnType<typeof buildSample>>;
let oneWorker: Awaited<ReturnType<typeof buildSample>>;
beforeAll(async () => {
  twoWorkers = await buildSample();
  oneWorker = await buildSample(["gzip", "br"], { workers: 1 });
});
afterAll(() => {
  for (const b of [twoWorkers, oneWorker]) if (b) rmSync(b.dir, { recursive: true, force: true });
});

describe("build", () => {
  it("writes the same bytes whatever the number of workers", () => {
    expect(twoWorkers.workers).toBe(2);
    expect(oneWorker.workers).toBe(1);
    expect(treeOf(twoWorkers.outDir)).toEqual(treeOf(oneWorker.outDir));
  });

  it("writes files equal to the live answers, byte for byte", async () => {
    const files = walk(join(twoWorkers.outDir, "api")).filter(isAnswerFile);
    expect(files.length).toBe(twoWorkers.manifest.files);
    for (const full of files) {
      const file = relative(join(twoWorkers.outDir, "api"), full);
      const { path, query } = requestOfStaticFile(file)!;
      const a = await answerApi(path, query, { catalog, baseUrl: SAMPLE_BASE_URL });
      expect(a.source).toBe("computed");
      expect(Buffer.from(a.body).equals(readFileSync(full)), file).toBe(true);
    }
  });

  it("writes .gz and .br siblings exactly for files over the threshold", () => {
    const files = walk(join(twoWorkers.outDir, "api")).filter(isAnswerFile);
    let siblings = 0;
    for (const f of files) {
      const body = readFileSync(f);
      const big = body.length > COMPRESS_MIN_BYTES;
      expect(existsSync(`${f}.gz`)).toBe(big);
      expect(existsSync(`${f}.br`)).toBe(big);
      if (!big) continue;
      siblings++;
      expect(gunzipSync(readFileSync(`${f}.gz`)).equals(body)).toBe(true);
      expect(brotliDecompressSync(readFileSync(`${f}.br`)).equals(body)).toBe(true);
    }
    expect(siblings).toBeGreaterThan(0);
    expect(twoWorkers.manifest.precompressed.gzip!.files).toBe(siblings);
  });

  it("records totals per route that add up, without timestamps", () => {
    const m: Manifest = JSON.parse(readFileSync(join(twoWorkers.outDir, "manifest.json"), "utf8"));
    expect(m).toEqual(twoWorkers.manifest);
    expect(m.baseUrl).toBe(SAMPLE_BASE_URL);
    const routes = Object.values(m.routes);
    expect(routes.reduce((s, r) => s + r.files, 0)).toBe(m.files);
    expect(routes.reduce((s, r) => s + r.bytes, 0)).toBe(m.bytes);
    const sizes = walk(join(twoWorkers.outDir, "api"))
      .filter(isAnswerFile)
      .map((f) => readFileSync(f).length);
    expect(sizes.reduce((s, n) => s + n, 0)).toBe(m.bytes);
    expect(Math.max(...sizes)).toBe(m.largest.bytes);
    expect(m.routes["GET /tuning-systems"].queries).toContain("");
    expect(JSON.stringify(m)).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(m.digest).toBe(oneWorker.manifest.digest);
    expect(layoutTable(m)).toContain("| `GET /tuning-systems` |");
  });

  it("writes the static-host extras", () => {
    for (const f of ["_redirects", "serve.json", ".nojekyll", "404.html", ".assetsignore"]) expect(existsSync(join(twoWorkers.outDir, f))).toBe(true);
  });

  it("bundles into the worker the shapes of the files it wrote, as the manifest lists them", () => {
    const worker = readFileSync(join(twoWorkers.outDir, "_worker.js"), "utf8");
    const m = twoWorkers.manifest;
    for (const [route, t] of Object.entries(m.routes)) {
      expect(worker, route).toContain(JSON.stringify(route));
      for (const q of t.queries.filter((q) => q !== "")) expect(worker, `${route} ${q}`).toContain(JSON.stringify(q));
    }
  });

  it("replaces an older tree whole", async () => {
    const { dir, outDir } = twoWorkers;
    const again = join(dir, "again");
    mkdirSync(join(again, "api"), { recursive: true });
    writeFileSync(join(again, "api", "stale.json"), "{}");
    const { manifest } = await build({ outDir: again, baseUrl: SAMPLE_BASE_URL, requests: sampleRequests(), workers: 2, encodings: ["gzip", "br"] });
    expect(existsSync(join(again, "api", "stale.json"))).toBe(false);
    expect(existsSync(`${again}.partial`)).toBe(false);
    expect(manifest.digest).toBe(twoWorkers.manifest.digest);
    expect(treeOf(again)).toEqual(treeOf(outDir));
  });

  it("writes the same tree when workers drop their caches after every batch", async () => {
    const requests = sampleRequests().filter((r) => /^\/tuning-systems(\?|$|\/al)/.test(r));
    const options = { baseUrl: SAMPLE_BASE_URL, requests, workers: 2, encodings: [] };
    const kept = await build({ ...options, outDir: join(twoWorkers.dir, "kept") });
    const dropped = await build({ ...options, outDir: join(twoWorkers.dir, "dropped"), recycleHeapBytes: 0 });
    expect(dropped.recycled).toBeGreaterThan(0);
    expect(dropped.manifest).toEqual(kept.manifest);
  }, 300_000);

  it("refuses a request that is not canonical", async () => {
    await expect(
      build({ outDir: join(twoWorkers.dir, "bad"), baseUrl: SAMPLE_BASE_URL, requests: ["/tuning-systems?includeSources=true&includeArabic=true"] }),
    ).rejects.toThrow(/not a canonical request/);
  });

  it("records listed requests that do not answer 200 instead of writing them", async () => {
    const outDir = join(twoWorkers.dir, "skips");
    const { manifest } = await build({
      outDir,
      baseUrl: SAMPLE_BASE_URL,
      requests: ["/tuning-systems", "/tuning-systems/nosuch_1/yegah/pitch-classes"],
      workers: 1,
    });
    expect(manifest.files).toBe(1);
    expect(manifest.skipped).toEqual({ count: 1, examples: ["404 /tuning-systems/nosuch_1/yegah/pitch-classes"] });
    expect(existsSync(join(outDir, "api", "tuning-systems", "nosuch_1"))).toBe(false);
  });
});

describe("work split", () => {
  it("groups requests by tuning system × starting note, else by entity", () => {
    expect(cacheGroupOf("/tuning-systems/ibnsina_1037/yegah/pitch-classes?octave=1")).toBe("ibnsina_1037 × yegah");
    expect(cacheGroupOf("/maqamat/maqam_rast?startingNote=yegah&tuningSystem=ibnsina_1037")).toBe("ibnsina_1037 × yegah");
    expect(cacheGroupOf("/maqamat/maqam_rast/availability?includeArabic=true")).toBe("/maqamat/maqam_rast");
    expect(cacheGroupOf("/exports/tuning-systems/ibnsina_1037/yegah.tun")).toBe("ibnsina_1037 × yegah");
    expect(cacheGroupOf("/exports/maqamat/maqam_rast_al_saham/ramal_tuti/ibnsina_1037/yegah-descending.scl")).toBe("ibnsina_1037 × yegah");
    expect(cacheGroupOf("/exports/ajnas/jins_rast/ibnsina_1037/yegah-names.kbm")).toBe("ibnsina_1037 × yegah");
    expect(cacheGroupOf("/exports/pitch-class-sets/ibnsina_1037/yegah/maqam_rast_al_saham/ramal_tuti_set.kbm")).toBe("ibnsina_1037 × yegah");
  });

  it("keeps a group in one batch, largest batch first", () => {
    const jobs = sampleRequests(1).map((r, i): Job => [i, r, r]);
    const batches = planBatches(jobs);
    expect(batches.flat().length).toBe(jobs.length);
    for (let i = 1; i < batches.length; i++) expect(batches[i].length).toBeLessThanOrEqual(batches[i - 1].length);
    const groupOf = new Map<string, number>();
    batches.forEach((b, i) => {
      for (const [, r] of b) {
        const g = cacheGroupOf(r);
        expect(groupOf.get(g) ?? i).toBe(i);
        groupOf.set(g, i);
      }
    });
  });
});
