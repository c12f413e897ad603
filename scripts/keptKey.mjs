/**
 * What decides whether a kept output is still current: the key of everything it is made from, and
 * the check of a kept bundle. Plain JavaScript, so that scripts/run.mjs checks a script's bundle
 * and runs it without loading any TypeScript (tsx's loader alone costs some 0.3 s of every build);
 * scripts/keptOutputs.ts and scripts/threadBundle.ts use the same functions.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";

export const REPOSITORY = resolve(import.meta.dirname, "..");
/** Where the threads' and scripts' bundles are made and kept (scripts/threadBundle.ts). */
export const THREAD_BUNDLES = join(REPOSITORY, "node_modules", ".cache", "build-threads");
/** The module whose esbuild options shape every bundle: an input of each. */
export const BUNDLER = "scripts/threadBundle.ts";
/** What every kept output is also made from: the packages installed, the compiler settings. */
const COMMON_INPUTS = ["package-lock.json", "tsconfig.json"];

export const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** SHA-256 of `parts` (as JSON) and of each file of `inputs` (paths from the repository's root); undefined when one is missing. */
export function keyOf(parts, inputs) {
  const digest = createHash("sha256").update(JSON.stringify(parts)).update("\0");
  for (const input of [...COMMON_INPUTS, ...inputs]) {
    const file = join(REPOSITORY, input);
    if (!existsSync(file)) return undefined;
    digest.update(input).update("\0").update(readFileSync(file)).update("\0");
  }
  return digest.digest("hex");
}

/**
 * Whether the bundle at `file` can be used as it is: its record (`<file>.inputs.json`, written
 * by scripts/threadBundle.ts) names inputs that still give its key, and the file is the one
 * recorded (a build of other code sharing node_modules, or a hand, may have replaced it).
 */
export function bundleIsCurrent(file, parts) {
  try {
    const record = JSON.parse(readFileSync(`${file}.inputs.json`, "utf8"));
    const inputs = record?.inputs;
    if (typeof record?.key !== "string" || !Array.isArray(inputs) || !inputs.every((i) => typeof i === "string")) return false;
    return keyOf(parts, [BUNDLER, ...inputs]) === record.key && sha256(readFileSync(file)) === record.bundle;
  } catch {
    return false;
  }
}

/** esbuild's version as installed, read from its package file rather than by loading esbuild. */
const esbuildVersion = () => JSON.parse(readFileSync(join(REPOSITORY, "node_modules", "esbuild", "package.json"), "utf8")).version;

/**
 * The kept bundle of a script (a path from the repository's root) and what its key is made of. It
 * names its sources by absolute path: a checkout elsewhere sharing node_modules (a copy, a
 * worktree) makes its own.
 */
export const scriptBundleOf = (entry) => ({
  file: join(THREAD_BUNDLES, `${basename(entry, extname(entry))}.script.mjs`),
  parts: { esbuild: esbuildVersion(), entry, script: true, root: REPOSITORY },
});
