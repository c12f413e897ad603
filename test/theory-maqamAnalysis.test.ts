/**
 * Worked examples of the maqām analysis modules (algorithms.md §6, §7, §12, §14.3): ajnās per
 * degree, family, named degrees, re-spelling and suyūr, for maqām rāst and bayyāt in Ibn Sīnā's
 * and al-Kindī's tuning systems, an asymmetric descending scale and a scale wider than an octave.
 */
import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";

import type { Maqam } from "../src/theory/entity.js";
import { pitchClassesOf } from "../src/theory/pitchClass.js";
import { transpositionsOf } from "../src/theory/transposition.js";
import { isPossibleIn } from "../src/theory/realisation.js";
import { ajnasOf, octaveSlice, type JinsInstance } from "../src/theory/jinsDetection.js";
import { familyOf, familyNameOfJins } from "../src/theory/family.js";
import { namedDegreesOf, romanNumeral, descendingNumeral } from "../src/theory/degrees.js";
import { respellScale, sequentialEnglishNames } from "../src/theory/respell.js";
import { suyurOf } from "../src/theory/suyur.js";

const maqam = (idName: string) => catalog.findMaqam(idName)!.entity as Maqam;
const names = (list: (JinsInstance | null)[]) => list.map((j) => j?.name ?? null);

function realise(idName: string, tsId: string, startingNote: string, tonic?: string) {
  const ts = catalog.findTuningSystem(tsId)!;
  const m = maqam(idName);
  const list = transpositionsOf(catalog, m, ts, startingNote, 5);
  const t = tonic === undefined ? list[0] : list.find((x) => x.tonic === tonic)!;
  const pcs = pitchClassesOf(catalog, ts, startingNote);
  const ajnas = ajnasOf(catalog, t, ts, startingNote, 5);
  return { ts, m, list, t, pcs, ajnas };
}

describe("ajnās per degree (§6.4)", () => {
  it("maqām rāst, Ibn Sīnā from yegāh: the §6.4 tables", () => {
    const { ajnas } = realise("maqam_rast", "ibnsina_1037", "yegāh");
    expect(names(ajnas.ascending)).toEqual([
      "jins rāst",
      "jins bayyāt",
      "jins segāh",
      "jins mahrān al-chahārgāh",
      "jins rāst al-nawā",
      "jins bayyāt al-ḥusaynī",
      // awj shares ʿirāq's modal slot, so the jins keeps its bare name.
      "jins ʿirāq",
    ]);
    expect(names(ajnas.descending)).toEqual([
      "jins mahrān",
      "jins kurd al-ḥusaynī",
      "jins nahāwand al-nawā",
      "jins ʿajam ʿushayrān al-chahārgāh",
      "jins segāh",
      "jins bayyāt",
      "jins rāst",
    ]);
    expect(ajnas.ascending[4]).toMatchObject({ idName: "jins_rast_al_nawa", isTransposed: true });
    expect(ajnas.ascending[6]).toMatchObject({ idName: "jins_iraq", isTransposed: false });
    expect(ajnas.ascending[0]!.cells.map((pc) => pc.noteName)).toEqual(["rāst", "dūgāh", "segāh", "chahārgāh"]);
  });

  it("maqām rāst, Ibn Sīnā from ʿushayrān: no jins on chahārgāh ascending", () => {
    const { ajnas } = realise("maqam_rast", "ibnsina_1037", "ʿushayrān");
    expect(names(ajnas.ascending)).toEqual(["jins rāst", "jins bayyāt", "jins segāh", null, "jins rāst al-nawā", "jins bayyāt al-ḥusaynī", "jins ʿirāq"]);
    expect(ajnas.descending[3]?.name).toBe("jins chahārgāh (al-Shawwā)");
  });

  it("maqām bayyāt, Ibn Sīnā from both starting notes", () => {
    const fromYegah = realise("maqam_bayyat", "ibnsina_1037", "yegāh").ajnas;
    expect(names(fromYegah.ascending)).toEqual([
      "jins bayyāt",
      "jins segāh",
      "jins ʿajam ʿushayrān al-chahārgāh",
      "jins nahāwand al-nawā",
      "jins kurd al-ḥusaynī",
      "jins mahrān",
      "jins rāst",
    ]);
    // A symmetric scale: the descending ajnās are the ascending ones read from the top.
    expect(names(fromYegah.descending)).toEqual(names(fromYegah.ascending).reverse());
    const fromUshayran = realise("maqam_bayyat", "ibnsina_1037", "ʿushayrān").ajnas;
    expect(fromUshayran.ascending[2]?.name).toBe("jins chahārgāh (al-Shawwā)");
  });

  it("al-Kindī's 12 tones lack segāh: rāst and bayyāt are not realisable, their partial patterns find few ajnās", () => {
    for (const startingNote of ["ʿushayrān", "yegāh", "rāst"]) {
      const ts = catalog.findTuningSystem("alkindi_874")!;
      expect(isPossibleIn(catalog, maqam("maqam_rast"), ts, startingNote)).toBe(false);
      expect(isPossibleIn(catalog, maqam("maqam_bayyat"), ts, startingNote)).toBe(false);
      const { ajnas } = realise("maqam_rast", "alkindi_874", startingNote);
      expect(names(ajnas.ascending)).toEqual([null, null, null, null, null]);
    }
  });

  it("a scale wider than an octave is continued after the slice (maqām suzdal, al-Fārābī 950g from ʿushayrān)", () => {
    const { t, ajnas } = realise("maqam_suzdal", "alfarabi_950g", "ʿushayrān");
    expect(t.ascending).toHaveLength(11);
    // ʿushayrān, ʿajam ʿushayrān and zīrgūleh lie more than an octave below muḥayyar.
    expect(octaveSlice(t.ascending)).toBe(3);
    expect(names(ajnas.ascending)).toEqual([
      "jins ḥijāz al-ʿushayrān",
      null,
      null,
      "jins ḥiṣār",
      null,
      null,
      null,
      "jins ḥijāz al-ḥusaynī",
      null,
      null,
      // Read upwards into the continuation an octave higher.
      "jins ḥiṣār",
    ]);
  });
});

describe("family (§7.1)", () => {
  it("classifies by the jins on degree I", () => {
    expect(familyOf(catalog, realise("maqam_rast", "ibnsina_1037", "yegāh").t, catalog.findTuningSystem("ibnsina_1037")!, "yegāh", 5)).toEqual({
      idName: "rast",
      name: "rāst",
    });
    expect(familyOf(catalog, realise("maqam_bayyat", "ibnsina_1037", "ʿushayrān").t, catalog.findTuningSystem("ibnsina_1037")!, "ʿushayrān", 5)).toEqual({
      idName: "bayyat",
      name: "bayyāt",
    });
  });

  it("names families after the jins (§7.1 steps 2-4)", () => {
    expect(familyNameOfJins("jins ṣabā zamzam al-nawā")).toBe("ṣabā zamzam");
    expect(familyNameOfJins("jins būselīk (al-Shawwā)")).toBe("būselīk");
    expect(familyNameOfJins("jins ʿajam ʿushayrān al-chahārgāh")).toBe("ʿajam");
    expect(familyNameOfJins("jins ḥijāz kār kurd")).toBe("ḥijāz");
    expect(familyNameOfJins("jins awj ʾārāʾ (al-Ḥilū)")).toBe("awj ʾārāʾ");
    expect(familyNameOfJins("jins athar kurd")).toBe("athar kurd");
    expect(familyNameOfJins("jins nawā athar al-dūgāh")).toBe("athar");
    // Everything from the first " al-" goes, even inside a name.
    expect(familyNameOfJins("jins rāḥat al-arwāḥ")).toBe("rāḥat");
  });

  it("keeps families the specification does not list: maqām nikrīz is athar, rāḥat al-arwāḥ is ḥuzām", () => {
    const nikriz = realise("maqam_nikriz", "angloeuropean_1800", "yegāh");
    expect(familyOf(catalog, nikriz.t, nikriz.ts, "yegāh", 5)).toEqual({ idName: "athar", name: "athar" });
    const rahat = realise("maqam_rahat_alarwah", "alladhiqi_1495", "ʿushayrān");
    expect(rahat.ajnas.ascending[0]?.jins.name).toBe("jins huzām");
    expect(familyOf(catalog, rahat.t, rahat.ts, "ʿushayrān", 5)).toEqual({ idName: "huzam", name: "huzām" });
  });

  it("al-Kindī: no jins on degree I of rāst", () => {
    const { t, ts } = realise("maqam_rast", "alkindi_874", "rāst");
    expect(familyOf(catalog, t, ts, "rāst", 5)).toEqual({ idName: "no_jins", name: "no jins" });
  });
});

describe("named degrees (§6.5) and numerals (§6.6)", () => {
  it("numerals up to XV, then decimals; compare routes stop at XIII", () => {
    expect(romanNumeral(0)).toBe("I");
    expect(romanNumeral(14)).toBe("XV");
    expect(romanNumeral(15)).toBe("16");
    expect(romanNumeral(13, 13)).toBe("14");
    expect(descendingNumeral(0, 7)).toBe("VII");
    expect(descendingNumeral(6, 7)).toBe("I");
  });

  it("maqām rāst in its analytical form", () => {
    const { m, t, pcs, ajnas } = realise("maqam_rast", "ibnsina_1037", "yegāh");
    const d = namedDegreesOf(m, t, pcs, ajnas);
    expect(d.primaryJins).toEqual([{ noteName: "rāst", degree: "I", jins: ajnas.ascending[0] }]);
    expect(d.secondaryJins?.map((e) => [e.noteName, e.degree, e.jins?.name])).toEqual([["nawā", "V", "jins rāst al-nawā"]]);
    expect(d.tertiaryJins).toBeNull();
    expect(d.ghammaz).toEqual([{ noteName: "nawā", degree: "V", jins: null }]);
  });

  it("move with the transposition: rāst on chahārgāh (+7 cells)", () => {
    const { m, t, pcs, ajnas } = realise("maqam_rast", "ibnsina_1037", "yegāh", "chahārgāh");
    const d = namedDegreesOf(m, t, pcs, ajnas);
    expect(d.primaryJins?.map((e) => [e.noteName, e.degree, e.jins?.name])).toEqual([["chahārgāh", "I", "jins rāst al-chahārgāh"]]);
    // kurdān shares rāst's modal slot, so the jins is bare.
    expect(d.secondaryJins?.map((e) => [e.noteName, e.degree, e.jins?.name])).toEqual([["kurdān", "V", "jins rāst"]]);
  });

  it("maqām bayyāt: secondary jins on the third degree", () => {
    const { m, t, pcs, ajnas } = realise("maqam_bayyat", "ibnsina_1037", "yegāh");
    const d = namedDegreesOf(m, t, pcs, ajnas);
    expect(d.secondaryJins?.map((e) => [e.noteName, e.degree, e.jins?.name])).toEqual([["chahārgāh", "III", "jins ʿajam ʿushayrān al-chahārgāh"]]);
    expect(d.ghammaz?.map((e) => [e.noteName, e.degree])).toEqual([["nawā", "IV"]]);
  });
});

describe("re-spelling (§14.3)", () => {
  it("maqām rāst keeps its plain letters; the asymmetric descent spells ʿajam Bb", () => {
    const { t } = realise("maqam_rast", "ibnsina_1037", "yegāh");
    const r = respellScale(t.ascending, t.descending);
    expect(r.ascending.map((pc) => pc.englishName)).toEqual(["C3", "D3", "E-b3", "F3", "G3", "A3", "B-b3"]);
    expect(r.descending.map((pc) => pc.englishName)).toEqual(["Bb3", "A3", "G3", "F3", "E-b3", "D3", "C3"]);
    expect(r.ascending[0]).toMatchObject({ ipnReferenceNoteName: "C", centsDeviation: -1.9525099004224262, midiNotePlusCentsDeviation: "48 -2.0" });
  });

  it("consecutive letters through enharmonics: al-Kindī's F for the missing third becomes E#", () => {
    const { t } = realise("maqam_rast", "alkindi_874", "rāst");
    expect(sequentialEnglishNames(t.ascending, "ascending")).toEqual(["C3", "D3", "E#3", "G3", "A3"]);
  });

  it("two notes on one key: the lower is spelled as a flat (al-Lāmī 2025, maqām yegāh)", () => {
    const { t } = realise("maqam_yegah", "allami_2025", "rāst");
    const r = respellScale(t.ascending, t.descending);
    const chahargah = r.descending.find((pc) => pc.noteName === "chahārgāh")!;
    expect(chahargah).toMatchObject({
      englishName: "F3",
      ipnReferenceNoteName: "Fb",
      centsDeviation: -3.9079524117116917,
      midiNotePlusCentsDeviation: "53 -3.9",
    });
    expect(r.descending.find((pc) => pc.noteName === "segāh")).toMatchObject({ ipnReferenceNoteName: "Eb", midiNotePlusCentsDeviation: "51 +54.9" });
  });

  it("each direction takes its keys from its own spelling (Meshshāqa 1899 from yegāh, maqām ḥijāz on tīk būselīk)", () => {
    const { t } = realise("maqam_hijaz", "meshshaqa_1899", "yegāh", "tīk būselīk");
    const r = respellScale(t.ascending, t.descending);
    const spelled = (cells: typeof r.ascending) => cells.map((pc) => `${pc.englishName} ${pc.ipnReferenceNoteName}`);
    expect(spelled(r.ascending)).toEqual(["F-b3 Fb", "F-#3 F", "A-b3 Ab", "A-#3 A", "C-b4 C", "Db4 Db", "D-#4 D"]);
    // Going down, shahnāz is not sung: nīm shahnāz (C#-4) meets shahnāz under its own name C#4, one
    // key, and as the lower of the two takes the flat of C. Shared with the ascent it was Db, which
    // put two pitches on C# and made every such transposition incompatible with the 12-tone sets.
    expect(spelled(r.descending)).toEqual(["D-#4 D", "C#-4 Cb", "C-b4 C", "A-#3 A", "A-b3 Ab", "F-#3 F", "F-b3 Fb"]);
  });
});

describe("suyūr (§12.2)", () => {
  it("are stored stops in the analytical form", () => {
    const { m, t, pcs } = realise("maqam_rast", "ibnsina_1037", "yegāh");
    expect(suyurOf(m, t, pcs)).toBe(m.record.suyur);
  });

  it("move their notes and starting notes with the transposition", () => {
    const { m, t, pcs } = realise("maqam_rast", "ibnsina_1037", "yegāh", "chahārgāh");
    const [alShawwa] = suyurOf(m, t, pcs);
    expect(alShawwa.stops).toEqual([
      { type: "jins", value: "19", startingNote: "chahārgāh" },
      { type: "direction", value: "ascending" },
      { type: "note", value: "kurdān" },
      { type: "direction", value: "ascending" },
      { type: "direction", value: "descending" },
      { type: "note", value: "chahārgāh" },
    ]);
    expect(m.record.suyur[0].stops[0].startingNote).toBe("rāst");
  });
});
