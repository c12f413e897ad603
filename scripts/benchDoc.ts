/** docs/benchmarks.md is written by `npm run bench` in parts: each later step replaces its own section. */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
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

/** The machine as the sections name it: its cores, their model, and the Node version. */
export const machineText = () => `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`;

/** Replaces the section that starts with `heading` (up to the next `## `), or appends it. */
export function writeSection(heading: string, section: string): void {
  const text = readFileSync(DOC, "utf8");
  const start = text.indexOf(heading);
  const end = start < 0 ? -1 : text.indexOf("\n## ", start + 1);
  const before = start < 0 ? `${text.trimEnd()}\n\n` : text.slice(0, start);
  writeFileSync(DOC, before + (end < 0 ? section : `${section.trimEnd()}\n\n${text.slice(end + 1)}`));
}
