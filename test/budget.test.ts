import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { existsSync, readFileSync, readdirSync, rmSync, mkdtempSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { tmpdir } from "node:os";
import { HEADROOM, VALUE_CLASSES, datasetClassOf, datasetOrderOf, fitToLimits, valueClassOf, type Candidate, type ValueClass } from "../scripts/budget.js";
import { limitsOf, withinFileLimit } from "../scripts/fitTree.js";
import { tarEntryBytes, treeSize } from "../scripts/treeSize.js";
import { requestOfStaticFile } from "../src/api/staticPath.js";
import { answerApi } from "../src/serve/handler.js";
import { catalog } from "./support/catalog.js";
import { EXPLORER_FIRST_VIEW, prerenderRequests } from "../scripts/prerender/index.js";
import { buildSample, SAMPLE_BASE_URL, smallRequests } from "./support/buildSample.js";
import { runScript } from "./support/processes.js";
import type { Manifest } from "../scripts/manifest.js";

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
const rank = (c: Candidate) => VALUE_CLASSES.indexOf(c.valueClass);
/** The value class of a file below api/. */
const classOfFile = (file: string) => {
  const request = requestOfStaticFile(file);
  return request ? valueClassOf(`${request.path}${request.query.size ? `?${request.query}` : ""}`) : undefined;
};

describe("value classes", () => {
  it.each([
    ["/maqamat", "index"],
    ["/maqamat/maqam_rast/availability", "index"],
    ["/sources/forster_2010", "index"],
    ["/maqamat/maqam_rast?startingNote=yegah&tuningSystem=ibnsina_1037", "base"],
    ["/tuning-systems/ibnsina_1037/yegah/pitch-classes", "base"],
    ["/exports/maqamat/maqam_rast/ibnsina_1037/yegah.scl", "export"],
    ["/exports/maqamat/maqam_rast/ibnsina_1037/yegah-names.kbm", "export"],
    ["/exports/ajnas/jins_rast/ibnsina_1037/yegah.tun", "restated"],
    ["/exports/tuning-systems/ibnsina_1037/yegah.tun", "export"],
    ["/maqamat/maqam_rast?startingNote=yegah&transposeTo=nawa&tuningSystem=ibnsina_1037", "variant"],
    ["/tuning-systems/ibnsina_1037/yegah/pitch-classes?octave=1&pitchClassDataType=cents", "variant"],
    ["/maqamat?includeArabic=true", "variant"],
    ["/maqamat/maqam_rast?pitchClassDataType=all&startingNote=rast&tuningSystem=ibnsina_1037", "variant"],
    // The explorer's first view: every value format of maqām rāst in Ibn Sīnā from yegāh, in both languages.
    ["/maqamat/maqam_rast?pitchClassDataType=all&startingNote=yegah&tuningSystem=ibnsina_1037", "index"],
    ["/maqamat/maqam_rast?includeArabic=true&pitchClassDataType=all&startingNote=yegah&tuningSystem=ibnsina_1037", "index"],
    ["/maqamat/maqam_rast/transpositions?includeArabic=true&startingNote=yegah&tuningSystem=ibnsina_1037", "index"],
    ["/tuning-systems/ibnsina_1037/yegah/ajnas?includeArabic=true", "index"],
    ["/tuning-systems?includeArabic=true", "index"],
    ["/tuning-systems/ibnsina_1037/yegah/maqamat", "index"],
    ["/maqamat/maqam_rast/transpositions?includeArabic=true&startingNote=rast&tuningSystem=ibnsina_1037", "variant"],
  ])("%s is %s", (request, valueClass) => expect(valueClassOf(request)).toBe(valueClass));

  it("plans the explorer's first view, with the indexes, so that the landing page needs no engine on any host", () => {
    const planned = new Set(prerenderRequests(catalog, { full: false }));
    // Per language: the tuning systems, the scope's maqāmāt and ajnās, the transpositions, the rendering.
    expect(EXPLORER_FIRST_VIEW).toHaveLength(10);
    for (const request of EXPLORER_FIRST_VIEW) {
      expect(planned.has(request), request).toBe(true);
      expect(valueClassOf(request), request).toBe("index");
    }
  });

  it("classes every request of the plan as its URL, parsed, says", () => {
    // The rule over a parsed URL, as the class was first defined.
    const parsed = (request: string): ValueClass => {
      const url = new URL(request, "http://x");
      if (/^\/exports\/(maqamat|ajnas)\/.+\.tun$/.test(url.pathname)) return "restated";
      if (url.pathname.startsWith("/exports/")) return "export";
      const keys = [...url.searchParams.keys()];
      if (EXPLORER_FIRST_VIEW.includes(request)) return "index";
      if (!keys.every((k) => k === "tuningSystem" || k === "startingNote")) return "variant";
      return keys.length || /^\/tuning-systems\/[^/]+\/[^/]+\//.test(url.pathname) ? "base" : "index";
    };
    const requests = [...prerenderRequests(catalog, { full: false })].filter((r, i) => i % 5 === 0 || EXPLORER_FIRST_VIEW.includes(r));
    expect(new Set(requests.map(parsed))).toEqual(new Set(VALUE_CLASSES.filter((c) => !["dataset", "database", "picture", "site"].includes(c))));
    for (const request of requests) expect(valueClassOf(request), request).toBe(parsed(request));
  });

  it("ranks the database (which the SQL page reads) before the CSV tables, and the Parquet files with the indexes", () => {
    const ranked = ["maqam_archive.sqlite", "maqam_renderings.csv", "maqam_renderings.parquet", "index.json"].map(datasetClassOf);
    expect(ranked).toEqual(["database", "dataset", "index", "index"]);
    expect(VALUE_CLASSES.indexOf("database")).toBeLessThan(VALUE_CLASSES.indexOf("dataset"));
    expect(VALUE_CLASSES.indexOf("export")).toBeLessThan(VALUE_CLASSES.indexOf("database"));
  });

  it("ranks the CSV tables in the dictionary's order, so a limit cuts modulations.csv before the reference tables", () => {
    const files = ["tuning_systems", "modulations", "sources", "maqam_renderings", "note_names", "pitch_classes"].map((t) => `${t}.csv`);
    // As the fit names them: below api/, so with the datasets' folder.
    const ranked = [...files].sort((a, b) => datasetOrderOf(`datasets/${a}`) - datasetOrderOf(`datasets/${b}`));
    expect(ranked).toEqual(["tuning_systems.csv", "note_names.csv", "sources.csv", "pitch_classes.csv", "maqam_renderings.csv", "modulations.csv"]);
    // Sizes as the archive's (MB): the small tables and maqam_renderings fit; modulations, 50 MB, does not.
    const sizes: Record<string, number> = {
      tuning_systems: 0.01,
      note_names: 0.02,
      sources: 0.01,
      pitch_classes: 0.9,
      maqam_renderings: 70.9,
      modulations: 49.9,
    };
    const candidates: Candidate[] = files.map((f) => ({
      path: `api/datasets/${f}`,
      bytes: Math.round(sizes[f.replace(".csv", "")] * 1e6),
      valueClass: "dataset",
      order: datasetOrderOf(f),
    }));
    const kept = fitToLimits(candidates, { tarBytes: 100e6 / (1 - HEADROOM) }).kept.map((c) => c.path.split("/").pop());
    expect(kept).toEqual(["tuning_systems.csv", "note_names.csv", "sources.csv", "pitch_classes.csv", "maqam_renderings.csv"]);
  });
});

describe("fitting to a host's limits", () => {
  const candidates: Candidate[] = Array.from({ length: 400 }, (_, i) => ({
    path: `${["site", "api/a", "api/b/c", "pictures/x"][i % 4]}/file_${i}.json`,
    bytes: (i * 7919) % 3000,
    valueClass: VALUE_CLASSES[i % VALUE_CLASSES.length],
    order: i,
  }));

  it("keeps a prefix of the ranking within the limit less the headroom, the site whole", () => {
    const limits = { tarBytes: 400_000 };
    const { kept, left, measured } = fitToLimits(candidates, limits);
    expect(kept.length + left.length).toBe(candidates.length);
    expect(left.length).toBeGreaterThan(0);
    expect(measured.tarBytes).toBeLessThanOrEqual(limits.tarBytes * (1 - HEADROOM));
    expect(Math.max(...kept.map(rank))).toBeLessThanOrEqual(Math.min(...left.map(rank)));
    expect(kept.filter((c) => c.valueClass === "site")).toHaveLength(candidates.filter((c) => c.valueClass === "site").length);
    // Within a class the plan's order decides.
    for (const cls of VALUE_CLASSES) {
      const keptOrders = kept.filter((c) => c.valueClass === cls).map((c) => c.order);
      const leftOrders = left.filter((c) => c.valueClass === cls).map((c) => c.order);
      if (keptOrders.length && leftOrders.length) expect(Math.max(...keptOrders)).toBeLessThan(Math.min(...leftOrders));
    }
  });

  it("keeps everything when it fits, and counts files against a file limit", () => {
    expect(fitToLimits(candidates, {}).left).toHaveLength(0);
    // Unranked without limits, and measured as the ranked fit within limits nothing reaches.
    const unlimited = fitToLimits(candidates, {}, 4096);
    const ranked = fitToLimits(candidates, { tarBytes: 1e15, files: 1e9, fileBytes: 1e12 }, 4096);
    expect(unlimited.measured).toEqual(ranked.measured);
    expect(unlimited.measured.files).toBe(candidates.length);
    expect(new Set(unlimited.kept)).toEqual(new Set(ranked.kept));
    const { kept } = fitToLimits(candidates, { files: 200 });
    expect(kept).toHaveLength(180);
  });

  it("cuts the plan to a file limit before rendering, most valuable first, in plan order", () => {
    const planned = ["/maqamat?includeArabic=true", "/exports/tuning-systems/a/b.scl", "/maqamat", "/maqamat/x?startingNote=b&tuningSystem=a"].map(
      (request) => ({ request, valueClass: valueClassOf(request) }),
    );
    expect(withinFileLimit(planned, 26, 20).map((p) => p.request)).toEqual([
      "/exports/tuning-systems/a/b.scl",
      "/maqamat",
      "/maqamat/x?startingNote=b&tuningSystem=a",
    ]);
    expect(withinFileLimit(planned, undefined, 20)).toHaveLength(4);
  });

  it("reads limits from HOST_LIMITS and refuses what it cannot read", () => {
    expect(limitsOf({ tarBytes: 1e9 }, "files=100, fileBytes=2e6")).toEqual({ tarBytes: 1e9, files: 100, fileBytes: 2e6 });
    expect(() => limitsOf({}, "bytes=5")).toThrowError(/HOST_LIMITS: 'bytes=5'/);
    expect(() => limitsOf({}, "files=-1")).toThrowError(/positive number/);
  });
});

describe("a build fitted to a smaller host", () => {
  let whole: Awaited<ReturnType<typeof buildSample>>;
  let fitted: Awaited<ReturnType<typeof buildSample>>;
  let tight: Awaited<ReturnType<typeof buildSample>>;
  let renderedAll: Awaited<ReturnType<typeof buildSample>>;
  let limit = 0;
  let tightLimit = 0;
  beforeAll(async () => {
    whole = await buildSample([]);
    // A host that takes about four fifths of the sample.
    limit = Math.round((treeSize(whole.outDir).tarBytes * 0.8) / (1 - HEADROOM));
    fitted = await buildSample([], { limits: { tarBytes: limit } });
    // A host without room for the variants, whose limit falls among the exports: the variants are never rendered.
    const tarOf = (valueClass: ValueClass) =>
      walk(join(whole.outDir, "api"))
        .filter((f) => classOfFile(relative(join(whole.outDir, "api"), f)) === valueClass)
        // Named as the archive names them (./api/…): a name's length decides whether it needs a long-name entry.
        .reduce((sum, f) => sum + tarEntryBytes(`./${relative(whole.outDir, f)}`, statSync(f).size), 0);
    tightLimit = Math.round((treeSize(whole.outDir).tarBytes - tarOf("variant") - tarOf("export") / 2) / (1 - HEADROOM));
    tight = await buildSample([], { limits: { tarBytes: tightLimit } });
    renderedAll = await buildSample([], { limits: { tarBytes: tightLimit }, renderAll: true });
  }, 480_000);
  afterAll(() => {
    for (const b of [whole, fitted, tight, renderedAll]) if (b) rmSync(b.dir, { recursive: true, force: true });
  });

  it("publishes a tree within the limit and records what it left out", () => {
    const published = treeSize(fitted.outDir);
    expect(published.tarBytes).toBeLessThanOrEqual(limit * (1 - HEADROOM));
    // Counted from what the build knows, the same as the walk.
    expect(fitted.published).toEqual(published);
    const { leftOut, limits } = fitted.manifest.published;
    expect(limits).toEqual({ tarBytes: limit });
    const { notRendered } = fitted.manifest.published;
    expect(leftOut.files + notRendered.requests).toBeGreaterThan(0);
    // Every answer of the whole build is published, left out after rendering, or never rendered (a sample of answers that are all 200).
    expect(whole.manifest.skipped.count).toBe(0);
    expect(fitted.manifest.files).toBe(whole.manifest.files - (leftOut.files - (leftOut.byClass.picture?.files ?? 0)) - notRendered.requests);
    expect(whole.manifest.published.leftOut.files).toBe(0);
    expect(whole.manifest.published.notRendered).toEqual({ requests: 0, byClass: {}, pictures: 0 });
  });

  it("renders in value order and stops where the limit is reached: the classes after it never rendered, the same tree as rendering all and fitting", () => {
    const { notRendered, leftOut } = tight.manifest.published;
    const all = renderedAll.manifest.published;
    const variants = walk(join(whole.outDir, "api")).filter((f) => classOfFile(relative(join(whole.outDir, "api"), f)) === "variant").length;
    expect(variants).toBeGreaterThan(0);
    // The exports' parts after the one where the limit falls are not rendered either.
    expect(notRendered.byClass.variant).toBe(variants);
    expect(notRendered.requests).toBe(variants + (notRendered.byClass.export ?? 0));
    expect(notRendered.pictures).toBe(0);
    expect(leftOut.byClass.export?.files).toBeGreaterThan(0);
    expect(all.notRendered).toEqual({ requests: 0, byClass: {}, pictures: 0 });
    expect(all.leftOut.byClass.variant?.files).toBe(variants);
    // What was not rendered is what rendering everything left out, class by class.
    for (const c of VALUE_CLASSES) expect((notRendered.byClass[c] ?? 0) + (leftOut.byClass[c]?.files ?? 0), c).toBe(all.leftOut.byClass[c]?.files ?? 0);
    // The same answers, byte for byte, within the limit, and the same worker (it lists the plan's shapes); the service worker's version differs.
    const files = (dir: string) =>
      walk(join(dir, "api"))
        .map((f) => relative(dir, f))
        .sort();
    expect(files(tight.outDir)).toEqual(files(renderedAll.outDir));
    for (const f of files(tight.outDir)) expect(readFileSync(join(tight.outDir, f)).equals(readFileSync(join(renderedAll.outDir, f))), f).toBe(true);
    expect(tight.manifest.digest).toBe(renderedAll.manifest.digest);
    expect(readFileSync(join(tight.outDir, "_worker.js")).equals(readFileSync(join(renderedAll.outDir, "_worker.js")))).toBe(true);
    expect(tight.published.tarBytes).toBeLessThanOrEqual(tightLimit * (1 - HEADROOM));
  });

  it("leaves out the least valuable files, keeps the rest byte for byte, and answers the left-out ones with the same bytes", async () => {
    const api = (dir: string) => walk(join(dir, "api")).map((f) => relative(join(dir, "api"), f));
    const kept = new Set(api(fitted.outDir));
    const left = api(whole.outDir).filter((f) => !kept.has(f));
    expect(left.length).toBeGreaterThan(0);
    const classRank = (f: string) => {
      const { path, query } = requestOfStaticFile(f)!;
      return VALUE_CLASSES.indexOf(valueClassOf(`${path}${query.size ? `?${query}` : ""}`));
    };
    expect(Math.max(...[...kept].map(classRank))).toBeLessThanOrEqual(Math.min(...left.map(classRank)));
    for (const f of kept) expect(readFileSync(join(fitted.outDir, "api", f)).equals(readFileSync(join(whole.outDir, "api", f))), f).toBe(true);
    for (const f of left.slice(0, 50)) {
      const { path, query } = requestOfStaticFile(f)!;
      const a = await answerApi(path, query, { catalog, baseUrl: SAMPLE_BASE_URL });
      expect(Buffer.from(a.body).equals(readFileSync(join(whole.outDir, "api", f))), f).toBe(true);
    }
  });
});

describe("a build under no limit", () => {
  let counted: Awaited<ReturnType<typeof buildSample>> | undefined;
  let listed: Awaited<ReturnType<typeof buildSample>> | undefined;
  beforeAll(async () => {
    // Answers with siblings and pictures: without a limit the build counts the files it knows; under one too large to bite, it lists them and fits.
    counted = await buildSample(["gzip", "br"], { requests: smallRequests(), limits: {} });
    listed = await buildSample(["gzip", "br"], { requests: smallRequests(), limits: { tarBytes: 1e12 } });
  }, 300_000);
  afterAll(() => {
    for (const b of [counted, listed]) if (b) rmSync(b.dir, { recursive: true, force: true });
  });

  it("measures the tree as a walk does and writes the manifest a listed fit writes, without listing the files it knows", () => {
    if (!counted || !listed) throw new Error("builds missing");
    expect(counted.manifest.site.pictures.files).toBeGreaterThan(0);
    expect(counted.manifest.precompressed.br?.files).toBeGreaterThan(0);
    expect(counted.published).toEqual(treeSize(counted.outDir));
    // The same tree but for manifest.json, which names each build's limits.
    const manifestBytes = (b: { outDir: string }) => statSync(join(b.outDir, "manifest.json")).size;
    expect(counted.published).toEqual({ ...listed.published, bytes: listed.published.bytes - manifestBytes(listed) + manifestBytes(counted) });
    expect(counted.manifest.published.limits).toEqual({});
    const limitsAside = (m: Manifest) => ({ ...m, published: { ...m.published, limits: undefined } });
    expect(limitsAside(counted.manifest)).toEqual(limitsAside(listed.manifest));
  });
});

describe("a build over a hard limit of its host", () => {
  it("exits non-zero naming the limit, and leaves no tree", async () => {
    const outDir = join(mkdtempSync(join(tmpdir(), "maqam-over-")), "build");
    const run = runScript("scripts/build.ts", {
      BUILD_DIR: outDir,
      BASE_URL: SAMPLE_BASE_URL,
      BUILD_WORKERS: "1",
      HOST_PROFILE: "cloudflare",
      HOST_LIMITS: "files=10",
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/^build: the output would not deploy on its host \(profile cloudflare\): the tree holds \d+ files, over the host's 10$/m);
    expect(existsSync(outDir)).toBe(false);
  }, 240_000);
});
