/**
 * One `npm run build` as a bench runs it, of this checkout or of another commit's: a child process
 * with the environment a maintainer would give it, timed from outside, with the figures the build
 * writes for benches (BUILD_STATS) and what its manifest says the host publishes.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { freemem, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { busyShare, loadAverage } from "./benchDoc.js";
import type { Built } from "./buildReport.js";
import type { Manifest } from "./manifest.js";
import { type Reclaim, reclaimBetween, reclaimNow } from "./reclaim.js";

const here = resolve(import.meta.dirname, "..");

export interface BuildRun {
  what: string;
  wallSeconds: number;
  /** The build's own time, after start-up. */
  seconds: number;
  maxRssBytes: number;
  /** CPU time of the build's process, every thread: in the program and in the kernel (absent for a build older than this figure). */
  cpu?: { userSeconds: number; systemSeconds: number };
  phases?: Built["phases"];
  loadBefore: string;
  /** The share of the machine's cores busy in the 2 s before the build (busyShare): other work's. */
  busyBefore?: number;
  /** Whether the caches were dropped before the build (settleFileSystem); absent when it was not settled. */
  cachesDropped?: boolean;
  /** The memory the kernel could give without swapping when the build started (MemAvailable on Linux). */
  availableBefore: number;
  /** The kernel's page reclaim while the build ran (scripts/reclaim.ts); absent without /proc. */
  reclaim?: Reclaim;
  /** The build's line about the groups it kept, or "every group rendered". */
  said: string;
  /** What the host publishes (absent for a slice, which writes no manifest, and for a build older than the fit). */
  published?: Manifest["published"];
  /** The answers the manifest lists, the pre-rendered files kept in the tree. */
  answers?: number;
}

export interface BuildOptions {
  /** DATA_DIR of the build; data/ when absent. */
  dataDir?: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** The checkout whose scripts/build.ts runs, with its own node_modules: another commit's; this one when absent. */
  root?: string;
  /** Settle the file system first (settleFileSystem), as builds compared with one another are. */
  settle?: boolean;
}

/** One build of `outDir` (BASE_URL http://127.0.0.1:3000, so the generated docs are left alone), timed. */
export async function timedBuild(
  what: string,
  outDir: string,
  { dataDir, args = [], env = {}, root = here, settle = false }: BuildOptions = {},
): Promise<BuildRun> {
  const cachesDropped = settle ? settleFileSystem() : undefined;
  const busyBefore = await busyShare();
  const statsDir = mkdtempSync(join(tmpdir(), "maqam-bench-build-"));
  const stats = join(statsDir, "stats.json");
  const loadBefore = loadAverage();
  const availableBefore = freemem();
  const reclaimBefore = reclaimNow();
  const started = performance.now();
  const childEnv = {
    ...process.env,
    BUILD_DIR: outDir,
    BUILD_STATS: stats,
    BASE_URL: "http://127.0.0.1:3000",
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...env,
  };
  // As `npm run build` runs it: this checkout's from its bundle by Node alone (scripts/run.mjs), another commit's as that commit ran it.
  const command = root === here ? ["scripts/run.mjs", "scripts/build.ts"] : ["--import", "tsx", "scripts/build.ts"];
  const child = spawn(process.execPath, [...command, ...args], { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (b: Buffer) => {
    out += b;
  });
  return new Promise((done, fail) => {
    child.on("exit", (code) => {
      if (code !== 0) {
        rmSync(statsDir, { recursive: true, force: true });
        return fail(new Error(`bench: ${what} failed (exit ${code}):\n${out}`));
      }
      const wallSeconds = (performance.now() - started) / 1000;
      const reclaimAfter = reclaimNow();
      // A slice writes no stats nor manifest: its own line says what it did. An older build writes no phases.
      const figures = existsSync(stats)
        ? (JSON.parse(readFileSync(stats, "utf8")) as Pick<BuildRun, "seconds" | "maxRssBytes" | "cpu" | "phases">)
        : { seconds: wallSeconds, maxRssBytes: 0 };
      rmSync(statsDir, { recursive: true, force: true });
      const manifestFile = join(outDir, "manifest.json");
      const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, "utf8")) as Partial<Manifest>) : undefined;
      const said = out.split("\n").find((l) => l.includes("groups unchanged")) ?? "every group rendered";
      done({
        what,
        wallSeconds,
        ...figures,
        loadBefore,
        busyBefore,
        cachesDropped,
        availableBefore,
        reclaim: reclaimBefore && reclaimAfter && reclaimBetween(reclaimBefore, reclaimAfter),
        said: said.replace(/ \(.*$/, ""),
        published: manifest?.published,
        answers: manifest?.files,
      });
    });
  });
}

/**
 * The same file system state before each build of a comparison: the dirty pages of earlier steps
 * written out (sync), so that their writeback takes no core from the next build, then, where the
 * kernel lets this process (root on Linux), the page, dentry and inode caches dropped, so that
 * each build starts from an empty cache rather than one a larger tree filled. Whether they were dropped.
 */
function settleFileSystem(): boolean {
  execFileSync("sync");
  try {
    writeFileSync("/proc/sys/vm/drop_caches", "3\n");
    return true;
  } catch {
    return false;
  }
}

/**
 * How the runs' builds were started, for a bench's text: their trees kept until all are measured
 * (a build into a file system that has just deleted another's tree pays for it in the kernel, see
 * "Growth: full" in docs/benchmarks.md), and the file system settled before each.
 */
export function settledText(runs: readonly BuildRun[]): string {
  const dropped = runs.every((r) => r.cachesDropped);
  return `every tree kept until all are measured, and before each build the dirty pages written out (\`sync\`)${dropped ? " and the page, dentry and inode caches dropped, so that each starts from an empty cache" : "; **the caches could not be dropped** (not root), so a build may start with a cache the previous one filled"}`;
}

/** CPU time of a build, in the program and in the kernel, as the benches' tables print it. */
export const cpuText = (run: BuildRun): string => (run.cpu ? `${run.cpu.userSeconds.toFixed(0)} s / ${run.cpu.systemSeconds.toFixed(0)} s` : "–");

/** The phases of a build as the benches' tables print them: datasets, planning, rendering, finishing. */
export const phasesText = (phases: BuildRun["phases"]): string =>
  phases ? [phases.datasets, phases.plan, phases.render, phases.finish].map((s) => `${s.toFixed(1)} s`).join(", ") : "";

/** Above this share of the cores busy in the seconds before a build, other work took CPU and disk from it. */
export const BUSY_SHARE = 0.25;

/**
 * Below this much memory available when a build starts, the machine is short of it: a build peaks
 * at up to 1 GB and writes a tree of some 1.3 GB, which on a tmpfs is memory too, and the kernel
 * then reclaims pages under the build (a build has been killed so, after minutes in the kernel).
 */
export const SCARCE_MEMORY_BYTES = 4e9;

/** The least memory available when the runs' builds started, when under SCARCE_MEMORY_BYTES; undefined otherwise. */
export function scarceMemory(runs: readonly BuildRun[]): number | undefined {
  const least = Math.min(...runs.map((r) => r.availableBefore));
  return least < SCARCE_MEMORY_BYTES ? least : undefined;
}

/** The busiest of the moments before the runs' builds, when over BUSY_SHARE: the share, as a percentage; undefined when the machine was otherwise idle. */
export function otherWork(runs: readonly BuildRun[]): number | undefined {
  const busiest = Math.max(0, ...runs.map((r) => r.busyBefore ?? 0));
  return busiest > BUSY_SHARE ? Math.round(busiest * 100) : undefined;
}
