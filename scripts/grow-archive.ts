/**
 * A synthetic archive `factor` times today's size, for measuring how the build grows: every tuning
 * system copied under a new creator (so its derived id is new), with copies of the sources it
 * cites. The maqāmāt and ajnās stay as they are: each is rendered in every tuning system, so the
 * build's work grows with the tuning systems.
 *
 * Usage: npx tsx scripts/grow-archive.ts OUT_DIR [FACTOR]   (reads DATA_DIR, default data/)
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR, readFacts } from "../src/data/load.js";
import { FACT_FILES, type Facts } from "../src/data/facts.js";
import type { SourceRecord, TuningSystemRecord } from "../src/data/schemas.js";
import { tuningSystemIdOf } from "../src/theory/tuningSystem.js";

/** Roman numerals for copy marks: copy 1 is "II", the original being the first. */
const roman = (n: number): string => ["II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][n - 1] ?? `C${n + 1}`;

/** The facts with `factor - 1` copies of every tuning system and of the sources they cite. */
export function grownFacts(facts: Facts, factor: number): Facts {
  const cited = new Set(facts.tuningSystems.flatMap((ts) => ts.sourcePageReferences.map((r) => r.sourceId)));
  const tuningSystems: TuningSystemRecord[] = [...facts.tuningSystems];
  const sources: SourceRecord[] = [...facts.sources];
  for (let copy = 1; copy < factor; copy++) {
    const mark = roman(copy);
    const sourceId = (id: string) => `${id}_${mark.toLowerCase()}`;
    for (const s of facts.sources) if (cited.has(s.id)) sources.push({ ...s, id: sourceId(s.id), titleEnglish: `${s.titleEnglish} (${mark})` });
    for (const ts of facts.tuningSystems) {
      const record = { ...ts, creatorEnglish: `${ts.creatorEnglish} ${mark}`, creatorArabic: `${ts.creatorArabic} ${mark}` };
      tuningSystems.push({
        ...record,
        id: tuningSystemIdOf(record),
        sourcePageReferences: ts.sourcePageReferences.map((r) => ({ ...r, sourceId: sourceId(r.sourceId) })),
      });
    }
  }
  return { ...facts, tuningSystems, sources };
}

/** Writes the facts of `fromDir` grown `factor` times into `outDir` (the other fact files copied as they are). */
export function writeGrownArchive(fromDir: string, outDir: string, factor: number): Facts {
  const grown = grownFacts(readFacts(fromDir), factor);
  mkdirSync(outDir, { recursive: true });
  cpSync(fromDir, outDir, { recursive: true });
  writeFileSync(join(outDir, FACT_FILES.tuningSystems), `${JSON.stringify(grown.tuningSystems, null, 2)}\n`);
  writeFileSync(join(outDir, FACT_FILES.sources), `${JSON.stringify(grown.sources, null, 2)}\n`);
  return grown;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [outDir, factorArg = "2"] = process.argv.slice(2);
  const factor = Number(factorArg);
  if (!outDir || !Number.isInteger(factor) || factor < 1) {
    console.error("usage: npx tsx scripts/grow-archive.ts OUT_DIR [FACTOR ≥ 1]");
    process.exit(2);
  }
  const grown = writeGrownArchive(process.env.DATA_DIR ?? DATA_DIR, outDir, factor);
  console.log(`grow-archive: ${grown.tuningSystems.length} tuning systems, ${grown.sources.length} sources → ${outDir}`);
}
