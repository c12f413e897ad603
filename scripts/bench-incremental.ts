/**
 * Incremental builds (part of `npm run bench`, or alone: `tsx scripts/bench-incremental.ts [--write]`):
 * in a directory of its own, a clean build of data/, the same build again over it (nothing
 * changed), then over it rounds of a build of a copy of the facts with one ratio of one tuning
 * system changed (ROUNDS, BENCH_INCREMENTAL_ROUNDS: each round's ratio another, so that each build
 * differs from the tree it replaces and from the spare it starts from; the verdict on the median
 * round), and a clean build of the last copy in another directory, whose tree must be the same file
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
/** The ratio each round puts in CHANGED.ratio's place, all between its neighbours: each round's facts differ from the last round's by that one ratio. */
const ROUND_RATIOS = [CHANGED.to, "14/13", "11/10", "15/14", "13/12"];

/** Rounds of a one-change build; the verdict is on the median round's time. */
const ROUNDS = Number(process.env.BENCH_INCREMENTAL_ROUNDS ?? 3);

/** A copy of the facts of `from` in `dir` with CHANGED.ratio replaced by `to` (CHANGED.to by default); returns `dir`. */
export function factsWithOneChange(dir: string, from = DATA_DIR, to = CHANGED.to): string {
  cpSync(from, dir, { recursive: true });
  const file = join(dir, FACT_FILES.tuningSystems);
  const records = JSON.parse(readFileSync(file, "utf8")) as { id: string; tuningSystemPitchClasses: string[] }[];
  const ratios = records.find((r) => r.id === CHANGED.tuningSystem)?.tuningSystemPitchClasses ?? [];
  const at = ratios.indexOf(CHANGED.ratio);
  if (at < 0) throw new Error(`${file}: ${CHANGED.tuningSystem} has no ratio ${CHANGED.ratio} to change`);
  ratios[at] = to;
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
  if (!(Number.isInteger(ROUNDS) && ROUNDS >= 1 && ROUNDS <= ROUND_RATIOS.length))
    throw new Error(
      `bench-incremental: BENCH_INCREMENTAL_ROUNDS must be a whole number from 1 to ${ROUND_RATIOS.length} (got '${process.env.BENCH_INCREMENTAL_ROUNDS}')`,
    );
  const work = mkdtempSync(join(tmpdir(), "maqam-bench-incremental-"));
  const tree = join(work, "build");
  const ratios = ROUND_RATIOS.slice(0, ROUNDS);
  const rounds = ratios.map((to, k) => ({
    to,
    from: k === 0 ? CHANGED.ratio : ratios[k - 1],
    facts: factsWithOneChange(join(work, `data-${k}`), DATA_DIR, to),
  }));
  const changed = rounds[rounds.length - 1].facts;
  const runs: BuildRun[] = [];
  try {
    // The first build makes the bundles and declarations, as a fresh clone's does; the others copy them.
    forgetKeptOutputs();
    runs.push(await timedBuild("clean build of data/ (the peer)", tree));
    runs.push(await timedBuild("the same build again over it, nothing changed", tree));
    for (const [k, round] of rounds.entries())
      runs.push(
        await timedBuild(`over it, ${CHANGED.tuningSystem} changed (${round.from} → ${round.to}), round ${k + 1} of ${rounds.length}`, tree, {
          dataDir: round.facts,
        }),
      );
    runs.push(await timedBuild("clean build of the last round's facts, in another directory", join(work, "clean"), { dataDir: changed }));
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
    const roundRuns = runs.slice(2, 2 + rounds.length);
    // The round whose time is the median stands for all in the verdict.
    const incremental = [...roundRuns].sort((a, b) => a.wallSeconds - b.wallSeconds)[Math.floor((roundRuns.length - 1) / 2)];
    const verdictRow = runs.indexOf(incremental);
    const missed = incremental.wallSeconds > TARGET_SECONDS;
    const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
    const section = [
      "## Incremental build",
      "",
      `Measured by \`npx tsx scripts/bench-incremental.ts --write\` (part of \`npm run bench\`) on ${machineText()}; load average when it ended ${loadAverage()} (1 / 5 / 15 min; it holds the bench's own builds). \`npm run build\` runs (child processes, profile \`github-pages\`, \`BASE_URL=http://127.0.0.1:3000\`) in one directory of their own under ${tmpText()}, one after the other: a clean build, the same again, then ${rounds.length} rounds of one change (each round's ratio another, so that each build differs from the tree it replaces and from the spare it starts from; the verdict on the median round's time), and a clean build of the last round's facts apart; the first starts without kept outputs (\`node_modules/.cache/build-outputs\` and \`build-threads\` removed), the others copy the bundles, the threads' bundles and the declarations it made.`,
      "",
      "| build | wall time | build time (after start-up) | of which datasets, planning, rendering, finishing | peak memory | load before | groups | target |",
      "|---|---:|---:|---|---:|---|---|---:|",
      ...runs.map((r, i) => {
        const wall = `${r.wallSeconds.toFixed(1)} s`;
        const phases = phasesText(r.phases);
        const isRound = i >= 2 && i < 2 + rounds.length;
        const shown = isRound && r.wallSeconds > TARGET_SECONDS ? `**${wall}**` : wall;
        const target = i === verdictRow ? `≤ ${TARGET_SECONDS} s (the median round)` : isRound ? `≤ ${TARGET_SECONDS} s` : "";
        return `| ${r.what} | ${shown} | ${r.seconds.toFixed(1)} s | ${phases} | ${mb(r.maxRssBytes)} | ${r.loadBefore} | ${r.said.replace(/^build: /, "")} | ${target} |`;
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
    const verdict = `One change, the median of ${rounds.length} rounds: ${incremental.wallSeconds.toFixed(1)} s (rounds ${roundRuns.map((r) => `${r.wallSeconds.toFixed(1)} s`).join(", ")}) against ${TARGET_SECONDS} s:`;
    if (!missed) section.push(`${verdict} met.`, "");
    if (missed)
      section.push(
        `**${verdict} missed.** Cause (the median round's figures): what an incremental build still does over the whole archive. The datasets: ${incremental.phases?.datasets.toFixed(1)} s${besideText(incremental.phases?.besidePlan)} (the changed tuning system's slice computed, the others read back, every table's CSV and the database written again from all of them, and the Parquet row groups holding the changed tuning system's rows encoded again — with a small table's one group —, the others kept). Planning: ${incremental.phases?.plan.toFixed(1)} s${incremental.phases?.planApart === false ? " on the main thread" : ""} (${stepsOf(incremental.phases?.planSteps)}: the listing is read back for the unchanged tuning systems, but every request is still mapped to its file and route and every group hashed, on the main thread while the database is built on one of its own — the two paths take about as long, so the rendering starts once both are done; the unchanged groups' files stay in the spare tree the build starts from, the tree before the last build's, whose state names the few its fit left out, and only what changed since that one is removed, linked or rendered). Rendering: ${incremental.phases?.render.toFixed(1)} s: the changed tuning system's own groups, the lists and indexes (hashed with all the facts, so rendered again after any change), the availability answers whose lists of tuning systems and starting notes the change alters, and the first part of the class where the host's limit falls (a 16,384th of it: for the variants, their first request, a 12-tone set of up to 2 MB that the fit then leaves out). Finishing: ${incremental.phases?.finish.toFixed(1)} s (${stepsOf(incremental.phases?.steps)}; the bundles' step, the manifest's figures of what was rendered, the bundles copied where kept). Outside the build's own time, ${(incremental.wallSeconds - incremental.seconds).toFixed(1)} s: start-up and the swap (renames: the tree replaced is kept as the next build's spare, its cache removed by a detached process after the build exits).${loadRemark(incremental)}`,
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
