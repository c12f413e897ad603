/**
 * The SQL page in headless Chromium over a small build with the datasets of three tuning systems,
 * served by a plain static server (no fallback) and by the Node server (`npm start`), with the
 * landing page's service worker in control: both example queries show the rows sql.js gives in Node on the same file, the database
 * is read only by range requests and only a small part of it, a Parquet row group read by
 * hyparquet shows the CSV's rows, an SQL error is shown as text, and axe-core finds no critical or
 * serious violation (English and Arabic). Screenshots go to test-results/.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import initSqlJs from "sql.js";
import type { Page } from "playwright-core";
import { chromiumMissing, launchChromium, startStatic, type Running } from "../scripts/browser.js";
import { startNodeServer } from "../scripts/runtimes.js";
import { DATABASE_URL, EXAMPLES } from "../public/sqlExamples.js";
import { buildWithDatasets } from "./support/buildSample.js";
import { axeViolations, watchedPage } from "./support/browserChecks.js";
import { SHOTS } from "./support/siteSample.js";

let sample: Awaited<ReturnType<typeof buildWithDatasets>>;
const apiFile = (url: string) => join(sample.outDir, url.replace(/^\//, ""));

beforeAll(async () => {
  sample = await buildWithDatasets(3);
  mkdirSync(SHOTS, { recursive: true });
}, 300_000);
afterAll(() => {
  if (sample) rmSync(sample.dir, { recursive: true, force: true });
});

/** The hosts the page runs on: a static server's own range answers, and the Node server's (screenshots suffixed). */
const HOSTS: { host: string; start: (dir: string) => Promise<Running>; shot: string }[] = [
  { host: "serve", start: startStatic, shot: "" },
  { host: "the Node server", start: (buildDir) => startNodeServer({ buildDir }), shot: "-node" },
];

/** A cell as the page writes it. */
const shown = (v: unknown) => (v === null ? "NULL" : String(v));
const tableOf = (page: Page, host: string) =>
  page.$$eval(`${host} table tr`, (trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => c.textContent ?? "")));

const missing = chromiumMissing();
describe.skipIf(!process.env.CI && missing !== undefined).each(HOSTS)("the SQL page in headless Chromium on $host", ({ host, start, shot }) => {
  let server: Running;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    server = await start(sample.outDir);
    browser = await launchChromium();
    // The landing page installs the service worker, which then controls every page of the site.
    const landing = await browser.context.newPage();
    await landing.goto(`${server.origin}/`);
    await landing.waitForSelector("#explorer[data-ready=true]", { timeout: 60_000 });
    await landing.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await landing.close();
  }, 120_000);
  afterAll(async () => {
    await browser?.stop();
    await server?.stop();
  });

  /** The SQL page with the service worker in control, and every request of the database. */
  async function openSql(lang = "en") {
    const { page, problems } = await watchedPage(browser.context);
    const reads: { method: string; range?: string }[] = [];
    browser.context.on("request", (r) => {
      if (new URL(r.url()).pathname === DATABASE_URL) reads.push({ method: r.method(), range: r.headers().range });
    });
    await page.goto(`${server.origin}/sql.html?lang=${lang}`);
    await page.waitForSelector("#parquet[data-ready=true]");
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    return { page, problems, reads };
  }

  async function run(page: Page, sql: string) {
    await page.fill("#sql-text", sql);
    await page.click("#sql-run");
    await page.waitForSelector("#sql-result:is([data-state=done], [data-state=error])", { timeout: 60_000 });
  }

  it("runs both examples with the rows sql.js gives in Node, reading the database by range requests only", async () => {
    const SQL = await initSqlJs();
    const bytes = readFileSync(apiFile(DATABASE_URL));
    const db = new SQL.Database(bytes);
    const { page, problems, reads } = await openSql();
    for (const example of EXAMPLES) {
      const [expected] = db.exec(example.sql);
      expect(expected.values.length, example.id).toBeGreaterThan(0);
      await page.click(`button[data-example=${example.id}]`);
      expect(await page.inputValue("#sql-text")).toBe(example.sql);
      await page.click("#sql-run");
      await page.waitForSelector("#sql-result[data-state=done]", { timeout: 60_000 });
      const [header, ...rows] = await tableOf(page, "#sql-result");
      expect(header, example.id).toEqual(expected.columns);
      expect(rows, example.id).toEqual(expected.values.map((r) => r.map(shown)));
      await page.screenshot({ path: join(SHOTS, `sql-${example.id}${shot}.png`), fullPage: true });
    }
    db.close();
    const fetched = Number(await page.getAttribute("#sql-status", "data-fetched"));
    const requests = Number(await page.getAttribute("#sql-status", "data-requests"));
    // Every GET of the database asked for a range; the one other request is the worker's HEAD (its length).
    const gets = reads.filter((r) => r.method === "GET");
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.every((r) => /^bytes=\d+-\d+$/.test(r.range ?? ""))).toBe(true);
    expect(reads.filter((r) => r.method !== "GET").map((r) => r.method)).toEqual(["HEAD"]);
    expect(requests).toBe(gets.length);
    expect(fetched / bytes.length).toBeLessThan(0.1);
    console.log(`SQL page (${host}): ${requests} range requests, ${fetched} of ${bytes.length} bytes (${((100 * fetched) / bytes.length).toFixed(2)} %)`);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("shows an SQL error as text and still runs the next query", async () => {
    const { page, problems } = await openSql();
    await run(page, "SELECT no_such_column FROM maqam_renderings");
    expect(await page.getAttribute("#sql-result", "data-state")).toBe("error");
    expect(await page.textContent("#sql-result .error")).toContain("no such column: no_such_column");
    await run(page, "SELECT COUNT(*) AS n FROM tuning_systems");
    expect(await tableOf(page, "#sql-result")).toEqual([["n"], ["3"]]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("reads the row group holding rows 50,000–50,019 of a Parquet file by ranges, with the CSV's rows", async () => {
    const dictionary = JSON.parse(readFileSync(apiFile("/api/datasets/index.json"), "utf8")) as {
      tables: { name: string; rows: number; files: { csv: { url: string }; parquet: { url: string; bytes: number } } }[];
    };
    const table = dictionary.tables.find((x) => x.name === "maqam_renderings")!;
    expect(table.rows).toBeGreaterThan(50_020);
    const { page, problems } = await openSql();
    await page.selectOption("#parquet-table", table.name);
    await page.fill("#parquet-start", "50000");
    await page.fill("#parquet-count", "20");
    await page.click("#parquet button[type=submit]");
    await page.waitForSelector("#parquet-result[data-state=done]", { timeout: 60_000 });
    const [header, ...rows] = await tableOf(page, "#parquet-result");
    const csv: string[][] = parse(readFileSync(apiFile(table.files.csv.url), "utf8"), { record_delimiter: "\r\n" });
    expect(header).toEqual(csv[0]);
    // An empty CSV field is a null or an empty text (an abjad name a tuning system lacks).
    expect(rows.map((r) => r.map((cell) => (cell === "NULL" ? "" : cell)))).toEqual(csv.slice(50_001, 50_021));
    const status = (await page.textContent("#parquet-status")) ?? "";
    const fetchedKb = Number(/Read ([\d.,]+) KB/.exec(status)?.[1].replace(/,/g, ""));
    // The footer and the row group of the tuning system that holds rows 50,000–50,019 (its 5,280 rows): a small part of the file.
    expect(fetchedKb * 1024).toBeLessThan(table.files.parquet.bytes * 0.3);
    console.log(`Parquet (${host}): ${status}`);
    await page.screenshot({ path: join(SHOTS, `sql-parquet${shot}.png`), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it.each(["en", "ar"])(
    "axe-core finds no critical or serious violation (%s)",
    async (lang) => {
      const { page, problems } = await openSql(lang);
      expect(await page.getAttribute("html", "dir")).toBe(lang === "ar" ? "rtl" : "ltr");
      await run(page, EXAMPLES[1].sql);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `sql-${lang}${shot}.png`), fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
    },
    120_000,
  );
});
