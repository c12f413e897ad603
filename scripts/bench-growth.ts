/**
 * The build as the archive grows (part of `npm run bench`, or alone:
 * `tsx scripts/bench-growth.ts [--write] [--profiles github-pages,cloudflare] [--rounds n]`): a synthetic archive
 * twice today's size (scripts/grow-archive.ts: every tuning system copied under a new id, with the
 * sources it cites), and for each host profile a clean build of today's facts and of the doubled
 * ones, side by side in one run (with `--rounds n`, n doubled builds between n + 1 of today's). By default the profiles with limits to fit: the `full` profile
 * writes every rendering (over a million files today), so it is measured when asked for, in a
 * section of its own. Each must fit its host with the headroom the planner keeps, and
 * its time and peak memory grow no faster than the archive (at most the factor). Prints a Markdown
 * section, or with `--write` puts it into docs/benchmarks.md.
 */
import { mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DATA_DIR, readFacts } from "../src/data/load.js";
import { loadAverage, writeSection, machineText, tmpText } from "./benchDoc.js";
import { type BuildRun, cpuText, phasesText, settledText, timedBuild } from "./benchBuild.js";
import { HEADROOM, hasLimits, type HostLimits } from "./budget.js";
import { writeGrownArchive } from "./grow-archive.js";
import { HOST_PROFILES, PROFILES, type HostProfile } from "./profiles.js";
import { mb } from "./manifest.js";
import { reclaimText } from "./reclaim.js";

const FACTOR = 2;
/** The profiles a host bounds: what the planner has to fit as the archive grows. */
const BOUNDED = HOST_PROFILES.filter((p) => hasLimits(PROFILES[p].limits));

/** Each limit of the profile with the share of it the build used; over 1 − HEADROOM fails. */
function usage(run: BuildRun): { text: string; fits: boolean } {
  const p = run.published;
  if (!p) return { text: "no manifest", fits: false };
  const limits: HostLimits = p.limits;
  const shares: [string, number, number | undefined][] = [
    ["tar", p.tarBytes, limits.tarBytes],
    ["files", p.files, limits.files],
  ];
  const used = shares.filter(([, , limit]) => limit !== undefined).map(([name, value, limit]) => [name, value / (limit as number)] as const);
  const fits = used.every(([, share]) => share <= 1 - HEADROOM);
  const text = used.length ? used.map(([name, share]) => `${name} ${(share * 100).toFixed(1)} %`).join(", ") : "no limit";
  return { text: fits ? text : `**${text}**`, fits };
}

const row = (profile: HostProfile, archive: string, run: BuildRun) => {
  const p = run.published;
  const left = p?.leftOut.files ? `${p.leftOut.files} files, ${mb(p.leftOut.bytes)}` : "none";
  return `| ${profile} | ${archive} | ${run.wallSeconds.toFixed(1)} s | ${run.seconds.toFixed(1)} s | ${phasesText(run.phases) || "–"} | ${cpuText(run)} | ${mb(run.maxRssBytes)} | ${p?.files ?? "–"} | ${p ? mb(p.tarBytes) : "–"} | ${usage(run).text} | ${left} | ${reclaimText(run.reclaim)} | ${run.loadBefore} |`;
};

/**
 * Growth of a build between today's archive and the doubled one, with today's built once before
 * and once after the doubled (an A-B-A bracket): set against the mean of the two, a drift of the
 * machine over the runs (its disk filling, another tenant) weighs on both sides alike, and the
 * two todays' spread says how far apart runs of one build fall.
 */
export function bracketGrowth(before: BuildRun, doubled: BuildRun, after: BuildRun): { time: number; memory: number; cpu: number | undefined; spread: number } {
  const mean = (f: (r: BuildRun) => number) => (f(before) + f(after)) / 2;
  const seconds = mean((r) => r.seconds);
  const cpuOf = (r: BuildRun) => (r.cpu ? r.cpu.userSeconds + r.cpu.systemSeconds : Number.NaN);
  const cpu = cpuOf(doubled) / mean(cpuOf);
  return {
    time: doubled.seconds / seconds,
    memory: doubled.maxRssBytes / mean((r) => r.maxRssBytes),
    cpu: Number.isNaN(cpu) ? undefined : cpu,
    spread: Math.abs(before.seconds - after.seconds) / seconds,
  };
}

/** The builds of `rounds` rounds in order, today's and the doubled alternating from today's to today's, each named with its build's number past the first. */
export function roundsOrder(rounds: number): { doubled: boolean; label: string }[] {
  return Array.from({ length: 2 * rounds + 1 }, (_, i) => {
    const doubled = i % 2 === 1;
    const nth = Math.floor(i / 2) + 1;
    return { doubled, label: `${doubled ? "doubled" : "today"}${nth > 1 ? `, build ${nth}` : ""}` };
  });
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Growth over rounds of brackets, today and doubled alternating (today, doubled, today, doubled,
 * today: each today closes one bracket and opens the next): the median of the brackets' ratios, as
 * one bracket on this machine ranges over a tenth either way (docs/benchmarks.md), and the spread of
 * all of today's builds (largest less smallest, over their mean).
 */
export function roundsGrowth(runs: readonly BuildRun[]): {
  time: number;
  memory: number;
  cpu: number | undefined;
  spread: number;
  brackets: ReturnType<typeof bracketGrowth>[];
} {
  if (runs.length < 3 || runs.length % 2 === 0) throw new Error(`roundsGrowth: ${runs.length} builds, not today and doubled alternating from today to today`);
  const brackets = Array.from({ length: (runs.length - 1) / 2 }, (_, i) => bracketGrowth(runs[2 * i], runs[2 * i + 1], runs[2 * i + 2]));
  const todays = runs.filter((_, i) => i % 2 === 0).map((r) => r.seconds);
  const cpus = brackets.flatMap((b) => (b.cpu === undefined ? [] : [b.cpu]));
  return {
    time: median(brackets.map((b) => b.time)),
    memory: median(brackets.map((b) => b.memory)),
    cpu: cpus.length === brackets.length ? median(cpus) : undefined,
    spread: (Math.max(...todays) - Math.min(...todays)) / (todays.reduce((a, b) => a + b, 0) / todays.length),
    brackets,
  };
}

/** Bytes an unprivileged process may still write on the file system holding `dir`. */
const freeBytes = (dir: string): number => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/**
 * Why the next build would not fit on the disk, or undefined. Every tree is kept until all are
 * measured, so each build needs what the last of its kind took (a doubled one before any was
 * built, twice today's), and a twentieth more: a build that runs out of room fails half an hour in,
 * and its error cannot even be written to a log on the same disk.
 */
export function roomShortfall(free: number, taken: { today?: number; doubled?: number }, doubled: boolean): string | undefined {
  const last = doubled ? (taken.doubled ?? (taken.today === undefined ? undefined : FACTOR * taken.today)) : taken.today;
  if (last === undefined || free >= last * 1.05) return undefined;
  return `needs about ${gb(last * 1.05)} (the last ${doubled ? "doubled" : "today's"} tree${taken.doubled === undefined && doubled ? ", estimated as twice today's," : ""} took ${gb(last)}), and ${gb(free)} are free`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf("--profiles");
  const profiles = (at > 0 ? process.argv[at + 1].split(",") : BOUNDED) as HostProfile[];
  const byDefault = profiles.join() === BOUNDED.join();
  const r = process.argv.indexOf("--rounds");
  const rounds = r > 0 ? Number(process.argv[r + 1]) : 1;
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`bench-growth: --rounds takes a whole number of doubled builds, 1 or more (got '${process.argv[r + 1]}')`);
  const title = byDefault ? "## Growth" : `## Growth: ${profiles.join(", ")}`;
  for (const p of profiles) if (!HOST_PROFILES.includes(p)) throw new Error(`bench-growth: unknown profile '${p}' (use ${HOST_PROFILES.join(", ")})`);
  const work = mkdtempSync(join(tmpdir(), "maqam-bench-growth-"));
  try {
    const today = readFacts(DATA_DIR).tuningSystems.length;
    const grownDir = join(work, "data");
    const grown = writeGrownArchive(DATA_DIR, grownDir, FACTOR).tuningSystems.length;
    const lines: string[] = [];
    const verdicts: string[] = [];
    let failed = false;
    const runs: BuildRun[] = [];
    for (const profile of profiles) {
      const env = { HOST_PROFILE: profile };
      // Today's facts before and after each doubled build (roundsGrowth), every tree kept until the end (settledText).
      const built: BuildRun[] = [];
      const taken: { today?: number; doubled?: number } = {};
      for (const [i, { doubled, label }] of roundsOrder(rounds).entries()) {
        const free = freeBytes(work);
        const shortfall = roomShortfall(free, taken, doubled);
        if (shortfall) throw new Error(`bench-growth: ${profile}, ${label} ${shortfall} under ${tmpdir()}: free some room or ask for fewer --rounds`);
        const run = await timedBuild(`${profile}, ${label}`, join(work, `${profile}-${i}`), { env, settle: true, ...(doubled ? { dataDir: grownDir } : {}) });
        taken[doubled ? "doubled" : "today"] = free - freeBytes(work);
        built.push(run);
        lines.push(row(profile, label === "today" ? `today (${today} tuning systems)` : label === "doubled" ? `doubled (${grown})` : label, run));
      }
      runs.push(...built);
      const { time, memory, cpu, spread, brackets } = roundsGrowth(built);
      const fits = built.every((r) => usage(r).fits);
      const linear = time <= FACTOR && memory <= FACTOR;
      failed ||= !fits || !linear;
      const ratio = (r: number) => (r <= FACTOR ? `${r.toFixed(2)}×` : `**${r.toFixed(2)}×**`);
      const over =
        rounds === 1
          ? `the mean of its two builds, ${(spread * 100).toFixed(1)} % apart`
          : `the median of ${rounds} brackets, each doubled build against the mean of today's before and after it: time ${brackets.map((b) => `${b.time.toFixed(2)}×`).join(", ")}, memory ${brackets.map((b) => `${b.memory.toFixed(2)}×`).join(", ")}${cpu === undefined ? "" : `, CPU ${brackets.map((b) => `${b.cpu?.toFixed(2)}×`).join(", ")}`}; today's ${built.length - rounds} builds ${(spread * 100).toFixed(1)} % apart`;
      // The CPU time (user and system, every thread) beside the verdict: the same work measured apart from the waits.
      const cpuGrowth = cpu === undefined ? "" : `, CPU time ${cpu.toFixed(2)}×`;
      verdicts.push(
        `- ${profile}: doubled ÷ today (${over}), build time ${ratio(time)}, peak memory ${ratio(memory)}${cpuGrowth}; ${!BOUNDED.includes(profile) ? "no limit to fit" : fits ? `all ${built.length} within the limits with ≥ ${HEADROOM * 100} % headroom` : "**a tree over its limits less the headroom**"}.`,
      );
    }
    const section = [
      title,
      "",
      `Measured by ${byDefault && rounds === 1 ? "`npx tsx scripts/bench-growth.ts --write` (part of `npm run bench`)" : `\`npx tsx scripts/bench-growth.ts${byDefault ? "" : ` --profiles ${profiles.join(",")}`}${rounds > 1 ? ` --rounds ${rounds}` : ""} --write\``} on ${machineText()}; load average when it ended ${loadAverage()} (1 / 5 / 15 min). For each profile, a clean \`npm run build\` (child process, \`HOST_PROFILE\`, \`BASE_URL=http://127.0.0.1:3000\`) of data/, one of a synthetic archive ${FACTOR} times its size (scripts/grow-archive.ts: every tuning system copied under a new id with the sources it cites; \`DATA_DIR\`) ${rounds === 1 ? "and one of data/ again, one after the other (the doubled set against the mean of the two todays" : `in ${rounds} rounds, today's and the doubled alternating from today's to today's (each doubled build against the mean of today's before and after it, and the median of the ${rounds}`}, so that a drift of the machine over the runs weighs on both sides), each into a directory of its own under ${tmpText()}, ${settledText(runs)}: ext4 without a journal (this machine's disk) checks, for each inode it gives a new file, whether it was freed in the last minutes, and a \`full\` build started right after the removal of another's tree spent a tenth of its CPU samples in that check (\`recently_deleted\`, perf). Phases: the seconds of each as the build reports them (its stats file). CPU: user and system time of the build's process, every thread; its ratio is given beside the verdict, as it leaves out the waits (the disk, the workers at a stage's end) that the wall time counts. Kernel reclaim: the pages the kernel scanned to free memory while the build ran, once the tree's page cache, inodes and folders filled it (kswapd on a core of its own; direct reclaim by the build's threads, in its system time; scripts/reclaim.ts). Usage is the tree as the host counts it (the tar for GitHub Pages, files for Cloudflare) against the profile's limit; the planner keeps ${HEADROOM * 100} % of headroom, so a share over ${(1 - HEADROOM) * 100} % fails.`,
      "",
      "| profile | archive | wall time | build time (after start-up) | datasets, plan, rendering, finishing | CPU user / system | peak memory | files published | tar | share of the limits | left out (computed on request) | kernel reclaim | load before |",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|",
      ...lines,
      "",
      `Targets: every tree within its limits with ≥ ${HEADROOM * 100} % headroom; build time and peak memory of the doubled archive at most ${FACTOR}× today's (no faster than linear).`,
      "",
      ...verdicts,
      "",
    ].join("\n");
    if (process.argv.includes("--write")) writeSection(title, section);
    else console.log(section);
    if (failed) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
