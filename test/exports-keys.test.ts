/**
 * Every keyboard mapping of every maqām and jins rendering the archive computes (not only the
 * pre-rendered ones): degree 0 on a key within 0.75 semitone of its pitch (docs/exports.md),
 * the pitch read from the file's own reference frequency.
 */
import { describe, expect, it } from "vitest";
import { catalog } from "./support/catalog.js";
import { renderingFiles } from "../src/api/exports/prerender.js";
import { fetchText, parseKbm, type Problems } from "./support/exportChecks.js";

const midiOf = (hz: number): number => 69 + 12 * Math.log2(hz / 440);

describe("every computed rendering's .kbm", () => {
  it.each(["maqam", "jins"] as const)(
    "%s: degree 0 on the key nearest its pitch",
    (kind) => {
      const problems: Problems = [];
      let count = 0;
      for (const path of renderingFiles(catalog, { full: true }, kind)) {
        // The linear mappings; a -names.kbm has the same degree 0 (checked for every pre-rendered one by exports-maqamat and -ajnas).
        if (!path.endsWith(".kbm") || path.endsWith("-names.kbm")) continue;
        count++;
        const kbm = parseKbm(fetchText(path, problems));
        const midi = midiOf(kbm.referenceFrequency);
        if (kbm.referenceKey !== kbm.middleKey) problems.push(`${path}: reference key ${kbm.referenceKey} is not degree 0's key ${kbm.middleKey}`);
        if (!(Math.abs(kbm.middleKey - midi) <= 0.75)) problems.push(`${path}: degree 0 (MIDI ${midi.toFixed(2)}) on key ${kbm.middleKey}`);
      }
      expect(count).toBeGreaterThan(kind === "maqam" ? 2000 : 1000);
      expect(problems.length, problems.slice(0, 5).join("\n")).toBe(0);
    },
    120_000,
  );
});
