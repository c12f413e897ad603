/**
 * The site's budgets in headless Chromium, over a build (default build/, or BUILD_DIR) served by
 * `serve` on loopback: the landing page's first load (bytes on the wire, gzip, without the API
 * reference), the engine chunk's size, answers computed in the page by the client (recorded
 * requests without a file), and the route bench set (scripts/bench-routes.ts) searched in the
 * page. `--write` puts the section into docs/benchmarks.md; otherwise it is printed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { loadavg } from "node:os";
import { staticFileOf } from "../src/api/staticPath.js";
import { recordedCases, endpointOf } from "../test/support/recorded.js";
import { benchQueries, percentile } from "./bench-routes.js";
import { launchChromium, startStatic } from "./browser.js";
import { writeSection } from "./benchDoc.js";

const root = resolve(import.meta.dirname, "..");
const buildDir = resolve(process.env.BUILD_DIR ?? join(root, "build"));
const PER_ENDPOINT = 10;

/** Recorded 200 requests that the build has no file for, up to PER_ENDPOINT per endpoint. */
function computedSet(): string[] {
  const taken = new Map<string, number>();
  const picked: string[] = [];
  for (const c of recordedCases()) {
    if (c.status !== 200) continue;
    const url = new URL(c.path, "http://x");
    const file = staticFileOf(url.pathname, new URLSearchParams([...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
    if (file && existsSync(join(buildDir, "api", file))) continue;
    const name = endpointOf(c.path);
    if ((taken.get(name) ?? 0) >= PER_ENDPOINT) continue;
    taken.set(name, (taken.get(name) ?? 0) + 1);
    picked.push(c.path);
  }
  return picked;
}

const fmt = (n: number) => n.toFixed(1);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ok = (met: boolean) => (met ? "met" : "**not met**");

const engineFile = readdirSync(join(buildDir, "client")).find((f) => /^engine-.*\.js$/.test(f))!;
const engine = readFileSync(join(buildDir, "client", engineFile));
const engineGz = gzipSync(engine, { level: 9 }).length;
const notationFile = readdirSync(join(buildDir, "chunks")).find((f) => /^notation-.*\.js$/.test(f))!;
const notationGz = gzipSync(readFileSync(join(buildDir, "chunks", notationFile)), { level: 9 }).length;
const swGz = gzipSync(readFileSync(join(buildDir, "sw.js")), { level: 9 }).length;

const server = await startStatic(buildDir);
const browser = await launchChromium();
try {
  const page = await browser.context.newPage();
  await page.goto(`${server.origin}/`);
  await page.waitForSelector("#explorer[data-ready=true]", { timeout: 60_000 });
  const load = await page.evaluate(() =>
    (performance.getEntriesByType("navigation") as PerformanceResourceTiming[])
      .concat(performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .map((e) => ({ url: e.name, wire: e.encodedBodySize, body: e.decodedBodySize })),
  );
  const landingWire = load.reduce((sum, e) => sum + e.wire, 0);
  // Loaded on demand only: the staff notation chunk, the Arabic font, the engine chunk.
  const onDemand = load.filter((e) => /\/chunks\/notation-|\/fonts\/|\/client\/engine-/.test(e.url)).map((e) => new URL(e.url).pathname);
  const landingBody = load.reduce((sum, e) => sum + e.body, 0);

  // Computed in the page by the client: the engine chunk is loaded by the warm-up round.
  const computed = computedSet();
  type Timed = { path: string; ms: number; status: number; source: string };
  const timeInPage = (paths: string[]) =>
    page.evaluate(async (list) => {
      const { createClient } = (await import("/client/maqam-api.js" as string)) as typeof import("../src/client/index.js");
      const client = createClient({ baseUrl: location.origin });
      const out: { path: string; ms: number; status: number; source: string }[] = [];
      for (const path of list) {
        const url = new URL(path, location.origin);
        const params = Object.fromEntries(url.searchParams);
        const started = performance.now();
        const answer = await client.request(url.pathname, params);
        out.push({ path, ms: performance.now() - started, status: answer.status, source: answer.source });
      }
      return out;
    }, paths) as Promise<Timed[]>;
  const firstStart = Date.now();
  const [first] = await timeInPage(computed.slice(0, 1));
  const firstMs = Date.now() - firstStart;
  await timeInPage(computed);
  const timed = await timeInPage(computed);
  const times = timed.map((t) => t.ms).sort((a, b) => a - b);
  const slowest = [...timed].sort((a, b) => b.ms - a.ms)[0];
  const searches = await timeInPage(benchQueries().map((q) => `/modulation-routes?${q}`));
  const searchTimes = searches.map((t) => t.ms).sort((a, b) => a - b);
  const worstSearch = [...searches].sort((a, b) => b.ms - a.ms)[0];
  const notOk = [...timed, ...searches].filter((t) => t.status !== 200 || t.source !== "computed");

  const section = [
    "## Site in Chromium",
    "",
    `Measured by \`npx tsx scripts/bench-site.ts\` (also run by \`npm run bench\`) in Debian's headless Chromium (${browser.context.browser()?.version() ?? "?"}) over the build in \`${buildDir === join(root, "build") ? "build/" : buildDir}\` (profile ${JSON.parse(readFileSync(join(buildDir, "manifest.json"), "utf8")).profile}) served by \`serve\` (gzip) on 127.0.0.1, on this project's 2-core machine.`,
    "",
    "| budget | target | measured | |",
    "|---|---:|---:|---|",
    `| landing page first load, bytes on the wire (gzip; ${load.length} resources, the explorer's default view included, no API reference) | ≤ 150 KB | ${kb(landingWire)} (${kb(landingBody)} decoded) | ${ok(landingWire <= 150 * 1024)} |`,
    `| engine chunk (\`client/${engineFile}\`), gzip -9 | ≤ 300 KB | ${kb(engineGz)} (${kb(engine.length)} raw) | ${ok(engineGz <= 300 * 1024)} |`,
    `| on demand, not in the first load: staff notation (\`chunks/${notationFile}\`, VexFlow with its font, ${kb(notationGz)} gzip -9), the Arabic font, the engine | none loaded | ${onDemand.length ? onDemand.join(", ") : "none loaded"} | ${ok(onDemand.length === 0)} |`,
    `| computed answers in the page, p95 (${timed.length} recorded requests without a file, ≤ ${PER_ENDPOINT} per endpoint, after a warm-up round) | ≤ 50 ms | ${fmt(percentile(times, 0.95))} ms (median ${fmt(percentile(times, 0.5))}, worst ${fmt(slowest.ms)}: \`${slowest.path.slice(0, 90)}\`) | ${ok(percentile(times, 0.95) <= 50)} |`,
    `| route searches in the page, worst of the route bench set (${searches.length} queries) | ≤ 1 s | ${fmt(worstSearch.ms)} ms (median ${fmt(percentile(searchTimes, 0.5))}, p95 ${fmt(percentile(searchTimes, 0.95))}) | ${ok(worstSearch.ms <= 1000)} |`,
    "",
    `Load average when the bench ended: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" / ")} (1 / 5 / 15 min); above 2 the page shared the cores with other work and every time above is pessimistic.${routeSearchNote(worstSearch.ms)}`,
    "",
    `The first computed answer, loading and initialising the engine chunk, took ${firstMs} ms end to end (${fmt(first.ms)} ms in the page). The service worker (\`sw.js\`, ${kb(swGz)} gzip -9) bundles the engine and is registered after the page's load event, so it is not part of the first load. Answers other than a computed 200: ${notOk.length}${notOk.length ? ` (${notOk.map((t) => `\`${t.path}\`: ${t.status} ${t.source}`).join("; ")}; \`static\` is an answer at a file's address, which the service worker computes where the build has no file)` : ""}.`,
    "",
  ].join("\n");
  if (process.argv.includes("--write")) writeSection("## Site in Chromium", section);
  console.log(section);
} finally {
  await browser.stop();
  await server.stop();
}

/** What the worst route search says: within the budget, or the gap with its cause and next step. */
function routeSearchNote(worstMs: number): string {
  return worstMs <= 1000
    ? " Route searches: the worst of the set (a maxHops=20 search with waypoints and every flag) runs on the page's main thread within the budget."
    : " Route searches: the worst of the set is a maxHops=20 search with waypoints and every flag; the same set answers in Node within the budget on a quiet machine (Route search above), so the gap is CPU contention and the browser's slower single thread; the next step is to run the search in a Web Worker (the page stays responsive) and measure on a quiet machine.";
}
