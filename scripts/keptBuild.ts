/**
 * An esbuild build whose outputs are kept between builds (scripts/keptOutputs.ts): copied from the
 * set kept for the same inputs — the files esbuild read the last time it made this output (its
 * metafile), and the script whose options shape it — else made, and kept. The outputs are files
 * below one folder, their paths recorded beside the inputs, so a copy knows where each goes without
 * esbuild. The bytes are the same either way.
 */
import { build, type BuildOptions, type Metafile, version } from "esbuild";
import { mkdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { copyKept, keep, keyOf, lastRecord, recordOf } from "./keptOutputs.js";

const root = resolve(import.meta.dirname, "..");

/** Where and under which key an output is kept. */
export interface Keeping {
  /** The kind of set (scripts/keptOutputs.ts) and the output's name among them; without a name it is made, neither copied nor kept. */
  kind: string;
  name?: string;
  /** The script whose esbuild options shape the output (path from the repository's root). */
  script: string;
  /** What the output is made from besides its inputs' bytes and esbuild's version (its defines' values, its folder's place). */
  parts: object;
  /** The folder every output is below. */
  outdir: string;
  /** Refuses a fresh output by throwing (a bundle that reaches Node's modules). */
  check?: (metafile: Metafile) => void;
}

/** The outputs, by path from their folder, with their bytes. */
export type Outputs = Record<string, number>;

/** The inputs and the outputs' paths. Outputs of one name made with other parts (a define's value) share the record: their paths and inputs are the same. */
interface Recorded {
  inputs: string[];
  outputs: string[];
}

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((s) => typeof s === "string");
const isRecorded = (value: unknown): value is Recorded => strings((value as Partial<Recorded> | null)?.inputs) && strings((value as Recorded).outputs);

/** Makes `options` (which must write below `keeping.outdir`), or copies the outputs kept for the same inputs. */
export async function keptBuild(options: BuildOptions, keeping: Keeping): Promise<Outputs> {
  const { kind, name, script, outdir } = keeping;
  const parts = { esbuild: version, ...keeping.parts };
  const last = name ? lastRecord(kind, name) : undefined;
  const expected = isRecorded(last) ? last : undefined;
  const known = expected && keyOf(parts, [script, ...expected.inputs]);
  if (known && expected) {
    const targets = expected.outputs.map((path) => join(outdir, path));
    for (const target of targets) mkdirSync(dirname(target), { recursive: true });
    if (copyKept(kind, known, targets)) return Object.fromEntries(expected.outputs.map((path, k) => [path, statSync(targets[k]).size]));
  }
  const result = await build({ ...options, metafile: true });
  keeping.check?.(result.metafile);
  // The metafile names files from the working directory, and a define's value as `<define:NAME>` (in `parts`).
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith("<define:"))
    .map((input) => relative(root, resolve(input)));
  const outputs: Outputs = Object.fromEntries(Object.entries(result.metafile.outputs).map(([path, output]) => [relative(outdir, resolve(path)), output.bytes]));
  const made = name && keyOf(parts, [script, ...inputs]);
  // A set holds files by name: outputs of one name in two folders are made every time.
  const names = new Set(Object.keys(outputs).map((path) => basename(path)));
  // Kept unless an input changed while esbuild read it (the same inputs as expected, another key).
  const sameInputs = expected?.inputs.length === inputs.length && expected.inputs.every((input, k) => input === inputs[k]);
  if (name && made && names.size === Object.keys(outputs).length && (!sameInputs || made === known)) {
    keep(
      kind,
      made,
      Object.keys(outputs).map((path) => join(outdir, path)),
    );
    recordOf(kind, name, { inputs, outputs: Object.keys(outputs) } satisfies Recorded);
  }
  return outputs;
}
