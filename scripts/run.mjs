/**
 * Runs a script of the repository from its bundle: `node scripts/run.mjs scripts/build.ts [arguments]`
 * (`npm run build`). Run by tsx, each of the hundred-odd modules a build imports goes through tsx's
 * loader; bundled once (scripts/threadBundle.ts) and kept while its inputs are unchanged, the
 * script starts sooner. This launcher is plain JavaScript: a kept bundle is checked and run by
 * Node alone, and only a bundle to be made again loads tsx and esbuild. The bundle's modules see
 * their source files as `import.meta`, and the script sees itself as the one run, with its arguments.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleIsCurrent, scriptBundleOf } from "./keptKey.mjs";

const [entry, ...args] = process.argv.slice(2);
if (!entry?.endsWith(".ts")) {
  console.error("usage: node scripts/run.mjs <script.ts> [arguments]");
  process.exit(2);
}

/** The bundle made again from the TypeScript sources, through tsx's loader. */
async function madeAgain() {
  const { register } = await import("tsx/esm/api");
  register();
  const { scriptEntry } = await import("./threadBundle.ts");
  return scriptEntry(entry);
}

const kept = scriptBundleOf(entry);
const url = bundleIsCurrent(kept.file, kept.parts) ? pathToFileURL(kept.file) : await madeAgain();
process.argv = [process.argv[0], resolve(entry), ...args];
await import(url.href);
