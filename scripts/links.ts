/** The hard links by which a build takes files over from the previous one (scripts/buildCache.ts, scripts/keptStep.ts). */
import { copyFileSync, linkSync, mkdirSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";

/** Hard-links (or, across file systems, copies) a previous file into the new tree; false when it is in neither place. */
export function linkInto(target: string, sources: string[], made: Set<string>): boolean {
  const dir = dirname(target);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  for (const source of sources) {
    try {
      linkSync(source, target);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue;
      // A name the spare tree still had: replaced, not written through.
      if (code === "EEXIST") {
        unlinkSync(target);
        linkSync(source, target);
        return true;
      }
      if (code !== "EXDEV" && code !== "EPERM") throw e;
      copyFileSync(source, target);
      return true;
    }
  }
  return false;
}
