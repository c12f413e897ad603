/**
 * The github-pages build against the code of 2026-11-24 (commit 4df318e), side by side in one run
 * (part of `npm run bench`, or alone: `tsx scripts/bench-peer.ts [--write]`). The requirement:
 * at most half of that build's time and at most 1 GB peak memory on this machine. Unpacks 4df318e
 * into a temporary directory with its own `npm ci`, then runs one after the other, as child
 * processes with the same environment: its clean build and the current code's default build in
 * rounds (ROUNDS, each pair's order the last one's reversed; the verdict on the median round's
 * ratio: a single pair is at the mercy of the machine's speed, which drifts by a fifth within an hour), then the
 * current code without the datasets (`BUILD_DATASETS=0`: the datasets did not exist at 4df318e).
 * Prints a Markdown section, or with `--write` puts it into docs/benchmarks.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadAverage, machineText, tmpText, writeSection } from "./benchDoc.js";
import { type BuildOptions, type BuildRun, otherWork, phasesText, scarceMemory, settledText, timedBuild } from "./benchBuild.js";
import type { ValueClass } from "./budget.js";
import { mb } from "./manifest.js";
import { stepsText } from "./buildReport.js";
import { forgetKeptOutputs } from "./keptOutputs.js";

const PEER = "4df318e1ed8ec026ea75e172c6f909385e87e1e6";
const PEER_SHORT = PEER.slice(0, 7);
const PEER_DAY = "2026-11-24";
const HEADING = `## Build against the code of ${PEER_DAY}`;
/** The build may take at most this share of the peer's wall time. */
export const TIME_SHARE = 0.5;
/** Peak memory (maxRSS of the build process, all threads) allowed. */
export const MEMORY_LIMIT_BYTES = 1e9;
const PROFILE = "github-pages";
/** Rounds of a build of each, in turn; the verdict is on the median round's ratio. */
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);

/** Whether the round at `index` (from 0) builds the peer first: each pair's order is the last one's reversed. */
const peerFirst = (index: number) => index % 2 === 0;

/** One round: the peer's build and the current code's, one after the other. */
interface Pair {
  peer: BuildRun;
  now: BuildRun;
}

export interface Verdict {
  text: string;
  missed: boolean;
}

const bold = (text: string, missed: boolean) => (missed ? `**${text}**` : text);

/** A wall time against the peer's: the time and its ratio, in bold when over TIME_SHARE. */
export function timeVerdict(seconds: number, peerSeconds: number): Verdict {
  const ratio = seconds / peerSeconds;
  const missed = ratio > TIME_SHARE;
  return { text: bold(`${seconds.toFixed(1)} s, ${ratio.toFixed(2)}×`, missed), missed };
}

/** A peak memory against MEMORY_LIMIT_BYTES, in bold when over it. */
export function memoryVerdict(bytes: number): Verdict {
  const missed = bytes > MEMORY_LIMIT_BYTES;
  return { text: bold(mb(bytes), missed), missed };
}

/** The fit's classes that are answers (not the site, pictures or the datasets' tables). */
const ANSWER_CLASSES: ValueClass[] = ["index", "base", "export", "variant", "restated"];

/** Answers the build rendered: those its manifest lists and those the fit then left out of the tree. */
const renderedAnswers = (r: BuildRun): number => (r.answers ?? 0) + ANSWER_CLASSES.reduce((n, c) => n + (r.published?.leftOut.byClass[c]?.files ?? 0), 0);

const count = (n: number) => n.toLocaleString("en-US");
const seconds = (n: number) => `${n.toFixed(1)} s`;
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/** Unpacks the peer commit into `dir` and installs its locked dependencies. */
function checkOutPeer(root: string, dir: string): void {
  const tar = `${dir}.tar`;
  try {
    execFileSync("git", ["archive", "--format=tar", `--output=${tar}`, PEER], { cwd: root, stdio: ["ignore", 2, 2] });
  } catch (e) {
    throw new Error(`bench-peer: commit ${PEER_SHORT} is not in this repository (a clone with its whole history is needed): ${(e as Error).message}`);
  }
  mkdirSync(dir);
  execFileSync("tar", ["-xf", tar, "-C", dir]);
  rmSync(tar);
  try {
    // Its build needs no install script; those of the runtimes it also lists (deno, workerd) fetch binaries it does not run.
    execFileSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir, stdio: ["ignore", 2, 2] });
  } catch (e) {
    throw new Error(
      `bench-peer: npm ci failed in the checkout of ${PEER_SHORT} (its dependencies come from the package registry, which must be reachable): ${(e as Error).message}`,
    );
  }
}

/** The current commit, and whether data/ holds the same facts as at the peer. */
function current(root: string): { commit: string; sameFacts: boolean } {
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  const sameFacts = spawnSync("git", ["diff", "--quiet", PEER, "--", "data"], { cwd: root }).status === 0;
  return { commit, sameFacts };
}

const ratioOf = (p: Pair) => p.now.wallSeconds / p.peer.wallSeconds;

function section(pairs: Pair[], bare: BuildRun, { commit, sameFacts }: ReturnType<typeof current>): string {
  // The round whose ratio is the median: its two builds stand for both in the verdict.
  const median = [...pairs].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor((pairs.length - 1) / 2)];
  const { peer, now } = median;
  const peers = pairs.map((p) => p.peer);
  const peerPeak = Math.max(...peers.map((r) => r.maxRssBytes));
  const nowPeak = Math.max(...pairs.map((p) => p.now.maxRssBytes));
  const row = (r: BuildRun, ratio: string) => {
    const p = r.published;
    const answers = p ? `${count(renderedAnswers(r))} (${count(r.answers ?? 0)} kept)` : count(r.answers ?? 0);
    const memory = peers.includes(r) ? mb(r.maxRssBytes) : memoryVerdict(r.maxRssBytes).text;
    return `| ${r.what} | ${seconds(r.wallSeconds)} | ${ratio} | ${seconds(r.seconds)} | ${phasesText(r.phases) || "–"} | ${memory} | ${answers} | ${p ? count(p.files) : "–"} | ${p ? mb(p.tarBytes) : "–"} | ${r.loadBefore} | ${gb(r.availableBefore)} |`;
  };
  const time = timeVerdict(now.wallSeconds, peer.wallSeconds);
  const timeBare = timeVerdict(bare.wallSeconds, peer.wallSeconds);
  const memory = memoryVerdict(nowPeak);
  const memoryBare = memoryVerdict(bare.maxRssBytes);
  // Other work shares the machine when its cores were busy while the bench waited before a build (the load average still holds the build before).
  const busy = otherWork([...pairs.flatMap((p) => [p.peer, p.now]), bare]);
  const loaded =
    busy === undefined
      ? ""
      : ` **Other work shared the machine** (up to ${busy} % of the cores busy in the 2 s before a build): every time below is pessimistic, and the ratios less certain than on a quiet machine.`;
  const short = scarceMemory([...pairs.flatMap((p) => [p.peer, p.now]), bare]);
  const cramped =
    short === undefined
      ? ""
      : ` **Memory was short** (${gb(short)} available when a build started): the kernel reclaimed pages under the builds, and their times are not the code's.`;
  const lines = [
    HEADING,
    "",
    `Measured by \`npx tsx scripts/bench-peer.ts --write\` (part of \`npm run bench\`) on ${machineText()}; load average when it ended ${loadAverage()} (1 / 5 / 15 min). The requirement of ${PEER_DAY}: the ${PROFILE} build in at most half the time of that day's code and with at most 1,000 MB peak memory, on this machine. That day's code is commit ${PEER_SHORT} (its own measurement then: 134.4 s, 1,672.8 MB), unpacked into a temporary directory with its own \`npm ci\`; the current code is commit ${commit}. Clean builds of data/ (${sameFacts ? "the facts are the same at both commits" : `**the facts differ from ${PEER_SHORT}'s**, each commit building its own`}), one after the other, as child processes with the same environment (\`HOST_PROFILE=${PROFILE}\`, \`BASE_URL=http://127.0.0.1:3000\`, \`BUILD_DIR\` in a temporary directory under ${tmpText()}, ${settledText([...pairs.flatMap((p) => [p.peer, p.now]), bare])}): ${PEER_SHORT}'s \`scripts/build.ts\` and the current default build in turn, then the current build without the datasets (\`BUILD_DATASETS=0\`), which did not exist at ${PEER_SHORT}: the same kind of work as then, at today's cost. The current default build starts without kept outputs (\`node_modules/.cache/build-outputs\` and \`build-threads\` removed first, as in a fresh clone), so it makes its bundles, its threads' bundles and the client's declarations; the later ones copy them. ${PEER_SHORT} reports no phases and writes no published figures in its manifest (–). Answers rendered: those the manifest lists, and for the current code those the fit then left out of the tree (computed on request instead). Memory available: what the kernel could give without swapping when each build started.${loaded}${cramped}`,
    "",
    `| build | wall time | ÷ ${PEER_SHORT} | build's own time | datasets, planning, rendering, finishing | peak memory | answers rendered (kept) | files published | tar | load before | memory available |`,
    "|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|",
    ...pairs.flatMap((p, i) => {
      const rows = [row(p.peer, "1.00×"), row(p.now, bold(`${ratioOf(p).toFixed(2)}×`, timeVerdict(p.now.wallSeconds, p.peer.wallSeconds).missed))];
      return peerFirst(i) ? rows : rows.reverse();
    }),
    row(bare, bold(`${(bare.wallSeconds / peer.wallSeconds).toFixed(2)}×`, timeBare.missed)),
    "",
    `Rounds in turn (${ROUNDS}, the order of each pair the last one's reversed, so that a drift of the machine's speed weighs on both sides alike): the current build's time over ${PEER_SHORT}'s beside it ${pairs.map((p) => `${ratioOf(p).toFixed(2)}×`).join(", ")}; the verdict below is on the median round's (${pairs.indexOf(median) + 1}), whose two builds stand in the table of targets. \`BUILD_DATASETS=0\` is against that round's ${PEER_SHORT} build. Peak memory: the highest of the current builds'.`,
    "",
    `| target | ${PEER_SHORT} | current (default) | current, \`BUILD_DATASETS=0\` |`,
    "|---|---:|---:|---:|",
    `| wall time ≤ ${TIME_SHARE}× ${PEER_SHORT}'s (≤ ${seconds(peer.wallSeconds * TIME_SHARE)}) | ${seconds(peer.wallSeconds)} | ${time.text} | ${timeBare.text} |`,
    `| peak memory ≤ ${count(MEMORY_LIMIT_BYTES / 1e6)} MB | ${mb(peerPeak)} | ${memory.text} | ${memoryBare.text} |`,
    "",
  ];
  const ph = now.phases;
  if (time.missed && ph) {
    const more = renderedAnswers(now) / renderedAnswers(peer) - 1;
    const left = renderedAnswers(now) - (now.answers ?? 0);
    const steps = stepsText(ph.steps);
    const unrendered = now.published?.notRendered;
    lines.push(
      `**Time missed:** the current build does more than ${PEER_SHORT}'s. It writes the datasets first (${seconds(ph.datasets)}; without them the build took ${timeBare.text}), and its planning (${seconds(ph.plan)}) also hashes every group so that the next build can take the unchanged ones over. It renders ${count(renderedAnswers(now))} answers where ${PEER_SHORT} rendered ${count(renderedAnswers(peer))} (${more >= 0 ? "+" : "−"}${Math.abs(more * 100).toFixed(0)} %: the downloads of every rendering), in value order, and stops where the host's limits are reached: ${count(unrendered?.requests ?? 0)} answers and ${count(unrendered?.pictures ?? 0)} pictures the fit would leave out are never rendered, ${count(left)} rendered ones are left out by the fit; its rendering alone took ${seconds(ph.render)}, ${(ph.render / peer.wallSeconds).toFixed(2)}× ${PEER_SHORT}'s whole build. Its finishing (${seconds(ph.finish)}: ${steps}) lists and fits the tree to the host beside the bundles and the site ${PEER_SHORT} also made.`,
      "",
    );
  }
  if (memory.missed)
    lines.push(
      `**Peak memory missed:** ${mb(nowPeak)}, over ${count(MEMORY_LIMIT_BYTES / 1e6)} MB (without the datasets ${mb(bare.maxRssBytes)}). Where it comes from, phase by phase: section "Peak memory by phase" below. ${PEER_SHORT} peaked at ${mb(peerPeak)} itself.`,
      "",
    );
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
    throw new Error(`bench-peer: BENCH_PEER_ROUNDS must be a whole number of rounds, 1 or more (got '${process.env.BENCH_PEER_ROUNDS}')`);
  const root = resolve(import.meta.dirname, "..");
  const work = mkdtempSync(join(tmpdir(), "maqam-bench-peer-"));
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => {
      removeWork();
      process.exit(130);
    });
  try {
    const code = current(root);
    const peerDir = join(work, "peer");
    checkOutPeer(root, peerDir);
    const env = { HOST_PROFILE: PROFILE };
    const peerBuild: BuildOptions = { env, root: peerDir };
    const nowBuild: BuildOptions = { env };
    // The current code's first build makes its bundles and declarations, as a fresh clone's does (the others copy them).
    forgetKeptOutputs();
    let built = 0;
    const timed = async (what: string, options: BuildOptions) => {
      console.error(`bench-peer: building ${what}…`);
      // Each build in a folder of its own (the current build keeps its cache beside its tree), all removed at the end (settledText).
      return timedBuild(what, join(work, `build-${built++}`, "build"), { ...options, settle: true });
    };
    // Rounds in turn, each pair's order the last one's reversed (4df318e, current | current, 4df318e | …), so that a
    // machine whose speed drifts through the run weighs on both sides alike.
    const pairs: Pair[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const pair: Partial<Pair> = {};
      for (const side of peerFirst(i) ? (["peer", "now"] as const) : (["now", "peer"] as const))
        pair[side] = await timed(
          side === "peer" ? `${PEER_SHORT} (${PEER_DAY}), round ${i + 1}` : `current, the default, round ${i + 1}`,
          side === "peer" ? peerBuild : nowBuild,
        );
      pairs.push(pair as Pair);
    }
    const bare = await timed("current, `BUILD_DATASETS=0`", { env: { ...env, BUILD_DATASETS: "0" } });
    const text = section(pairs, bare, code);
    if (process.argv.includes("--write")) writeSection(HEADING, text);
    else console.log(text);
  } finally {
    removeWork();
  }
}
