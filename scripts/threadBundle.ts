/**
 * The entry of the build's threads as one plain ES module, bundled with esbuild. A thread started
 * on a TypeScript entry through tsx registers the loader on a thread of its own (one more V8
 * isolate per thread, some 40 MB) and transforms every module it imports again; a build starts a
 * dozen threads (its render workers, replaced as their heaps grow, and the datasets' pool). The
 * packages stay imports (sql.js finds its WebAssembly beside its own module), so the bundle is
 * written where they resolve: node_modules/.cache/build-threads/. Beside each bundle, the inputs it
 * was made from and their SHA-256 (scripts/keptOutputs.ts's keyOf): a build whose inputs did not
 * change uses the bundle as it is instead of making it again (some 0.15 s of the main thread per
 * entry, five entries, in every build).
 *
 * A script run from its bundle (scripts/run.mjs, scriptEntry) is bundled with each module's
 * `import.meta` as its source file's: it finds the repository's files as it does run from source.
 */
import { type BuildOptions, type BuildResult, build, buildSync, type Plugin, version } from "esbuild";
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLER, bundleIsCurrent, keyOf, REPOSITORY as root, scriptBundleOf, sha256, THREAD_BUNDLES } from "./keptKey.mjs";

const made = new Map<string, URL>();
/** How long before the bundling an input must have been written last for its record to be kept: a margin for coarse file times. */
const SETTLED_MS = 2000;

/** What a bundle records of its making: the key of its inputs, the inputs (paths from the repository's root), and the bundle's own SHA-256. */
interface Made {
  key: string;
  inputs: string[];
  bundle: string;
}

/** Writes `text` to `file` aside and renamed: builds run side by side (the tests do) each replace it whole, with the same bytes. */
function writeWhole(file: string, text: string | Uint8Array) {
  const aside = `${file}.${process.pid}.${made.size}`;
  writeFileSync(aside, text);
  renameSync(aside, file);
}

/** esbuild's options for the bundle of `entry`: one ES module for Node, the packages left as imports. */
const optionsOf = (entry: string) =>
  ({
    entryPoints: [resolve(root, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    metafile: true,
    logLevel: "silent",
  }) satisfies BuildOptions;

/**
 * Writes the bundle esbuild made, and its record: last, and only when no input was written since
 * just before esbuild read them (the key would hash other bytes than the bundle's): a bundle
 * without a record is made again.
 */
function keepBundle(file: string, parts: object, result: BuildResult<{ write: false; metafile: true }>, startedAt: number): void {
  // The metafile names the inputs from the working directory.
  const inputs = Object.keys(result.metafile.inputs).map((input) => relative(root, resolve(input)));
  mkdirSync(THREAD_BUNDLES, { recursive: true });
  // The record of another bundle goes first: its inputs' bytes may come back while this one stays.
  rmSync(`${file}.inputs.json`, { force: true });
  const { contents } = result.outputFiles[0];
  writeWhole(file, contents);
  const key = keyOf(parts, [BUNDLER, ...inputs]);
  const settled = inputs.every((input) => statSync(join(root, input)).mtimeMs < startedAt - SETTLED_MS);
  if (key && settled) writeWhole(`${file}.inputs.json`, JSON.stringify({ key, inputs, bundle: sha256(contents) } satisfies Made));
}

/** The URL of the bundle of `entry` (a path from the repository's root), made on first use unless kept. */
export function threadEntry(entry: string): URL {
  const known = made.get(entry);
  if (known) return known;
  const file = join(THREAD_BUNDLES, `${basename(entry, extname(entry))}.mjs`);
  const parts = { esbuild: version, entry };
  if (!bundleIsCurrent(file, parts)) {
    const startedAt = Date.now();
    keepBundle(file, parts, buildSync(optionsOf(entry)), startedAt);
  }
  const url = pathToFileURL(file);
  made.set(entry, url);
  return url;
}

/** The properties of `import.meta` a module's location gives (the pattern's own text, escaped, does not match it). */
const IMPORT_META = /\bimport\.meta\.(dirname|filename|url)\b/g;

/** Each module's `import.meta.dirname`, `filename` and `url` as they are in its source file, wherever the bundle runs from. */
const sourceImportMeta: Plugin = {
  name: "source-import-meta",
  setup(esbuild) {
    // The repository's plain modules (scripts/keptKey.mjs) too: they find the repository from where they are.
    esbuild.onLoad({ filter: /\.(?:[cm]?ts|mjs)$/ }, ({ path }) => {
      const meta: Record<string, string> = { dirname: dirname(path), filename: path, url: pathToFileURL(path).href };
      const contents = readFileSync(path, "utf8").replace(IMPORT_META, (_, name: string) => JSON.stringify(meta[name]));
      return { contents, loader: path.endsWith(".mjs") ? "js" : "ts" };
    });
  },
};

/** The URL of the bundle a script (a path from the repository's root) is run from (scripts/run.mjs), made unless kept. */
export async function scriptEntry(entry: string): Promise<URL> {
  const { file, parts } = scriptBundleOf(entry);
  if (!bundleIsCurrent(file, parts)) {
    const startedAt = Date.now();
    keepBundle(file, parts, await build({ ...optionsOf(entry), plugins: [sourceImportMeta] }), startedAt);
  }
  return pathToFileURL(file);
}
