/**
 * The entry of the build's threads as one plain ES module, bundled with esbuild once per process.
 * A thread started on a TypeScript entry through tsx registers the loader on a thread of its own
 * (one more V8 isolate per thread, some 40 MB) and transforms every module it imports again; a
 * build starts a dozen threads (its render workers, replaced as their heaps grow, and the datasets'
 * pool). The packages stay imports (sql.js finds its WebAssembly beside its own module), so the
 * bundle is written where they resolve: node_modules/.cache/build-threads/.
 */
import { buildSync } from "esbuild";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");
const made = new Map<string, URL>();

/** The URL of the bundle of `entry` (a path from the repository's root), made on first use. */
export function threadEntry(entry: string): URL {
  const known = made.get(entry);
  if (known) return known;
  const [output] = buildSync({
    entryPoints: [resolve(root, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    logLevel: "silent",
  }).outputFiles;
  const dir = join(root, "node_modules", ".cache", "build-threads");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${basename(entry, extname(entry))}.mjs`);
  // Written aside and renamed: builds run side by side (the tests do) each replace it whole, with the same bytes.
  const aside = `${file}.${process.pid}.${made.size}`;
  writeFileSync(aside, output.contents);
  renameSync(aside, file);
  const url = pathToFileURL(file);
  made.set(entry, url);
  return url;
}
