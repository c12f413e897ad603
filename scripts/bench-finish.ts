/**
 * What the finishing of a build and its swap cost per file, without a build: on a tree shaped like
 * the archive's (answers in folders per route and entity, `.gz` and `.br` siblings for those over
 * 1 KB, pictures, a few site files; about 290,000 files by default), times the walk that measured
 * the published tree (every file listed and stat'ed), the listing that reads only what the build
 * does not know, the fit over it, and the removal of a hard-linked copy of the tree (as the previous
 * tree is, its files linked into the new one) by `rmSync`, by removeTree, by `rm -rf`, and by the
 * swap, which only renames it into the trash.
 *
 * Usage: tsx scripts/bench-finish.ts [dir] [answers]   (default a folder in the system's temporary
 * one, 95,000 answers; the tree is made once and kept in `dir` for later runs)
 */
import { machineText } from "./benchDoc.js";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { valueClassOf } from "./budget.js";
import { fitTree } from "./fitTree.js";
import { listTree, sizeOfListing, treeSize } from "./treeSize.js";
import { partialOf, removeDiscarded, removeTree, swapIn, trashOf } from "./swap.js";

const ROUTES = ["tuning-systems", "maqamat", "ajnas", "exports", "intervals", "note-names", "sources", "modulations"];
const ENTITIES = 120;

/** Deterministic sizes: mostly a few hundred bytes to a few KB, as the answers are. */
const sizeOf = (i: number) => 200 + ((i * 7919) % 5000);

/** The tree and what a build knows of it (path → bytes): every answer, sibling and picture. */
function makeTree(dir: string, answers: number): Map<string, number> {
  const known = new Map<string, number>();
  const perFolder = Math.ceil(answers / (ROUTES.length * ENTITIES));
  const made = existsSync(join(dir, "index.html"));
  const put = (path: string, bytes: number) => {
    known.set(path, bytes);
    if (!made) writeFileSync(join(dir, path), Buffer.alloc(bytes, 97));
  };
  for (let i = 0; i < answers; i++) {
    const route = ROUTES[i % ROUTES.length];
    const entity = Math.floor(i / ROUTES.length) % ENTITIES;
    const folder = `api/${route}/entity_${entity}_${"x".repeat(entity % 30)}`;
    const n = Math.floor(i / (ROUTES.length * ENTITIES));
    if (!made && n === 0) mkdirSync(join(dir, folder), { recursive: true });
    const file = `${folder}/@startingNote=yegah&tuningSystem=system_${n % perFolder}_${i}.json`;
    const bytes = sizeOf(i);
    put(file, bytes);
    if (bytes > 1024) {
      put(`${file}.gz`, Math.round(bytes / 4));
      put(`${file}.br`, Math.round(bytes / 5));
    }
    if (route === "maqamat" || route === "ajnas") {
      if (!made && n === 0) mkdirSync(join(dir, "pictures", folder.slice(4)), { recursive: true });
      put(`pictures/${file.slice(4).replace(/\.json$/, ".svg")}`, sizeOf(i + 1) * 2);
    }
  }
  if (!made) {
    mkdirSync(join(dir, "client"), { recursive: true });
    for (const f of ["client/maqam-api.js", "site.css", "_worker.js", "index.html"]) writeFileSync(join(dir, f), "site");
  }
  return known;
}

/** Wall time, and this process's CPU time (user + system): on a loaded machine the second says what the step costs. */
const time = <T>(what: string, run: () => T): T => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = run();
  const used = process.cpuUsage(cpu);
  console.log(`${what}: ${((performance.now() - started) / 1000).toFixed(2)} s (CPU ${((used.user + used.system) / 1e6).toFixed(2)} s)`);
  return value;
};
const linkedCopy = (from: string, to: string) => {
  rmSync(to, { recursive: true, force: true });
  execFileSync("cp", ["-al", from, to]);
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const work = process.argv[2] ?? join(tmpdir(), "maqam-bench-finish");
  const tree = join(work, "tree");
  mkdirSync(tree, { recursive: true });
  const known = time("making the tree (or reading it back)", () => makeTree(tree, Number(process.argv[3] ?? 95_000)));
  console.log(
    `${machineText()}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" / ")}`,
  );
  const walked = time("treeSize: every file listed and stat'ed", () => treeSize(tree));
  console.log(`  ${walked.files} files, ${walked.folders} folders, tar ${walked.tarBytes} bytes`);
  const listing = time("listTree: only what the build does not know", () => listTree(tree, known, new Set(["api/datasets"])));
  const fast = time("sizeOfListing", () => sizeOfListing(listing));
  if (JSON.stringify(fast) !== JSON.stringify(walked)) throw new Error(`the listing counts ${JSON.stringify(fast)}, the walk ${JSON.stringify(walked)}`);
  const planned = [...known.keys()].filter((p) => p.startsWith("api/")).map((p) => ({ file: p.slice(4), valueClass: valueClassOf(`/${p.slice(4)}`) }));
  time("fitTree over the listing (nothing left out)", () => fitTree(tree, listing, planned, {}));
  const copy = join(work, "copy");
  for (const [what, remove] of [
    ["rmSync", () => rmSync(copy, { recursive: true, force: true })],
    ["removeTree", () => removeTree(copy)],
    ["rm -rf", () => execFileSync("rm", ["-rf", copy])],
  ] as const) {
    linkedCopy(tree, copy);
    time(`removing a hard-linked copy: ${what}`, remove);
  }
  // The swap as a build does it: the previous tree renamed away into the trash, removed by a detached process.
  const dir = join(work, "build");
  linkedCopy(tree, dir);
  linkedCopy(tree, partialOf(dir));
  const swapped = performance.now();
  time("swapIn and removeDiscarded (what the build waits for)", () => {
    swapIn(dir);
    removeDiscarded(dir);
  });
  while (existsSync(trashOf(dir))) await new Promise((r) => setTimeout(r, 100));
  console.log(`the trash removed by the detached process after ${((performance.now() - swapped) / 1000).toFixed(1)} s`);
  rmSync(dir, { recursive: true, force: true });
}
