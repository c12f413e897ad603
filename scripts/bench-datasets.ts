/**
 * What the datasets cost the build (part of `npm run bench`, or alone:
 * `tsx scripts/bench-datasets.ts [--write]`): two clean `npm run build` runs of data/ for the
 * `github-pages` profile, one after the other in one run, without the datasets
 * (`BUILD_DATASETS=0`, the peer) and with them, and which of the dataset files the host then
 * publishes (the planner ranks the database before the CSV tables, docs/static-layout.md). Prints
 * a Markdown section, or with `--write` puts it into docs/benchmarks.md.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DICTIONARY_FILE } from "../src/api/datasets/files.js";
import { loadAverage, writeSection, machineText } from "./benchDoc.js";
import { type BuildRun, phasesText, timedBuild } from "./benchBuild.js";
import type { Dictionary } from "./datasets.js";
import { mb } from "./manifest.js";

/** The datasets may cost the build this share of its time and peak memory before the cost is flagged. */
const TOLERANCE = 0.1;
const PROFILE = "github-pages";

/** Every file the dictionary names, with whether the tree holds it. */
function publishedFiles(tree: string): { url: string; bytes: number; published: boolean }[] {
  const apiDir = join(tree, "api");
  const dictionary = JSON.parse(readFileSync(join(apiDir, DICTIONARY_FILE), "utf8")) as Dictionary;
  const entries = [...dictionary.tables.flatMap((t) => Object.values(t.files)), dictionary.database];
  return entries.map(({ url, bytes }) => {
    const file = join(tree, url);
    return { url, bytes, published: existsSync(file) && statSync(file).size === bytes };
  });
}

const ratio = (a: number, b: number) => a / b;
/** A difference with its sign: +1.0 s, −1.0 s. */
const signed = (n: number, format: (n: number) => string) => `${n < 0 ? "−" : "+"}${format(Math.abs(n))}`;
const flagged = (text: string, over: boolean) => (over ? `**${text}**` : text);

if (import.meta.url === `file://${process.argv[1]}`) {
  const work = mkdtempSync(join(tmpdir(), "maqam-bench-datasets-"));
  try {
    const env = { HOST_PROFILE: PROFILE };
    const without = await timedBuild("without the datasets (BUILD_DATASETS=0), the peer", join(work, "without"), { env: { ...env, BUILD_DATASETS: "0" } });
    rmSync(join(work, "without"), { recursive: true, force: true });
    const withData = await timedBuild("with the datasets (the default)", join(work, "with"), { env });
    const files = publishedFiles(join(work, "with"));
    const time = ratio(withData.wallSeconds, without.wallSeconds);
    const memory = ratio(withData.maxRssBytes, without.maxRssBytes);
    const timeOver = time > 1 + TOLERANCE;
    const memoryOver = memory > 1 + TOLERANCE;
    const row = (r: BuildRun) => {
      const p = r.published;
      const phases = phasesText(r.phases);
      const left = p?.leftOut.files ? `${p.leftOut.files} files, ${mb(p.leftOut.bytes)}` : "none";
      return `| ${r.what} | ${r.wallSeconds.toFixed(1)} s | ${phases} | ${mb(r.maxRssBytes)} | ${p?.files ?? "–"} | ${p ? mb(p.tarBytes) : "–"} | ${left} | ${r.loadBefore} |`;
    };
    const kept = files.filter((f) => f.published);
    const out = files.filter((f) => !f.published);
    const list = (fs: typeof files) => (fs.length ? fs.map((f) => `\`${f.url.split("/").pop()}\` (${mb(f.bytes)})`).join(", ") : "none");
    const byClass = withData.published?.leftOut.byClass ?? {};
    const classes = Object.entries(byClass)
      .map(([c, t]) => `${c} ${t.files} files, ${mb(t.bytes)}`)
      .join("; ");
    const section = [
      "## Datasets in the build",
      "",
      `Measured by \`npx tsx scripts/bench-datasets.ts --write\` (part of \`npm run bench\`) on ${machineText()}; load average when it ended ${loadAverage()} (1 / 5 / 15 min). Two clean \`npm run build\` runs of data/ (child processes, \`HOST_PROFILE=${PROFILE}\`, \`BASE_URL=http://127.0.0.1:3000\`), one after the other: without the datasets (\`BUILD_DATASETS=0\`) as the peer, then with them. The datasets are written first, in the build's main thread, before the plan and the render workers.`,
      "",
      "| build | wall time | datasets, planning, rendering, finishing | peak memory | files published | tar | left out to fit | load before |",
      "|---|---:|---|---:|---:|---:|---|---|",
      row(without),
      row(withData),
      "",
      `| cost of the datasets | value | target |`,
      "|---|---:|---|",
      `| wall time | ${signed(withData.wallSeconds - without.wallSeconds, (n) => `${n.toFixed(1)} s`)}, ${flagged(`${time.toFixed(2)}×`, timeOver)} | ≤ ${1 + TOLERANCE}×, or the cost stated |`,
      `| peak memory | ${signed(withData.maxRssBytes - without.maxRssBytes, mb)}, ${flagged(`${memory.toFixed(2)}×`, memoryOver)} | ≤ ${1 + TOLERANCE}×, or the cost stated |`,
      "",
      `What ${PROFILE} publishes of the datasets (files named by the dictionary, present in the tree at their size): ${kept.length} of ${files.length} files, ${mb(kept.reduce((n, f) => n + f.bytes, 0))}: ${list(kept)}. Left out by the planner: ${list(out)}. Everything the fit left out, by value class: ${classes || "nothing"}.`,
      "",
    ];
    if (timeOver || memoryOver)
      section.push(
        `**Cost over ${TOLERANCE * 100} %, stated:** the datasets phase itself, ${withData.phases?.datasets.toFixed(1)} s, is the build's new work, not a slowdown of the rest: every table's rows computed in the main thread (the ajnās on every degree and the modulations of every rendering), written as CSV and Parquet, inserted into SQLite, indexed, analysed and vacuumed. Compare the phases too: the rendering of the same plan varies between runs on a shared machine by more than the tolerance. The datasets are written before the render workers start, on a catalog let go afterwards, so the peak memory is the render workers' heaps over the main thread's plan.`,
        "",
      );
    const text = section.join("\n");
    if (process.argv.includes("--write")) writeSection("## Datasets in the build", text);
    else console.log(text);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
