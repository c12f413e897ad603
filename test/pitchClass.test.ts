import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";

import { pitchClassesOf, approximateFraction } from "../src/theory/pitchClass.js";

const pcsOf = (id: string, note: string) => pitchClassesOf(catalog, catalog.findTuningSystem(id)!, note);
const byName = (id: string, note: string, name: string) => pcsOf(id, note).find((pc) => pc.noteName === name)!;

describe("pitch classes (algorithms.md §3.9 worked examples)", () => {
  it("Ibn Sīnā from yegāh: rāst is 4/3 with every value format", () => {
    const rast = byName("ibnsina_1037", "yegāh", "rāst");
    expect(rast).toMatchObject({
      index: 7,
      octave: 1,
      fraction: "4/3",
      cents: 498.0449991346125,
      decimalRatio: 1.3333333333333333,
      stringLength: 750,
      frequency: 130.6653333333333,
      fretDivision: 250,
      midiNoteDecimal: 47.98047490099577,
      englishName: "C3",
      solfege: "Do3",
      centsDeviation: -1.9525099004224262,
      midiNotePlusCentsDeviation: "48 -2.0",
      ipnReferenceNoteName: "C",
    });
  });

  it("Ibn Sīnā from yegāh: segāh is spelled against E with the floor rule", () => {
    expect(byName("ibnsina_1037", "yegāh", "segāh")).toMatchObject({
      cents: 840.5276617693106,
      midiNoteDecimal: 51.40530152734275,
      englishName: "E-b3",
      centsDeviation: -59.46984726572499,
      midiNotePlusCentsDeviation: "52 -59.5",
    });
  });

  it("cents are negative below the starting note (octave 0)", () => {
    const low = byName("ibnsina_1037", "yegāh", "qarār yegāh");
    expect(low).toMatchObject({ fraction: "1/2", cents: -1200, stringLength: 2000, fretDivision: -1000, frequency: 48.9995 });
    expect(
      pcsOf("ibnsina_1037", "yegāh")
        .filter((pc) => pc.octave === 0)
        .every((pc) => pc.cents < 0),
    ).toBe(true);
  });

  it("yegāh at 97.999 Hz is not exactly MIDI 43", () => {
    expect(byName("ibnsina_1037", "yegāh", "yegāh")).toMatchObject({ midiNoteDecimal: 43.000024909649646, midiNotePlusCentsDeviation: "43 +0.0" });
  });

  it("al-Kindī from rāst: 12 tones, abjad names, Pythagorean limma", () => {
    const pcs = pcsOf("alkindi_874", "rāst");
    expect(pcs).toHaveLength(48);
    expect(pcs[1]).toMatchObject({
      noteName: "qarār zīrgūleh",
      fraction: "128/243",
      cents: -1109.775004326937,
      abjadName: "ب",
      midiNotePlusCentsDeviation: "37 -9.8",
    });
    expect(pcs[24]).toMatchObject({ octave: 2, fraction: "2/1", cents: 1200 });
  });

  it("a string-length tuning system (Ronzevalle from ʿushayrān)", () => {
    expect(byName("ronzevalle_1904", "ʿushayrān", "nīm ʿajam ʿushayrān")).toMatchObject({
      decimalRatio: 1.0291595197255574,
      fraction: "71/69",
      cents: 49.75994075446125,
      fretDivision: 102,
      frequency: 113.20754716981132,
    });
    expect(byName("ronzevalle_1904", "ʿushayrān", "nīm ʿajam")).toMatchObject({ stringLength: 1749, cents: 1249.7599407544612 });
    expect(byName("ronzevalle_1904", "yegāh", "tīk kawasht").midiNotePlusCentsDeviation).toBe("36 -50.8");
  });

  it("a cents-defined tuning system (Mukhtār and Musharrafa 1944)", () => {
    const pcs = pcsOf("mukhtarandmushrrafa_1944", "rāst");
    expect(pcs[0].originalValue).toBe("-1200.000");
    expect(pcs[0].cents).toBe(-1200);
    expect(pcs.find((pc) => pc.octave === 0 && pc.index === 1)!.originalValue).toBe("-1104.030");
  });

  it("approximates decimals with the smallest denominator", () => {
    expect(approximateFraction(1.0291595197255574)).toBe("71/69");
    expect(approximateFraction(1.0569997239932163)).toBe("37/35");
    expect(approximateFraction(0.5145797598627787)).toBe("35/68");
  });
});
