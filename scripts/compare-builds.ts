/**
 * Compares two build trees byte for byte: the same relative file list and, file by file, the same
 * SHA-256 of the content. A refactoring that must not change what a host publishes is checked by
 * building before and after and comparing the two trees.
 *
 * Usage: npx tsx scripts/compare-builds.ts <before-dir> <after-dir> [--under api]   (exit 0 when identical, 1 otherwise)
 * `--under <dir>` compares only that subtree (the answers under api/, say, apart from the bundles,
 * whose minified code changes with any change to the code they bundle).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface TreeDifference {
  onlyBefore: string[];
  onlyAfter: string[];
  differing: string[];
  compared: number;
}

/** Relative path → SHA-256 (hex) of every file under `dir`, symbolic links to files included. */
export function treeDigests(dir: string, under = ""): Map<string, string> {
  const digests = new Map<string, string>();
  for (const entry of readdirSync(join(dir, under), { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) continue;
    const path = join(entry.parentPath, entry.name);
    digests.set(relative(dir, path), createHash("sha256").update(readFileSync(path)).digest("hex"));
  }
  return digests;
}

export function compareTrees(before: string, after: string, under = ""): TreeDifference {
  const [a, b] = [treeDigests(before, under), treeDigests(after, under)];
  const sorted = (names: Iterable<string>) => [...names].sort();
  return {
    onlyBefore: sorted([...a.keys()].filter((f) => !b.has(f))),
    onlyAfter: sorted([...b.keys()].filter((f) => !a.has(f))),
    differing: sorted([...a].filter(([f, digest]) => b.has(f) && b.get(f) !== digest).map(([f]) => f)),
    compared: [...a.keys()].filter((f) => b.has(f)).length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const flag = args.indexOf("--under");
  const under = flag >= 0 ? args.splice(flag, 2)[1] : "";
  const [before, after] = args;
  if (!before || !after || under === undefined) {
    console.error("usage: tsx scripts/compare-builds.ts <before-dir> <after-dir> [--under <subdirectory>]");
    process.exit(2);
  }
  const diff = compareTrees(before, after, under);
  const SHOWN = 20;
  const list = (label: string, files: string[]) => {
    if (files.length === 0) return;
    console.log(`${label} (${files.length}):`);
    for (const f of files.slice(0, SHOWN)) console.log(`  ${f}`);
    if (files.length > SHOWN) console.log(`  … and ${files.length - SHOWN} more`);
  };
  list(`only in ${before}`, diff.onlyBefore);
  list(`only in ${after}`, diff.onlyAfter);
  list("different content", diff.differing);
  const same = diff.onlyBefore.length + diff.onlyAfter.length + diff.differing.length === 0;
  console.log(same ? `identical: ${diff.compared} files, same bytes` : `different: ${diff.compared} files in both, ${diff.differing.length} differ`);
  process.exit(same ? 0 : 1);
}
