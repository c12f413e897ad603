import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";

import { pitchClassesOf, pitchClassNamed, impliedReferenceFrequency } from "../src/theory/pitchClass.js";
import { intervalBetween, detectValueFormat, pitchClassWithValue } from "../src/theory/interval.js";

const pcsOf = (id: string, note: string) => pitchClassesOf(catalog, catalog.findTuningSystem(id)!, note);
const named = (id: string, note: string, name: string) => pitchClassNamed(pcsOf(id, note), name)!;

describe("interval between two pitch classes (algorithms.md §10.1)", () => {
  it("Ibn Sīnā from yegāh: rāst → dūgāh is 9/8 in every format, to the last bit", () => {
    const interval = intervalBetween(named("ibnsina_1037", "yegāh", "rāst"), named("ibnsina_1037", "yegāh", "dūgāh"));
    expect(interval).toEqual({
      fraction: "9/8",
      cents: 203.91000173077492,
      decimalRatio: 1.125,
      stringLength: -83.33333333333337,
      fretDivision: 83.33300000000003,
      pitchClassIndex: named("ibnsina_1037", "yegāh", "dūgāh").index - 7,
      originalValue: "9/8",
      originalValueType: "fraction",
    });
  });

  it("going down gives the inverse ratio and negative cents", () => {
    const down = intervalBetween(named("ibnsina_1037", "yegāh", "dūgāh"), named("ibnsina_1037", "yegāh", "rāst"));
    expect(down.fraction).toBe("8/9");
    expect(down.cents).toBeLessThan(0);
  });

  it("the ratio of two fraction pitch classes is exact and reduced", () => {
    // al-Lādhiqī from yegāh: būselīk/ʿushshāq (27/16) → zīrgūleh (1024/729), as recorded.
    const interval = intervalBetween(named("alladhiqi_1495", "yegāh", "būselīk/ʿushshāq"), named("alladhiqi_1495", "yegāh", "zīrgūleh"));
    expect(interval.fraction).toBe("16384/19683");
    expect(interval.decimalRatio).toBe(16384 / 19683);
  });

  it("a cents tuning writes the interval's originalValue in cents with two decimals", () => {
    const pcs = pcsOf("angloeuropean_1700", "ʿushayrān");
    const interval = intervalBetween(pcs[12], pcs[14]);
    expect(interval.originalValueType).toBe("cents");
    expect(interval.originalValue).toBe(interval.cents.toFixed(2));
  });

  it("the reference frequency is recomputed from a pitch class, float noise included (§10.2)", () => {
    expect(impliedReferenceFrequency(named("ibnmunajjim_912", "yegāh", "dūgāh"))).toBe(97.99899999999998);
  });
});

describe("bare values (algorithms.md §10.4)", () => {
  it("detects the format by look", () => {
    expect(detectValueFormat("3/2")).toBe("fraction");
    expect(detectValueFormat("4:3")).toBe("fraction");
    expect(detectValueFormat("1")).toBe("decimalRatio");
    expect(detectValueFormat("1500")).toBe("fretDivision");
    expect(detectValueFormat("701.955")).toBe("cents");
    // Not a fraction by the regex, so parseFloat reads 0: cents.
    expect(detectValueFormat("0/0")).toBe("cents");
    expect(detectValueFormat("-5")).toBeUndefined();
    expect(detectValueFormat("abc")).toBeUndefined();
  });

  it("matches fractions as written and numbers within 0.0001, first hit in octave-then-index order", () => {
    const pcs = pcsOf("ibnsina_1037", "yegāh");
    expect(pitchClassWithValue(pcs, "4/3", "fraction")?.noteName).toBe("rāst");
    expect(pitchClassWithValue(pcs, "4:3", "fraction")?.noteName).toBe("rāst");
    expect(pitchClassWithValue(pcs, "8/6", "fraction")).toBeUndefined();
    expect(pitchClassWithValue(pcs, "498.04499", "cents")?.noteName).toBe("rāst");
    expect(pitchClassWithValue(pcs, "498.04", "cents")).toBeUndefined();
    expect(pitchClassWithValue(pcs, "250", "fretDivision")?.noteName).toBe("rāst");
    expect(pitchClassWithValue(pcs, "1", "decimalRatio")).toMatchObject({ octave: 1, index: 0 });
  });
});
