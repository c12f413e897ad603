/**
 * The explorer swept over the whole archive in headless Chromium: every maqām and jins of every
 * tuning system × starting note (on its taḥlīl or one of its transpositions, seeded), and one
 * entity each tuning cannot realise, shown one after the other in one page of the site served by
 * a plain static server, each checked against the API's answer (test/support/explorerSweep.ts).
 * `-- --per N` takes N entities per context instead of all; `--write` puts the result into
 * docs/benchmarks.md. Over a build (default build/, or BUILD_DIR).
 */
import { join, resolve } from "node:path";
import { loadavg } from "node:os";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { differences, show, sweepCases } from "../test/support/explorerSweep.js";
import { launchChromium, startStatic } from "./browser.js";
import { writeSection } from "./benchDoc.js";

const root = resolve(import.meta.dirname, "..");
const buildDir = resolve(process.env.BUILD_DIR ?? join(root, "build"));
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const per = Number(arg("per") ?? Infinity);
const seed = Number(arg("seed") ?? 17);

const catalog = createCatalog(readFacts());
const cases = await sweepCases(catalog, per, seed);
const server = await startStatic(buildDir);
const browser = await launchChromium();
const wrong: string[] = [];
const counts = new Map<string, number>();
const started = Date.now();
try {
  const page = await browser.context.newPage();
  // tsx keeps function names with a helper the page does not have: define it there.
  await page.addInitScript("globalThis.__name = (f) => f");
  await page.goto(`${server.origin}/`);
  await page.waitForSelector("#explorer[data-ready=true]", { timeout: 60_000 });
  for (const [i, c] of cases.entries()) {
    const key = `${c.state.kind} ${c.expect}${c.state.transposition ? " (transposed)" : ""}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    wrong.push(...(await differences(catalog, c, await show(page, c.state))));
    if (i % 250 === 249) console.error(`${i + 1} / ${cases.length}, ${wrong.length} wrong, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
} finally {
  await browser.stop();
  await server.stop();
}
const seconds = (Date.now() - started) / 1000;
const section = [
  "## Explorer sweep in Chromium",
  "",
  `Measured by \`npx tsx scripts/sweep-site.ts${Number.isFinite(per) ? ` --per ${per}` : ""} --seed ${seed}\` in Debian's headless Chromium over the build in \`${buildDir === join(root, "build") ? "build/" : buildDir}\` served by \`serve\` (no fallback: answers without a file are computed in the page), on this project's 2-core machine. Each rendering is shown in the same page by changing its address, then its title, pitch table, picture marks and download links are compared with the API's answer computed in Node; a 422 must show its message and nothing of another rendering.`,
  "",
  "| renderings | kind | count |",
  "|---|---|---:|",
  ...[...counts].sort().map(([k, n]) => `| | ${k} | ${n} |`),
  `| **${cases.length}** | all, in ${seconds.toFixed(0)} s (${((seconds * 1000) / cases.length).toFixed(0)} ms each) | ${wrong.length === 0 ? "0 wrong" : `**${wrong.length} wrong**`} |`,
  "",
  `Load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ")}.${
    wrong.length
      ? ` First differences: ${wrong
          .slice(0, 5)
          .map((w) => `\`${w.slice(0, 160)}\``)
          .join("; ")}.`
      : ""
  }`,
  "",
].join("\n");
if (process.argv.includes("--write")) writeSection("## Explorer sweep in Chromium", section);
console.log(section);
process.exitCode = wrong.length ? 1 : 0;
