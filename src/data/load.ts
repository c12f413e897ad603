/** The Node loader: reads the fact files of data/ (or another directory) and validates them. */
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { DataError, FACT_FILES, validateFacts, type Facts, type RawFacts } from "./facts.js";

export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "data");

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new DataError(`${path}: cannot read JSON (${(e as Error).message})`);
  }
}

/** Reads and validates every fact file of `dir`; throws a DataError naming file, record and field. */
export function readFacts(dir: string = DATA_DIR): Facts {
  const raw = Object.fromEntries(Object.entries(FACT_FILES).map(([key, file]) => [key, readJson(join(dir, file))])) as RawFacts;
  return validateFacts(raw, dir);
}
