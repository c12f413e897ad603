/**
 * Single-file ES modules of the fallback for hosts without Node (esbuild; facts inlined;
 * minified; with a source map): build/_worker.js and the Netlify and Lambda adapters over it.
 * Kept between builds by what they are made from (scripts/keptOutputs.ts).
 */
import type { Metafile } from "esbuild";
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import type { WrittenShapes } from "../src/serve/worker.js";
import { keptBuild } from "./keptBuild.js";

const root = resolve(import.meta.dirname, "..");
/** This file: its esbuild options shape every bundle. */
const BUNDLER = "scripts/bundle.ts";

export interface BundleOptions {
  /** Entry module, relative to the repository root. */
  entry: string;
  outFile: string;
  /** The address the files were rendered for: computed answers link to it too. */
  baseUrl: string;
  /** The shapes of the files the build wrote (manifest.json), which the worker asks its assets binding for. */
  written?: WrittenShapes;
  /** Copied from the sets kept for the same inputs, and kept (default); not for a bundle made only to be measured in a temporary folder. */
  kept?: boolean;
}

/** What a bundle is made from besides its inputs' bytes. The source map names the inputs from the output's folder, and the output names its map. */
export const bundleParts = ({ entry, outFile, baseUrl, written }: BundleOptions) => ({
  entry,
  baseUrl,
  written,
  fromOutput: relative(dirname(outFile), root),
  name: basename(outFile),
});

/** Bundles one entry for web-standard runtimes, or copies the bundle kept for the same inputs; returns the output's size in bytes. */
export async function bundle({ entry, outFile, baseUrl, written, kept = true }: BundleOptions): Promise<number> {
  // Entries of the repository are kept (not those of a temporary folder, which no build asks for again).
  const from = relative(root, resolve(root, entry));
  const name = !kept || from.startsWith("..") || isAbsolute(from) ? undefined : from.replace(/\W+/g, "-");
  const outputs = await keptBuild(
    {
      entryPoints: [resolve(root, entry)],
      outfile: outFile,
      bundle: true,
      format: "esm",
      platform: "neutral",
      // Packages that also ship Node builds resolve to their browser/ES builds.
      mainFields: ["browser", "module", "main"],
      conditions: ["worker", "browser", "import"],
      target: "es2022",
      minify: true,
      sourcemap: true,
      legalComments: "none",
      define: { BUILD_BASE_URL: JSON.stringify(baseUrl), ...(written ? { BUILD_WRITTEN: JSON.stringify(written) } : {}) },
      logLevel: "silent",
    },
    { kind: "bundles", name, script: BUNDLER, parts: bundleParts({ entry, outFile, baseUrl, written }), outdir: dirname(outFile), check: nodeFree(entry) },
  );
  return outputs[basename(outFile)] ?? 0;
}

/** Refuses a bundle that reaches Node's modules: the runtimes it is for have none. */
const nodeFree = (entry: string) => (metafile: Metafile) => {
  const nodeImports = Object.values(metafile.inputs).flatMap((i) => i.imports.filter((x) => x.path.startsWith("node:")).map((x) => x.path));
  if (nodeImports.length) throw new Error(`${entry} reaches Node modules: ${[...new Set(nodeImports)].join(", ")}`);
};
