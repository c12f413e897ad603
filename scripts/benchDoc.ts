/** docs/benchmarks.md is written by `npm run bench` in parts: each later step replaces its own section. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const DOC = join(root, "docs", "benchmarks.md");

/** The build the benches measure: build/, or BUILD_DIR. */
export const benchBuildDir = resolve(root, process.env.BUILD_DIR ?? "build");

/** The load average (1 / 5 / 15 min) as the sections print it: figures on a shared machine are read against it. */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

/** The machine's CPU ticks since boot, busy and in all (the first line of /proc/stat); undefined where there is none. */
function cpuTicks(): { busy: number; total: number } | undefined {
  if (!existsSync("/proc/stat")) return undefined;
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, t) => sum + t, 0);
  return { busy: total - ticks[3] - ticks[4], total };
}

/**
 * The share of the machine's cores busy over the next `ms` milliseconds, while the bench waits:
 * before a build, the work of others (or of what the last build left running). The load average
 * cannot tell: the build before, one minute ago, is still in it.
 */
export async function busyShare(ms = 2000): Promise<number | undefined> {
  const before = cpuTicks();
  await new Promise((done) => setTimeout(done, ms));
  const after = cpuTicks();
  return before && after && after.total > before.total ? (after.busy - before.busy) / (after.total - before.total) : undefined;
}

/**
 * Where a bench's builds go, as the sections name it: the temporary directory (TMPDIR) and the type
 * of the file system that holds it (the mount with the longest path above it in /proc/mounts). On
 * a disk, the kernel's writeback of a build's 200,000 files enters its system time; on a tmpfs, not.
 */
export function tmpText(dir = tmpdir()): string {
  const mounts = existsSync("/proc/mounts") ? readFileSync("/proc/mounts", "utf8").split("\n") : [];
  const holding = mounts
    .map((line) => line.split(" "))
    .filter(([, at]) => at !== undefined && (dir === at || dir.startsWith(at.endsWith("/") ? at : `${at}/`)))
    .sort(([, a], [, b]) => b.length - a.length)[0];
  return `\`${dir}\`${holding?.[2] ? ` (${holding[2]})` : ""}`;
}

/** The machine as the sections name it: its cores, their model, and the Node version. */
export const machineText = () => `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`;

/**
 * Replaces the text a bench wrote under `heading` (up to the next `## ` or `### ` heading), or
 * appends it. The `### ` subsections after it are written by hand (earlier runs, profiles) and kept,
 * so a bench's own text holds no subsection.
 */
export function writeSection(heading: string, section: string, doc = DOC): void {
  if (section.includes("\n### ")) throw new Error(`writeSection: the text for ${heading} holds a ### subsection, which the next write would keep twice`);
  const text = readFileSync(doc, "utf8");
  // The heading as a whole line: "## Build" is not "## Build against …".
  const line = text.startsWith(`${heading}\n`) ? 0 : text.indexOf(`\n${heading}\n`);
  const start = line <= 0 ? line : line + 1;
  const ends = start < 0 ? [] : [text.indexOf("\n## ", start + 1), text.indexOf("\n### ", start + 1)].filter((at) => at >= 0);
  const end = ends.length === 0 ? -1 : Math.min(...ends);
  const before = start < 0 ? `${text.trimEnd()}\n\n` : text.slice(0, start);
  writeFileSync(doc, before + (end < 0 ? section : `${section.trimEnd()}\n\n${text.slice(end + 1)}`));
}

/**
 * Writes a text of several `## ` sections, each as writeSection does; what comes before the first
 * of them replaces the document's opening (its title and the machine), up to its first `## `.
 */
export function writeSections(text: string, doc = DOC): void {
  const [opening, ...sections] = text.split(/^(?=## )/m);
  const old = readFileSync(doc, "utf8");
  const first = old.indexOf("\n## ");
  writeFileSync(doc, first < 0 ? opening : `${opening.trimEnd()}\n\n${old.slice(first + 1)}`);
  for (const section of sections) writeSection(section.slice(0, section.indexOf("\n")), section, doc);
}
