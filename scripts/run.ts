/**
 * Runs a script of the repository from its bundle: `tsx scripts/run.ts scripts/build.ts [arguments]`
 * (`npm run build`). Run by tsx alone, each of the hundred-odd modules a build imports goes through
 * tsx's loader: 0.63–0.71 s from the process's start to the build's on a quiet 2-core machine,
 * 1.1–1.4 s beside other work; bundled once and kept while its inputs are unchanged
 * (scripts/threadBundle.ts), 0.47–0.52 s and 0.67–0.85 s. The bundle's modules see their source
 * files as `import.meta`, and the script sees itself as the one run, with its arguments.
 */
import { resolve } from "node:path";
import { scriptEntry } from "./threadBundle.js";

const [entry, ...args] = process.argv.slice(2);
if (!entry?.endsWith(".ts")) {
  console.error("usage: tsx scripts/run.ts <script.ts> [arguments]");
  process.exit(2);
}
const url = await scriptEntry(entry);
process.argv = [process.argv[0], resolve(entry), ...args];
await import(url.href);
