import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { findStartingNote } from "../src/theory/tuningSystem.js";
import type { Maqam } from "../src/theory/entity.js";
import { toIdName } from "../src/theory/idName.js";
import { recordedCases, firstDifference } from "./support/recorded.js";
import { transpositionsOf } from "../src/theory/transposition.js";
import { modulationsBlock, lowerOctaveModulationsBlock } from "../src/api/maqamat/modulationBlocks.js";
import {
  MODULATION_CATEGORIES,
  modulationsOf,
  modulationCounts,
  lowerOctaveModulations,
  twoPartNoteBelowThird,
  type ModulationLists,
} from "../src/theory/modulation.js";
import { pitchClassesOf } from "../src/theory/pitchClass.js";

const maqam = (idName: string): Maqam => catalog.maqamat.find((m) => m.idName === idName)!;

/** Modulations of a maqām's analytical form (or the rendering on `tonic`). */
function modulationsIn(tuningSystem: string, startingNote: string, idName: string, tonic?: string) {
  const ts = catalog.findTuningSystem(tuningSystem)!;
  const m = maqam(idName);
  const list = transpositionsOf(catalog, m, ts, startingNote, 5);
  const source = tonic ? list.find((t) => t.tonic === tonic)! : list[0];
  return { ts, m, source, modulations: modulationsOf(catalog, m, source, ts, startingNote, 5) };
}

const lengths = (lists: ModulationLists) => MODULATION_CATEGORIES.map((k) => lists[k].length);
const idNames = (lists: ModulationLists, k: keyof ModulationLists) => lists[k].map((t) => t.transposition.idName);

describe("al-Shawwā modulations (algorithms.md §8)", () => {
  describe("maqām rāst, ibnsina_1037 / yegāh (the §8.6 worked example)", () => {
    const { modulations } = modulationsIn("ibnsina_1037", "yegāh", "maqam_rast");

    it("has 64 maqām modulations: I 11, III 8, IV 7, V 17, VI-asc 21", () => {
      expect(lengths(modulations.maqamat)).toEqual([11, 8, 0, 7, 17, 21, 0, 0]);
    });

    it("has 54 jins modulations: I 13, III 7, IV 9, V 13, VI-asc 12", () => {
      expect(lengths(modulations.ajnas)).toEqual([13, 7, 0, 9, 13, 12, 0, 0]);
    });

    it("finds kurdī as the two-part note below the third, unused because III exists", () => {
      expect(modulations.noteName2pBelowThird).toBe("kurdī");
      expect(modulations.maqamat.altThirdDegree).toEqual([]);
    });

    it("counts in stats are the summed lengths on the analytical form", () => {
      expect(modulationCounts(catalog, maqam("maqam_rast"), catalog.findTuningSystem("ibnsina_1037")!, "yegāh", 5)).toEqual({ maqamat: 64, ajnas: 54 });
    });

    it("I: maqāmāt on rāst, without rāst itself", () => {
      expect(idNames(modulations.maqamat, "firstDegree").slice(0, 3)).toEqual(["maqam_hijaz_kar_kurd", "maqam_nikriz", "maqam_nahawand_kabir"]);
      expect(idNames(modulations.maqamat, "firstDegree")).not.toContain("maqam_rast");
    });

    it("III: maqāmāt on segāh (maqām segāh in its own form first)", () => {
      expect(idNames(modulations.maqamat, "thirdDegree").slice(0, 2)).toEqual(["maqam_segah", "maqam_iraq_al_segah"]);
    });

    it("IV: maqāmāt on chahārgāh, including rāst transposed there", () => {
      expect(idNames(modulations.maqamat, "fourthDegree")[0]).toBe("maqam_rast_al_chahargah");
    });

    it("V: maqāmāt on nawā", () => {
      expect(idNames(modulations.maqamat, "fifthDegree").slice(0, 2)).toEqual(["maqam_nikriz_al_nawa", "maqam_bayyat_al_nawa"]);
    });

    it("VI ascending: V and VII natural, so maqāmāt on ḥusaynī", () => {
      expect(idNames(modulations.maqamat, "sixthDegreeAsc")[0]).toBe("maqam_kurd_al_husayni");
    });

    it("VI descending is off: the descending VII is ʿajam, a two-part note", () => {
      expect(modulations.maqamat.sixthDegreeDesc).toEqual([]);
    });
  });

  describe("maqām bayyāt, ibnsina_1037 / yegāh", () => {
    const { modulations } = modulationsIn("ibnsina_1037", "yegāh", "maqam_bayyat");

    it("I on dūgāh, III on chahārgāh, IV on nawā, V on ḥusaynī", () => {
      expect(idNames(modulations.maqamat, "firstDegree").slice(0, 2)).toEqual(["maqam_hijaz", "maqam_kurd"]);
      expect(idNames(modulations.maqamat, "thirdDegree")[0]).toBe("maqam_rast_al_chahargah");
      expect(idNames(modulations.maqamat, "fourthDegree")[1]).toBe("maqam_bayyat_al_nawa");
      expect(idNames(modulations.maqamat, "fifthDegree")[0]).toBe("maqam_kurd_al_husayni");
    });

    it("VI ascending and descending both on ʿajam (V ḥusaynī and VII kurdān are natural both ways)", () => {
      const vi = ["maqam_ajam_ushayran_al_ajam", "maqam_chahargah_(alshawwa)_al_ajam", "maqam_tarz_jadid_al_ajam"];
      expect(idNames(modulations.maqamat, "sixthDegreeAsc")).toEqual(vi);
      expect(idNames(modulations.maqamat, "sixthDegreeDesc")).toEqual(vi);
    });

    it("names būselīk/ʿushshāq as the two-part note below the third", () => {
      expect(modulations.noteName2pBelowThird).toBe("būselīk/ʿushshāq");
    });

    it("never lists bayyāt itself on its own tonic", () => {
      expect(idNames(modulations.maqamat, "firstDegree")).not.toContain("maqam_bayyat");
    });
  });

  it("alternative III: beste ḥiṣār (alsabbagh_1954 / rāst) has no natural third, so kurdī serves", () => {
    const { modulations } = modulationsIn("alsabbagh_1954", "rāst", "maqam_beste_hisar");
    expect(modulations.maqamat.thirdDegree).toEqual([]);
    expect(modulations.noteName2pBelowThird).toBe("kurdī");
    expect(idNames(modulations.maqamat, "altThirdDegree")).toEqual(["maqam_ajam_ushayran_al_kurdi", "maqam_tarz_jadid_al_kurdi"]);
  });

  it("VI if no III: ḥijāz (ibnsina_1037 / yegāh) has no maqām on its third, so awj lists are kept", () => {
    const { modulations } = modulationsIn("ibnsina_1037", "yegāh", "maqam_hijaz");
    expect(modulations.maqamat.thirdDegree).toEqual([]);
    expect(idNames(modulations.maqamat, "sixthDegreeIfNoThird")[0]).toBe("maqam_rahat_alarwah_al_awj");
    // In ajnās mode a jins exists on the third, so the VI-if-no-III list is emptied.
    expect(modulations.ajnas.thirdDegree.length).toBe(1);
    expect(modulations.ajnas.sixthDegreeIfNoThird).toEqual([]);
  });

  it("the two-part note search stops at the bottom of octave 1", () => {
    const pcs = pitchClassesOf(catalog, catalog.findTuningSystem("ibnsina_1037")!, "yegāh");
    expect(twoPartNoteBelowThird(catalog.notes, "qarār segāh", pcs, 17)).toBe("");
    expect(twoPartNoteBelowThird(catalog.notes, undefined, pcs, 17)).toBe("");
    expect(twoPartNoteBelowThird(catalog.notes, "segāh", pcs, 17)).toBe("kurdī");
  });

  it("a transposed source is computed on its own degrees; stats still count the analytical form", () => {
    const { modulations } = modulationsIn("ibnsina_1037", "yegāh", "maqam_rast", "chahārgāh");
    expect(idNames(modulations.maqamat, "firstDegree")).not.toContain("maqam_rast_al_chahargah");
    expect(modulations.maqamat.firstDegree.every((t) => t.transposition.tonic === "chahārgāh")).toBe(true);
  });

  describe("one octave lower (includeModulations8vb)", () => {
    const { ts, modulations } = modulationsIn("ibnsina_1037", "yegāh", "maqam_bayyat");
    const lowered = lowerOctaveModulations(catalog, modulations, ts, "yegāh");

    it("renames every target on the lower tonic with the `_al_` idName and keeps isTransposed", () => {
      const [first] = lowered.maqamat.firstDegree;
      expect(first.transposition).toMatchObject({
        idName: "maqam_hijaz_al_qarar_dugah",
        name: "maqām ḥijāz al-qarār dūgāh",
        tonic: "qarār dūgāh",
        isTransposed: false,
      });
      expect(lowered.maqamat.firstDegree[2].transposition).toMatchObject({ idName: "maqam_nikriz_al_qarar_dugah", isTransposed: true });
    });

    it("builds names from the entity name, so names containing ` al-` stay whole", () => {
      const hijaz = modulationsIn("ibnsina_1037", "yegāh", "maqam_hijaz");
      const low = lowerOctaveModulations(catalog, hijaz.modulations, ts, "yegāh");
      expect(low.maqamat.sixthDegreeAsc[0].transposition).toMatchObject({ idName: "maqam_rahat_alarwah_al_iraq", name: "maqām rāḥat al-arwāḥ al-ʿirāq" });
    });

    it("drops targets that would fall below octave 0", () => {
      const { modulations: low } = modulationsIn("ibnsina_1037", "yegāh", "maqam_rast", "qarār chahārgāh");
      const lower = lowerOctaveModulations(catalog, low, ts, "yegāh");
      expect(low.maqamat.firstDegree.length).toBeGreaterThan(0);
      expect(lower.maqamat.firstDegree).toEqual([]);
    });
  });

  describe("response blocks (§8.5)", () => {
    const { ts, modulations } = modulationsIn("ibnsina_1037", "yegāh", "maqam_bayyat");

    it("maqām entries carry isTransposition, jins entries do not; both modes end with noteName2pBelowThird", () => {
      const block = modulationsBlock(modulations, false);
      expect(Object.keys(block.maqamat)).toEqual([...MODULATION_CATEGORIES, "noteName2pBelowThird"]);
      expect(block.maqamat.firstDegree[0]).toEqual({
        id: "2",
        idName: "maqam_hijaz",
        displayName: "maqām ḥijāz",
        tonicIdName: "dugah",
        tonicDisplayName: "dūgāh",
        isTransposition: false,
      });
      expect(block.ajnas.firstDegree[0]).toEqual({
        id: "2",
        idName: "jins_bayyat",
        displayName: "jins bayyāt",
        tonicIdName: "dugah",
        tonicDisplayName: "dūgāh",
      });
      expect(block.ajnas.noteName2pBelowThird).toBe("būselīk/ʿushshāq");
    });

    it("adds Arabic names with includeArabic", () => {
      const block = modulationsBlock(modulations, true);
      expect(block.ajnas.firstDegree[0]).toMatchObject({ displayNameAr: "جنس بَيّات", tonicDisplayNameAr: "دوكاه" });
    });

    it("the lower-octave block has the eight lists only", () => {
      const block = lowerOctaveModulationsBlock(lowerOctaveModulations(catalog, modulations, ts, "yegāh"), false);
      expect(Object.keys(block.ajnas)).toEqual([...MODULATION_CATEGORIES]);
    });
  });
});

describe("recorded maqām detail answers", () => {
  const detailCases = recordedCases().filter((c) => {
    const body = c.body as { stats?: Record<string, unknown> } | undefined;
    return c.status === 200 && c.path.startsWith("/maqamat/") && body?.stats !== undefined && "numberOfMaqamModulations" in body.stats;
  });
  const requestOf = (path: string) => {
    const url = new URL(path, "http://x");
    const ts = catalog.findTuningSystem(url.searchParams.get("tuningSystem")!)!;
    const startingNote = findStartingNote(ts, url.searchParams.get("startingNote")!)!;
    const m = catalog.findMaqam(decodeURIComponent(url.pathname.split("/")[2]))!.entity as Maqam;
    const tolerance = url.searchParams.get("centsTolerance") ? parseFloat(url.searchParams.get("centsTolerance")!) : 5;
    return { url, ts, startingNote, m, tolerance };
  };

  it("stats.numberOfMaqamModulations / numberOfAjnasModulations agree on every recorded detail", () => {
    expect(detailCases.length).toBeGreaterThan(100);
    const wrong = detailCases.flatMap((c) => {
      const { ts, startingNote, m, tolerance } = requestOf(c.path);
      const stats = (c.body as { stats: Record<string, number> }).stats;
      const got = modulationCounts(catalog, m, ts, startingNote, tolerance);
      return got.maqamat === stats.numberOfMaqamModulations && got.ajnas === stats.numberOfAjnasModulations ? [] : [c.path];
    });
    expect(wrong).toEqual([]);
  });

  it("the recorded modulations and lowerOctaveModulations blocks are reproduced", () => {
    const withBlocks = detailCases.filter((c) => "modulations" in (c.body as object));
    expect(withBlocks.length).toBeGreaterThan(0);
    for (const c of withBlocks) {
      const { url, ts, startingNote, m, tolerance } = requestOf(c.path);
      const transposeTo = url.searchParams.get("transposeTo");
      const list = transpositionsOf(catalog, m, ts, startingNote, tolerance);
      const source = transposeTo ? list.find((t) => toIdName(t.tonic) === transposeTo)! : list[0];
      const includeArabic = url.searchParams.get("includeArabic") === "true";
      const modulations = modulationsOf(catalog, m, source, ts, startingNote, tolerance);
      const body = c.body as Record<string, unknown>;
      expect(firstDifference(body.modulations, JSON.parse(JSON.stringify(modulationsBlock(modulations, includeArabic))))).toBeUndefined();
      if (body.lowerOctaveModulations) {
        const lowered = lowerOctaveModulationsBlock(lowerOctaveModulations(catalog, modulations, ts, startingNote), includeArabic);
        expect(firstDifference(body.lowerOctaveModulations, JSON.parse(JSON.stringify(lowered)))).toBeUndefined();
      }
    }
  });
});
