/** A step of the finishing taken over from the previous build when its hash is unchanged (the datasets', scripts/finishBuild.ts). */
import { existsSync, readdirSync, unlinkSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { cacheOf, type StepState } from "./buildCache.js";
import { linkInto } from "./links.js";

/** The files below `root`/`dir`, as paths relative to `root` with forward slashes. */
function filesBelow(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/"));
}

/**
 * One step of the finishing that writes below `dir` of the tree being made (`partial`): when the
 * previous build recorded the same hash for it, its files are taken over from the previous tree
 * or its cache; else (or when one of them is gone) `write` runs. Returns what the state records.
 */
export async function keepOrWrite(
  partial: string,
  dir: string,
  previousDir: string,
  previous: StepState | undefined,
  hash: string,
  write: () => Promise<unknown>,
): Promise<StepState> {
  if (previous?.hash === hash) {
    const made = new Set<string>();
    const linked: string[] = [];
    const whole = previous.files.every((file) => {
      const target = join(partial, file);
      const ok = linkInto(
        target,
        [previousDir, cacheOf(previousDir)].map((p) => join(p, file)),
        made,
      );
      if (ok) linked.push(target);
      return ok;
    });
    if (whole) return previous;
    // `write` would otherwise write through the links into the previous build's files.
    for (const target of linked) unlinkSync(target);
  }
  const before = new Set(filesBelow(partial, dir));
  await write();
  return { hash, files: filesBelow(partial, dir).filter((f) => !before.has(f)) };
}
