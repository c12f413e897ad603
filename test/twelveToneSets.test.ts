/** Reading a 12-tone set from C (algorithms.md §11.4, `startSetFromC`): worked example in the Cairo tuning (1929) from yegāh. */
import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { setFromC, twelveToneGrouping } from "../src/theory/twelveToneSets.js";

describe("a 12-tone set read from C", () => {
  const ts = catalog.findTuningSystem("cairocongresstuningcommittee_1929")!;
  const huzam = twelveToneGrouping(catalog, ts, "yegāh", 5).sets.find((s) => s.source.transposition.idName === "maqam_huzam")!;
  const listed = (cells: Iterable<[string, { noteName: string; octave: number }]>) => [...cells].map(([key, pc]) => `${key} ${pc.noteName} ${pc.octave}`);

  // The keys from the tonic up to B, the same both ways.
  const segahToAwj = ["E segāh 1", "F chahārgāh 1", "F# ḥijāz 1", "G nawā 2", "G# ḥiṣār 2", "A ḥusaynī 2", "A# ʿajam 2", "B awj 2"];

  it("walks up from the tonic, segāh (E), into octave 2", () => {
    expect(listed(huzam.pitchClasses)).toEqual([...segahToAwj, "C kurdān 2", "C# nīm shahnāz 2", "D muḥayyar 2", "D# sunbuleh/zawāl 2"]);
  });

  it("takes the keys below the tonic from octave 1 by reference note name, and lists them from C", () => {
    // D is tīk zīrgūleh (647.2 cents), the first D-referenced note of octave 1, not dūgāh (702 cents).
    expect(listed(setFromC(catalog, huzam.pitchClasses, ts, "yegāh"))).toEqual([
      "C rāst 1",
      "C# nīm zīrgūleh 1",
      "D tīk zīrgūleh 1",
      "D# kurdī 1",
      ...segahToAwj,
    ]);
  });
});
