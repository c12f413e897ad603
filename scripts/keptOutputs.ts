/**
 * Files a build makes from the repository alone — the fallback's and the site's bundles (esbuild,
 * scripts/keptBuild.ts), the client's declarations (TypeScript, openapi-typescript) — kept under node_modules/.cache/build-outputs/,
 * each set in a folder named by a SHA-256 of everything it is made from: a build whose inputs did
 * not change copies them instead of making them again (a second or two of every build, clean or
 * not). The bytes are the same either way. The most recently used KEEP sets of each kind stay.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { REPOSITORY, THREAD_BUNDLES } from "./keptKey.mjs";

export { keyOf, THREAD_BUNDLES } from "./keptKey.mjs";

const CACHE = join(REPOSITORY, "node_modules", ".cache", "build-outputs");
/** Sets kept per kind: builds for a few base URLs, and the tests', each have their own. */
const KEEP = 16;

const folderOf = (kind: string, key: string) => join(CACHE, kind, key);

/** Copies the kept set `key` of `kind` to `targets` (each file by its name in the set); false when the set is not kept whole. */
export function copyKept(kind: string, key: string, targets: readonly string[]): boolean {
  const folder = folderOf(kind, key);
  try {
    for (const target of targets) copyFileSync(join(folder, basename(target)), target);
    used(folder);
    return true;
  } catch {
    // Not kept, or pruned meanwhile by a build beside this one: made again.
    return false;
  }
}

/** Used now: the last of its kind to go when the kind is pruned. */
const used = (folder: string) => {
  const now = new Date();
  utimesSync(folder, now, now);
};

/**
 * Keeps copies of `files` as the set `key` of `kind` (written aside and renamed: builds side by side
 * make the same set with the same bytes), then prunes the kind to its KEEP most recently used sets.
 */
export function keep(kind: string, key: string, files: readonly string[]): void {
  const folder = folderOf(kind, key);
  if (!existsSync(folder)) {
    const aside = `${folder}.${process.pid}.partial`;
    mkdirSync(aside, { recursive: true });
    for (const file of files) copyFileSync(file, join(aside, basename(file)));
    try {
      renameSync(aside, folder);
    } catch {
      rmSync(aside, { recursive: true, force: true });
    }
  } else used(folder);
  prune(kind);
}

function prune(kind: string): void {
  const dir = join(CACHE, kind);
  const sets = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.endsWith(".partial"))
    // A set pruned meanwhile by a build beside this one has no time.
    .map((e) => ({ name: e.name, used: statSync(join(dir, e.name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.used - a.used);
  for (const { name } of sets.slice(KEEP)) rmSync(join(dir, name), { recursive: true, force: true });
}

/** What was recorded of the last set of `kind` named `name` (recordOf), as JSON; undefined when nothing is, or it does not parse. */
export function lastRecord(kind: string, name: string): unknown {
  try {
    return JSON.parse(readFileSync(join(CACHE, kind, `${name}.inputs.json`), "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** Records what the set of `kind` named `name` was just made from (its inputs, paths from the repository's root, and what else it needs to be copied). */
export function recordOf(kind: string, name: string, record: unknown): void {
  mkdirSync(join(CACHE, kind), { recursive: true });
  const file = join(CACHE, kind, `${name}.inputs.json`);
  const aside = `${file}.${process.pid}`;
  writeFileSync(aside, JSON.stringify(record));
  renameSync(aside, file);
}

/** Removes every kept set and thread bundle, so that the next build makes them as a fresh clone's first build does (the benches' clean builds). */
export function forgetKeptOutputs(): void {
  for (const dir of [CACHE, THREAD_BUNDLES]) rmSync(dir, { recursive: true, force: true });
}
