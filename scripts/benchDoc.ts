/** docs/benchmarks.md is written by `npm run bench` in parts: each later step replaces its own section. */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const DOC = join(resolve(import.meta.dirname, ".."), "docs", "benchmarks.md");

/** Replaces the section that starts with `heading` (up to the next `## `), or appends it. */
export function writeSection(heading: string, section: string): void {
  const text = readFileSync(DOC, "utf8");
  const start = text.indexOf(heading);
  const end = start < 0 ? -1 : text.indexOf("\n## ", start + 1);
  const before = start < 0 ? `${text.trimEnd()}\n\n` : text.slice(0, start);
  writeFileSync(DOC, before + (end < 0 ? section : `${section.trimEnd()}\n\n${text.slice(end + 1)}`));
}
