/**
 * Copies the archive's facts from ../shared into data/ and validates them.
 *
 * - tuning systems, maqamat, ajnas, sources and family rules are copied as they are;
 * - the five-octave note-name universe (names, English stems, al-Shawwa classes) is read
 *   from the table in ../shared/spec/algorithms.md §1.5 into data/note-names.json.
 *
 * Usage: npm run import-archive [-- --from <archive dir> --spec <algorithms.md>]
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { resolve, join } from "node:path";
import { readFacts, DATA_DIR } from "../src/data/load.js";

const args = process.argv.slice(2);
const argValue = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const archiveDir = resolve(argValue("--from", "../shared/archive"));
const specFile = resolve(argValue("--spec", "../shared/spec/algorithms.md"));

const COPIED = ["tuningSystems.json", "maqamat.json", "ajnas.json", "sources.json", "maqamat-family-rules.json"];

/** Parses the §1.5 table: `| i | stem | shawwa | octave 0 | … | octave 4 |`. */
export function parseNoteNameTable(markdown: string) {
  const start = markdown.indexOf("### 1.5");
  if (start < 0) throw new Error("algorithms.md: section 1.5 (note-name universe) not found");
  const rows = markdown
    .slice(start)
    .split("\n")
    .filter((line) => /^\|\s*\d+\s*\|/.test(line));
  const stems: string[] = [];
  const shawwaClasses: string[] = [];
  const octaves: string[][] = [[], [], [], [], []];
  rows.forEach((line, row) => {
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length !== 8) throw new Error(`docs/algorithms.md §1.5 row ${row}: expected 8 cells, got ${cells.length}`);
    const [index, stem, shawwa, ...names] = cells;
    if (Number(index) !== row) throw new Error(`docs/algorithms.md §1.5 row ${row}: index ${index} out of order`);
    stems.push(stem);
    shawwaClasses.push(shawwa);
    names.forEach((name, octave) => {
      if (name !== "—" && name !== "") octaves[octave].push(name);
    });
  });
  return { stems, shawwaClasses, octaves };
}

function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  for (const file of COPIED) {
    const parsed = JSON.parse(readFileSync(join(archiveDir, file), "utf8"));
    writeFileSync(join(DATA_DIR, file), JSON.stringify(parsed, null, 2) + "\n");
  }
  const noteNames = parseNoteNameTable(readFileSync(specFile, "utf8"));
  writeFileSync(join(DATA_DIR, "note-names.json"), JSON.stringify(noteNames, null, 2) + "\n");
  const archive = readFacts(DATA_DIR);
  console.log(
    `imported ${archive.tuningSystems.length} tuning systems, ${archive.maqamat.length} maqamat, ` +
      `${archive.ajnas.length} ajnas, ${archive.sources.length} sources, ` +
      `${archive.noteNames.octaves.map((o) => o.length).join("/")} note names per octave into ${DATA_DIR}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
