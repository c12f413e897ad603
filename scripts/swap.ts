/**
 * How a build directory is replaced whole. A build is written into `<dir>.partial`; the swap moves
 * the previous build to `<dir>.old`, renames the new one into place and moves the old one into
 * `<dir>.trash/`. A process killed at any point leaves either the previous build or the new one at
 * `<dir>` — except between the two renames, where `<dir>` is missing and `<dir>.old` is whole:
 * recoverSwap puts it back.
 *
 * Removing a tree of a few hundred thousand files takes minutes on a loaded machine, so no build
 * waits for it: whatever is thrown away (the previous tree and cache, a partial tree or cache left by
 * a build that failed or was killed, a build `npm start` set aside) is renamed into the trash, and a
 * detached process (this file run with the trash's path, at low priority) removes it while the build
 * reports and exits. Everything in the trash is garbage, so removing it can be stopped at any point:
 * every build ends by starting a remover when the trash is not empty, which finishes what an earlier
 * one left. Removers only delete, and skip names already gone, so two of them (a build's, and the
 * one of the build before still running) may work on the same trash at once. Used by the build and
 * by `npm start`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync, type Dirent } from "node:fs";
import { unlink } from "node:fs/promises";
import { setPriority } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const partialOf = (dir: string) => `${dir}.partial`;
export const oldOf = (dir: string) => `${dir}.old`;
export const trashOf = (dir: string) => `${dir}.trash`;
export const spareOf = (dir: string) => `${dir}.spare`;

/** Puts the previous build back when a swap was stopped between its renames; true when it did. */
export function recoverSwap(dir: string): boolean {
  if (existsSync(dir) || !existsSync(join(oldOf(dir), "manifest.json"))) return false;
  renameSync(oldOf(dir), dir);
  return true;
}

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;
let thrown = 0;

/**
 * Moves `path` (a tree beside `dir`, on its file system) into `dir`'s trash under a name of its
 * own, to be removed by removeDiscarded; false when there is nothing at `path`.
 */
export function discard(dir: string, path: string): boolean {
  const trash = trashOf(dir);
  const name = `${basename(path)}-${process.pid}-${Date.now()}-${thrown++}`;
  // A remover removes the trash folder once it is empty: made again when it went between the two calls.
  for (let tries = 0; ; tries++) {
    if (!existsSync(path)) return false;
    mkdirSync(trash, { recursive: true });
    try {
      renameSync(path, join(trash, name));
      return true;
    } catch (e) {
      if (code(e) !== "ENOENT" || tries === 2) throw e;
    }
  }
}

/** Empties the place a build is written to, after putting back a build an interrupted swap left aside. */
export function prepareSwap(dir: string): string {
  recoverSwap(dir);
  // A build killed after its second rename left the one before it at `.old`: garbage now.
  for (const left of [partialOf(dir), oldOf(dir)]) discard(dir, left);
  return partialOf(dir);
}

/**
 * Replaces `dir` by its finished `.partial` sibling (manifest.json last written), the previous build
 * thrown away or, with `keepSpare`, kept as `<dir>.spare`: the next build starts from it and
 * changes only what differs, instead of linking every unchanged file into a new tree.
 */
export function swapIn(dir: string, keepSpare = false): void {
  if (existsSync(dir)) renameSync(dir, oldOf(dir));
  renameSync(partialOf(dir), dir);
  if (!keepSpare || !existsSync(oldOf(dir))) {
    discard(dir, oldOf(dir));
    return;
  }
  discard(dir, spareOf(dir));
  renameSync(oldOf(dir), spareOf(dir));
}

/** Unlinks a name, or removes an empty folder, that another remover may have removed first. */
export const gone = (remove: (path: string) => void, path: string) => {
  try {
    remove(path);
  } catch (e) {
    if (code(e) !== "ENOENT") throw e;
  }
};

/**
 * Removes a tree: one unlink per file, by the type its folder's listing gives (no stat), folders
 * last. Names another process removed first are skipped, so two removers may share a tree.
 */
export function removeTree(path: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (e) {
    if (code(e) === "ENOENT") return;
    if (code(e) !== "ENOTDIR") throw e;
    gone(unlinkSync, path);
    return;
  }
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) removeTree(child);
    else gone(unlinkSync, child);
  }
  gone(rmdirSync, path);
}

/**
 * Removes the folders below `root` (paths relative to it) that removals left empty, deepest first,
 * and their parents left empty in turn; returns those removed.
 */
export function removeEmptyFolders(root: string, folders: Iterable<string>): string[] {
  const removed: string[] = [];
  for (const folder of [...folders].sort((a, b) => b.length - a.length))
    for (let f = folder; f !== "."; f = dirname(f))
      try {
        rmdirSync(join(root, f));
        removed.push(f);
      } catch (e) {
        if (code(e) === "ENOTEMPTY" || code(e) === "EEXIST") break;
        if (code(e) !== "ENOENT") throw e;
      }
  return removed;
}

/**
 * Removes files below `tree` (paths below it; those already gone skipped) several at a time on
 * libuv's threads, so that the disk's work is shared by the cores.
 */
export async function removeFilesApart(tree: string, files: readonly string[]): Promise<void> {
  let next = 0;
  const one = async () => {
    while (next < files.length) {
      await unlink(join(tree, files[next++])).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== "ENOENT") throw e;
      });
    }
  };
  await Promise.all(Array.from({ length: UNLINKS_AT_ONCE }, one));
}

/** Unlinks in flight at once: libuv's four threads kept busy. */
const UNLINKS_AT_ONCE = 16;

/** Removes everything in a trash folder, then the folder when nothing new came in meanwhile. */
export function removeTrash(trash: string): void {
  if (!existsSync(trash)) return;
  for (const name of readdirSync(trash)) removeTree(join(trash, name));
  try {
    rmdirSync(trash);
  } catch (e) {
    // Another build threw something away meanwhile (its own remover takes it), or another remover was first.
    if (code(e) !== "ENOTEMPTY" && code(e) !== "EEXIST" && code(e) !== "ENOENT") throw e;
  }
}

/**
 * Starts a detached process that removes `dir`'s trash, when it holds anything, and returns at
 * once; the process outlives the build. Returns whether one was started.
 */
export function removeDiscarded(dir: string): boolean {
  const trash = trashOf(dir);
  if (!existsSync(trash) || readdirSync(trash).length === 0) return false;
  const remover = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), resolve(trash)], {
    cwd: resolve(import.meta.dirname, ".."),
    detached: true,
    stdio: "ignore",
  });
  // Not started (out of processes): the trash waits for the next build's remover.
  remover.on("error", () => {});
  remover.unref();
  return true;
}

/** Writes a file so that a reader, or a process killed half way, sees the old bytes or the new ones. */
export function writeFileWhole(path: string, data: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, path);
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2]) {
  // Behind whatever else the machine runs: nothing waits for this.
  setPriority(19);
  removeTrash(process.argv[2]);
}
