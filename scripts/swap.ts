/**
 * How a build directory is replaced whole. A build is written into `<dir>.partial`; the swap moves
 * the previous build to `<dir>.old`, renames the new one into place and removes the old one. A
 * process killed at any point leaves either the previous build or the new one at `<dir>` — except
 * between the two renames, where `<dir>` is missing and `<dir>.old` is whole: recoverSwap puts it
 * back. Used by the build and by `npm start`.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const partialOf = (dir: string) => `${dir}.partial`;
export const oldOf = (dir: string) => `${dir}.old`;

/** Puts the previous build back when a swap was stopped between its renames; true when it did. */
export function recoverSwap(dir: string): boolean {
  if (existsSync(dir) || !existsSync(join(oldOf(dir), "manifest.json"))) return false;
  renameSync(oldOf(dir), dir);
  return true;
}

/** Empties the place a build is written to, after putting back a build an interrupted swap left aside. */
export function prepareSwap(dir: string): string {
  recoverSwap(dir);
  rmSync(partialOf(dir), { recursive: true, force: true });
  rmSync(oldOf(dir), { recursive: true, force: true });
  return partialOf(dir);
}

/** Replaces `dir` by its finished `.partial` sibling (manifest.json last written). */
export function swapIn(dir: string): void {
  if (existsSync(dir)) renameSync(dir, oldOf(dir));
  renameSync(partialOf(dir), dir);
  rmSync(oldOf(dir), { recursive: true, force: true });
}

/** Writes a file so that a reader, or a process killed half way, sees the old bytes or the new ones. */
export function writeFileWhole(path: string, data: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, path);
}
