/**
 * Runs a script of the repository from its bundle: `tsx scripts/run.ts scripts/build.ts [arguments]`
 * (`npm run build`). Run by tsx alone, each of the hundred-odd modules a build imports goes through
 * tsx's loader, 1.2–1.5 s before the build starts on a 2-core machine; bundled once and kept while
 * its inputs are unchanged (scripts/threadBundle.ts), 0.3–0.5 s. The bundle's modules see their
 * source files as `import.meta`, and the script sees itself as the one run, with its arguments.
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
