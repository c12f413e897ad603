/** scripts/keptOutputs.ts: outputs kept by a SHA-256 of what they are made from; a bundle copied from them is the bundle made. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { bundle, bundleParts } from "../scripts/bundle.js";
import { keptBuild } from "../scripts/keptBuild.js";
import { version } from "esbuild";
import { copyKept, keep, keyOf, lastRecord } from "../scripts/keptOutputs.js";

const root = resolve(import.meta.dirname, "..");
const cacheOf = (kind: string) => join(root, "node_modules", ".cache", "build-outputs", kind);
/** A kind of this run's own, so that the sets of the builds are neither read nor pruned. */
const KIND = `test-${process.pid}`;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "maqam-kept-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const kind of [KIND, `${KIND}-pruned`]) rmSync(cacheOf(kind), { recursive: true, force: true });
});

describe("kept outputs", () => {
  it("name a set by its parts and the bytes of its inputs; a missing input gives no key", () => {
    const input = join(dir, "input.txt");
    writeFileSync(input, "one");
    const from = relative(root, input);
    const key = keyOf({ a: 1 }, [from]);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(keyOf({ a: 1 }, [from])).toBe(key);
    expect(keyOf({ a: 2 }, [from])).not.toBe(key);
    writeFileSync(input, "two");
    expect(keyOf({ a: 1 }, [from])).not.toBe(key);
    expect(keyOf({ a: 1 }, [relative(root, join(dir, "absent.txt"))])).toBeUndefined();
  });

  it("copy a kept set's files byte for byte, and refuse a set not kept whole", () => {
    const made = join(dir, "made");
    mkdirSync(made, { recursive: true });
    const files = ["a.js", "a.js.map"].map((name) => join(made, name));
    writeFileSync(files[0], "code");
    writeFileSync(files[1], "map");
    keep(KIND, "k1", files);
    const copy = join(dir, "copy");
    mkdirSync(copy, { recursive: true });
    const targets = ["a.js", "a.js.map"].map((name) => join(copy, name));
    expect(copyKept(KIND, "k1", targets)).toBe(true);
    expect(targets.map((t) => readFileSync(t, "utf8"))).toEqual(["code", "map"]);
    expect(copyKept(KIND, "k2", targets)).toBe(false);
    expect(copyKept(KIND, "k1", [...targets, join(copy, "other.js")])).toBe(false);
  });

  it("keep the 16 sets used last of a kind", () => {
    const PRUNED = `${KIND}-pruned`;
    const file = join(dir, "one.txt");
    writeFileSync(file, "x");
    for (let k = 0; k < 16; k++) {
      keep(PRUNED, `set-${k}`, [file]);
      // Seconds apart, the first set the oldest.
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, k));
      utimesSync(join(cacheOf(PRUNED), `set-${k}`), at, at);
    }
    // Set 0 used again: it stays, and each set kept after it prunes the oldest of the others.
    mkdirSync(join(dir, "again"), { recursive: true });
    expect(copyKept(PRUNED, "set-0", [join(dir, "again", "one.txt")])).toBe(true);
    for (let k = 16; k < 20; k++) keep(PRUNED, `set-${k}`, [file]);
    const sets = readdirSync(cacheOf(PRUNED)).filter((name) => name.startsWith("set-"));
    expect(sets.length).toBe(16);
    expect(sets).toContain("set-0");
    expect(sets).toContain("set-19");
    for (const gone of ["set-1", "set-2", "set-3", "set-4"]) expect(sets).not.toContain(gone);
    expect(sets).toContain("set-5");
  });

  it("give the Lambda's bundle, copied from its kept set, as esbuild makes it", async () => {
    const entry = "src/serve/lambda.ts";
    const baseUrl = "https://kept.example.org";
    const made = join(dir, "made-bundle", "_lambda", "index.mjs");
    const copied = join(dir, "copied-bundle", "_lambda", "index.mjs");
    const bytes = await bundle({ entry, outFile: made, baseUrl, kept: false });
    // Made (or copied) and kept, then copied: the same bytes as made without the cache, source map included.
    for (let k = 0; k < 2; k++) expect(await bundle({ entry, outFile: copied, baseUrl })).toBe(bytes);
    for (const suffix of ["", ".map"]) expect(readFileSync(copied + suffix)).toEqual(readFileSync(made + suffix));
    const { inputs, outputs } = lastRecord("bundles", "src-serve-lambda-ts") as { inputs: string[]; outputs: string[] };
    expect(inputs).toContain("src/serve/lambda.ts");
    expect(outputs).toEqual(["index.mjs.map", "index.mjs"]);
    const key = keyOf({ esbuild: version, ...bundleParts({ entry, outFile: copied, baseUrl }) }, ["scripts/bundle.ts", ...inputs]);
    expect(key && existsSync(join(cacheOf("bundles"), key, "index.mjs"))).toBe(true);
  });

  it("copy an esbuild build's outputs, chunks in their folders, while its inputs are unchanged, and make them again when one changes", async () => {
    const src = join(dir, "src");
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, "main.ts"), 'export const shown = async () => (await import("./late.js")).late * 2;\n');
    writeFileSync(join(src, "late.ts"), "export const late = 21;\n");
    const options = (outdir: string) => ({
      entryPoints: { main: join(src, "main.ts") },
      outdir,
      bundle: true,
      format: "esm" as const,
      splitting: true,
      chunkNames: "chunks/[name]-[hash]",
      logLevel: "silent" as const,
    });
    const keeping = (outdir: string) => ({ kind: KIND, name: "split", script: "scripts/keptBuild.ts", parts: { test: 1 }, outdir });
    const made = join(dir, "split-made");
    const outputs = await keptBuild(options(made), keeping(made));
    const paths = Object.keys(outputs).sort();
    expect(paths[0]).toMatch(/^chunks\/late-[A-Z0-9]+\.js$/);
    expect(paths[1]).toBe("main.js");
    for (const path of paths) expect(readFileSync(join(made, path)).length).toBe(outputs[path]);
    // The kept set's chunk marked: a copy shows the mark, so the outputs were copied, not made.
    const { inputs } = lastRecord(KIND, "split") as { inputs: string[] };
    const key = keyOf({ esbuild: version, test: 1 }, ["scripts/keptBuild.ts", ...inputs]) ?? "";
    const chunk = paths[0].split("/")[1];
    writeFileSync(join(cacheOf(KIND), key, chunk), "/* kept */");
    const copied = join(dir, "split-copied");
    // Measured as copied: the marked chunk's bytes.
    expect(await keptBuild(options(copied), keeping(copied))).toEqual({ ...outputs, [paths[0]]: "/* kept */".length });
    expect(readFileSync(join(copied, paths[0]), "utf8")).toBe("/* kept */");
    expect(readFileSync(join(copied, "main.js"))).toEqual(readFileSync(join(made, "main.js")));
    // An input changed: made again, with its new bytes.
    writeFileSync(join(src, "late.ts"), "export const late = 22;\n");
    const again = join(dir, "split-again");
    const remade = await keptBuild(options(again), keeping(again));
    const [late] = Object.keys(remade).filter((path) => path.startsWith("chunks/"));
    expect(readFileSync(join(again, late), "utf8")).toContain("22");
  });
});
