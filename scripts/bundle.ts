/**
 * Single-file ES modules of the fallback for hosts without Node (esbuild; facts inlined;
 * minified; with a source map): build/_worker.js and the Netlify and Lambda adapters over it.
 */
import { build } from "esbuild";
import { resolve } from "node:path";
import type { WrittenShapes } from "../src/serve/worker.js";

const root = resolve(import.meta.dirname, "..");

export interface BundleOptions {
  /** Entry module, relative to the repository root. */
  entry: string;
  outFile: string;
  /** The address the files were rendered for: computed answers link to it too. */
  baseUrl: string;
  /** The shapes of the files the build wrote (manifest.json), which the worker asks its assets binding for. */
  written?: WrittenShapes;
}

/** Bundles one entry for web-standard runtimes; returns the output's size in bytes. */
export async function bundle({ entry, outFile, baseUrl, written }: BundleOptions): Promise<number> {
  const result = await build({
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
    metafile: true,
    logLevel: "silent",
  });
  const nodeImports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.filter((x) => x.path.startsWith("node:")).map((x) => x.path));
  if (nodeImports.length) throw new Error(`${entry} reaches Node modules: ${[...new Set(nodeImports)].join(", ")}`);
  return Object.values(result.metafile.outputs).find((o) => o.entryPoint)?.bytes ?? 0;
}
