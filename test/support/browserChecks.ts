/** What the browser tests check on any page: problems it reports, axe-core's violations, horizontal overflow. */
import { createRequire } from "node:module";
import type { BrowserContext, Page } from "playwright-core";

const require = createRequire(import.meta.url);

/**
 * The client's look for a pre-rendered file the manifest allows (`/api/…/@….json`): on a host
 * without it the 404 is the expected "no file", and where the service worker answers the file's
 * URL it may be the API's 422 (the client then drops the body, which the browser reports as an
 * aborted request) — either way the client computes the answer itself.
 */
const fileProbe = (url: string, status?: number) =>
  (status === undefined || status === 404 || status === 422) && /^\/api\/.*\.json$/.test(new URL(url).pathname);

/** A page with every console error, page error, failed request and 4xx/5xx response (but file probes) collected. */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on(
    "console",
    (m) => m.type() === "error" && !(/status of (404|422)/.test(m.text()) && fileProbe(m.location().url)) && problems.push(`console: ${m.text()}`),
  );
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on(
    "requestfailed",
    (r) =>
      !r.url().startsWith("blob:") &&
      !(r.failure()?.errorText === "net::ERR_ABORTED" && fileProbe(r.url())) &&
      problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`),
  );
  page.on("response", (r) => r.status() >= 400 && !fileProbe(r.url(), r.status()) && problems.push(`${r.status()}: ${r.url()}`));
  return { page, problems };
}

/** axe-core's critical and serious violations on the page as it is now: "rule (impact): n nodes". */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (o: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } })
      .axe;
    const result = await axe.run({ resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
  return violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} nodes, e.g. ${v.nodes.slice(0, 3).join(", ")}`);
}

/** How far the page is wider than its viewport (0 when nothing scrolls sideways). */
export const overflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Waits until the explorer has shown the current state completely. */
export const explorerReady = (page: Page) => page.waitForSelector("#explorer[data-ready=true]", { timeout: 60_000 });
