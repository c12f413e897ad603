/**
 * Incremental builds (part of `npm run bench`, or alone: `tsx scripts/bench-incremental.ts [--write]`):
 * in a directory of its own, a clean build of data/, the same build again over it (nothing
 * changed), then over it a build of a copy of the facts with one ratio of one tuning system
 * changed, and a clean build of that copy in another directory, whose tree must be the same file
 * for file, and the same as the merge of two slices of it (BUILD_SHARD). Each build runs as `npm run build` does (a child process, the default profile, a base
 * URL of its own so that the generated docs are left alone). Prints a Markdown section, or with
 * `--write` puts it into docs/benchmarks.md.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DATA_DIR } from "../src/data/load.js";
import { FACT_FILES } from "../src/data/facts.js";
import { loadAverage, machineText, tmpText, writeSection } from "./benchDoc.js";
import { type BuildRun, otherWork, phasesText, timedBuild } from "./benchBuild.js";
import { compareTrees } from "./compare-builds.js";
import { besideText, stepsText } from "./buildReport.js";
import { forgetKeptOutputs } from "./keptOutputs.js";

const TARGET_SECONDS = 15;

/** The tuning system changed, and how: one ratio between its neighbours (273/256 < 12/11 < 9/8) instead of 13/12. */
export const CHANGED = { tuningSystem: "ibnsina_1037", ratio: "13/12", to: "12/11" };

/** A copy of the facts of `from` in `dir` with CHANGED applied; returns `dir`. */
export function factsWithOneChange(dir: string, from = DATA_DIR): string {
  cpSync(from, dir, { recursive: true });
  const file = join(dir, FACT_FILES.tuningSystems);
  const records = JSON.parse(readFileSync(file, "utf8")) as { id: string; tuningSystemPitchClasses: string[] }[];
  const ratios = records.find((r) => r.id === CHANGED.tuningSystem)?.tuningSystemPitchClasses ?? [];
  const at = ratios.indexOf(CHANGED.ratio);
  if (at < 0) throw new Error(`${file}: ${CHANGED.tuningSystem} has no ratio ${CHANGED.ratio} to change`);
  ratios[at] = CHANGED.to;
  writeFileSync(file, JSON.stringify(records, null, 2));
  return dir;
}

/** A phase of a build by step, as the build reports it. */
const stepsOf = (steps: Parameters<typeof stepsText>[0] | undefined) => (steps ? stepsText(steps) : "");
const loadRemark = (run: BuildRun) => {
  const busy = otherWork([run]);
  return busy === undefined ? "" : ` Other work kept ${busy} % of the cores busy in the 2 s before it, so the figures are pessimistic.`;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const work = mkdtempSync(join(tmpdir(), "maqam-bench-incremental-"));
  const tree = join(work, "build");
  const changed = factsWithOneChange(join(work, "data"));
  const runs: BuildRun[] = [];
  try {
    // The first build makes the bundles and declarations, as a fresh clone's does; the others copy them.
    forgetKeptOutputs();
    runs.push(await timedBuild("clean build of data/ (the peer)", tree));
    runs.push(await timedBuild("the same build again over it, nothing changed", tree));
    runs.push(await timedBuild(`over it, ${CHANGED.tuningSystem} changed (${CHANGED.ratio} → ${CHANGED.to})`, tree, { dataDir: changed }));
    runs.push(await timedBuild("clean build of the changed facts, in another directory", join(work, "clean"), { dataDir: changed }));
    const diff = compareTrees(join(work, "clean"), tree);
    const same = diff.onlyBefore.length + diff.onlyAfter.length + diff.differing.length === 0;
    // The same changed facts built as two slices and merged, against the clean build.
    const slices = [0, 1].map((i) => join(work, `slice-${i}`));
    const sharded: BuildRun[] = [];
    for (const [i, slice] of slices.entries())
      sharded.push(await timedBuild(`slice ${i}/2 of the changed facts`, slice, { dataDir: changed, env: { BUILD_SHARD: `${i}/2` } }));
    sharded.push(await timedBuild("merge of the two slices", join(work, "merged"), { dataDir: changed, args: ["--merge", ...slices] }));
    const shardDiff = compareTrees(join(work, "clean"), join(work, "merged"));
    const shardSame = shardDiff.onlyBefore.length + shardDiff.onlyAfter.length + shardDiff.differing.length === 0;
    const incremental = runs[2];
    const missed = incremental.wallSeconds > TARGET_SECONDS;
    const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
    const section = [
      "## Incremental build",
      "",
      `Measured by \`npx tsx scripts/bench-incremental.ts --write\` (part of \`npm run bench\`) on ${machineText()}; load average when it ended ${loadAverage()} (1 / 5 / 15 min; it holds the bench's own builds). Four \`npm run build\` runs (child processes, profile \`github-pages\`, \`BASE_URL=http://127.0.0.1:3000\`) in one directory of their own under ${tmpText()}, one after the other; the first starts without kept outputs (\`node_modules/.cache/build-outputs\` and \`build-threads\` removed), the others copy the bundles, the threads' bundles and the declarations it made.`,
      "",
      "| build | wall time | build time (after start-up) | of which datasets, planning, rendering, finishing | peak memory | load before | groups | target |",
      "|---|---:|---:|---|---:|---|---|---:|",
      ...runs.map((r, i) => {
        const wall = `${r.wallSeconds.toFixed(1)} s`;
        const phases = phasesText(r.phases);
        return `| ${r.what} | ${i === 2 && missed ? `**${wall}**` : wall} | ${r.seconds.toFixed(1)} s | ${phases} | ${mb(r.maxRssBytes)} | ${r.loadBefore} | ${r.said.replace(/^build: /, "")} | ${i === 2 ? `≤ ${TARGET_SECONDS} s` : ""} |`;
      }),
      "",
      same
        ? `The tree of the incremental build and the clean build of the same facts: identical, ${diff.compared} files with the same SHA-256 (scripts/compare-builds.ts).`
        : `**The incremental tree differs from the clean build's: ${diff.onlyBefore.length} files only in the clean build, ${diff.onlyAfter.length} only in the incremental one, ${diff.differing.length} different.**`,
      "",
      `Sharded build (\`BUILD_SHARD=i/2 npm run build\` twice, then \`npm run build:merge\`) of the same changed facts: slices ${sharded
        .slice(0, 2)
        .map((r) => `${r.wallSeconds.toFixed(1)} s`)
        .join(" and ")}, merge ${sharded[2].wallSeconds.toFixed(1)} s (on one machine, one after the other); ${
        shardSame
          ? `the merged tree and the clean build's are identical, ${shardDiff.compared} files with the same SHA-256. test/buildSharded.test.ts checks the same on every run of the suite, on a small plan.`
          : `**the merged tree differs from the clean build's: ${shardDiff.onlyBefore.length} files only in the clean build, ${shardDiff.onlyAfter.length} only in the merged one, ${shardDiff.differing.length} different.**`
      }`,
      "",
    ];
    if (missed)
      section.push(
        `**Missed: ${incremental.wallSeconds.toFixed(1)} s against ${TARGET_SECONDS} s.** Cause: what an incremental build still does over the whole archive. The datasets: ${incremental.phases?.datasets.toFixed(1)} s${besideText(incremental.phases?.besidePlan)} (the changed tuning system's slice computed, the others read back, every table's CSV and the database written again from all of them, and the Parquet row groups holding rows that changed or moved encoded again, the others kept). Planning: ${incremental.phases?.plan.toFixed(1)} s${incremental.phases?.planApart === false ? " on the main thread" : ""} (${stepsOf(incremental.phases?.planSteps)}: the listing is read back for the unchanged tuning systems, but every request is still mapped to its file and route and every group hashed, on the main thread while the database is built on one of its own — the two paths take about as long, so the rendering starts once both are done; the unchanged groups' files stay in the spare tree the build starts from, the tree before the last build's, whose state names the few its fit left out, and only what changed since that one is removed, linked or rendered). Rendering: ${incremental.phases?.render.toFixed(1)} s: the changed tuning system's own groups, the lists and indexes (hashed with all the facts, so rendered again after any change), the availability answers whose lists of tuning systems and starting notes the change alters, and the first part of the class where the host's limit falls (a 16,384th of it: for the variants, their first request, a 12-tone set of up to 2 MB that the fit then leaves out). Finishing: ${incremental.phases?.finish.toFixed(1)} s (${stepsOf(incremental.phases?.steps)}; the bundles' step, the manifest's figures of what was rendered, the bundles copied where kept). Outside the build's own time, ${(incremental.wallSeconds - incremental.seconds).toFixed(1)} s: start-up and the swap (renames: the tree replaced is kept as the next build's spare, its cache removed by a detached process after the build exits).${loadRemark(incremental)}`,
        "",
      );
    const text = section.join("\n");
    if (process.argv.includes("--write")) writeSection("## Incremental build", text);
    else console.log(text);
    if (!same || !shardSame) process.exitCode = 1;
  } finally {
    // The trees the builds replaced are removed by detached processes: the folder goes once they are done.
    while (readdirSync(work).some((name) => name.endsWith(".trash"))) await new Promise((r) => setTimeout(r, 500));
    rmSync(work, { recursive: true, force: true });
  }
}
