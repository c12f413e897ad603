/**
 * GitHub Pages on a first visit, in a real browser (Debian's headless Chromium through
 * playwright-core) over a build served by a host that behaves as Pages does (query ignored,
 * directory index.html, 404.html with status 404 for misses: test/support/pagesHost.ts). A spec
 * URL with a query string opened cold gets build/404.html, which starts the service worker and
 * reloads once it controls the page: the page then shows the Node handler's bytes. A page outside
 * /api is a plain "not found" page that does not reload. Screenshots go to test-results/. Skipped
 * only where Chromium is missing, and never in CI.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BrowserContext, Page, Response as PageResponse } from "playwright-core";
import { handleRequest } from "../src/serve/handler.js";
import { nodeAssets } from "../src/serve/nodeAssets.js";
import { chromiumMissing, launchChromium } from "../scripts/browser.js";
import { buildSample, SAMPLE_BASE_URL } from "./support/buildSample.js";
import { startPagesHost, type PagesHost } from "./support/pagesHost.js";
import { catalog } from "./support/catalog.js";

const SHOTS = resolve(import.meta.dirname, "..", "test-results");
/** A spec URL with a query (parameters unsorted, as a user types them): no file at its path on a static host. */
const COLD = "/api/maqamat/maqam_rast?tuningSystem=ibnsina_1037&startingNote=yegah&pitchClassDataType=cents";
/** One the build has a file for, under its file URL's request. */
const FILED = "/api/tuning-systems?includeArabic=true";

const missing = process.env.CI ? undefined : chromiumMissing();

let sample: Awaited<ReturnType<typeof buildSample>>;
let host: PagesHost;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  if (missing) return;
  sample = await buildSample([]);
  host = await startPagesHost(sample.outDir);
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.stop();
  await host?.stop();
  if (sample) rmSync(sample.dir, { recursive: true, force: true });
});

const nodeAnswer = async (path: string) => {
  const r = await handleRequest(new Request(`http://localhost${path}`), { catalog, baseUrl: SAMPLE_BASE_URL, assets: nodeAssets({ buildDir: sample.outDir }) });
  return { status: r.status, body: await r.text(), source: r.headers.get("x-answer-source") };
};

/** Opens `path` in a new page and records every response to a navigation of the page. */
async function open(context: BrowserContext, path: string): Promise<{ page: Page; navigations: PageResponse[] }> {
  const page = await context.newPage();
  const navigations: PageResponse[] = [];
  page.on("response", (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) navigations.push(r);
  });
  await page.goto(`${host.origin}${path}`);
  return { page, navigations };
}

describe.skipIf(missing !== undefined)("a Pages-like host opened cold in Chromium", () => {
  it("the host serves 404.html with status 404 for a spec URL, ignoring its query", async () => {
    const r = await fetch(`${host.origin}${COLD}`);
    expect(r.status).toBe(404);
    expect(await r.text()).toContain('navigator.serviceWorker.register("/sw.js")');
  });

  it("a spec URL with a query string shows its JSON: 404.html starts the service worker and reloads once", async () => {
    const context = browser.context;
    const { page, navigations } = await open(context, COLD);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null && document.contentType === "application/json", undefined, {
      timeout: 60_000,
    });
    await page.screenshot({ path: join(SHOTS, "pages-cold-visit.png") });
    const want = await nodeAnswer(COLD);
    expect(want.status).toBe(200);
    expect(navigations.map((n) => [n.status(), n.fromServiceWorker()])).toEqual([
      [404, false],
      [200, true],
    ]);
    expect(await navigations[1].text()).toBe(want.body);
    expect(JSON.parse(await page.evaluate(() => document.querySelector("pre")?.textContent ?? ""))).toEqual(JSON.parse(want.body));
    await page.close();
  }, 120_000);

  it("once installed, spec URLs are answered at once, files and errors included", async () => {
    for (const path of [FILED, "/api/maqamat/maqam_nope?tuningSystem=ibnsina_1037&startingNote=yegah", "/api/sources"]) {
      const { page, navigations } = await open(browser.context, path);
      const want = await nodeAnswer(path);
      expect(
        navigations.map((n) => [n.status(), n.fromServiceWorker()]),
        path,
      ).toEqual([[want.status, true]]);
      expect(await navigations[0].text(), path).toBe(want.body);
      expect(navigations[0].headers()["x-answer-source"], path).toBe(want.source);
      await page.close();
    }
  }, 120_000);

  it("a missing page outside /api is a plain not-found page that does not reload", async () => {
    const { page, navigations } = await open(browser.context, "/no/such/page?x=1");
    await page.waitForTimeout(2000);
    await page.screenshot({ path: join(SHOTS, "pages-not-found.png") });
    expect(navigations.map((n) => n.status())).toEqual([404]);
    expect(await page.textContent("h1")).toBe("Not found");
    expect(await page.textContent("#path")).toBe("/no/such/page?x=1");
    await page.close();
  }, 60_000);
});

describe.skipIf(missing !== undefined)("a browser without a service worker for the page", () => {
  it("reloads at most once: a page the worker does not answer says so instead of looping", async () => {
    const fresh = await launchChromium();
    try {
      // The worker script cannot be fetched: registration fails and the page says why, without reloading.
      await fresh.context.route("**/sw.js", (route) => route.fulfill({ status: 404, body: "" }));
      const page = await fresh.context.newPage();
      let loads = 0;
      page.on("load", () => loads++);
      await page.goto(`${host.origin}${COLD}`);
      await page.waitForFunction(() => document.getElementById("status")?.textContent?.includes("could not be started"), undefined, { timeout: 30_000 });
      await page.waitForTimeout(1000);
      expect(loads).toBe(1);
      expect(await page.textContent("h1")).toBe("Not found");
    } finally {
      await fresh.stop();
    }
  }, 60_000);
});

if (missing) it.skip(`Chromium is skipped: ${missing}`, () => {});
