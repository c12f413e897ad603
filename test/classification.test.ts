/**
 * Pitch-class-set classification: worked examples in the Cairo Congress tuning (1929) from yegāh,
 * exact and legacy maqamId/setId matching, the shared_key form of incompatible transpositions,
 * and every 4xx answer.
 */
import { describe, it, expect } from "vitest";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";

const MAQAM_SETS = "/maqamat/classification/maqam-pitch-class-sets";
const CAIRO = "tuningSystem=cairocongresstuningcommittee_1929&startingNote=yegah";

const ask = (path: string, query: string) => dispatch(routes, { baseUrl: "http://localhost:3000", path, query: new URLSearchParams(query) });
const body = (path: string, query: string): any => {
  const r = ask(path, query);
  expect(r.status, `${path}?${query}`).toBe(200);
  return r.body;
};
const setIds = (b: any): string[] => b.sets.map((s: any) => s.setIdName);
const memberIds = (set: any): string[] => set.compatibleMaqamat.map((m: any) => m.maqamIdName);

function expectError(path: string, query: string, status: number) {
  const r = ask(path, query);
  expect(r.status, `${path}?${query}`).toBe(status);
  const b = r.body as Record<string, unknown>;
  for (const field of ["error", "message", "hint"]) expect(typeof b[field], field).toBe("string");
  return b;
}

describe("maqam-pitch-class-sets, Cairo 1929 from yegāh", () => {
  const all = body(MAQAM_SETS, `${CAIRO}&includeIncompatible=true&includePitchClassData=true`);

  it("groups rāst with the maqāmāt that use its eight pitch classes", () => {
    const rast = all.sets[0];
    expect(rast).toMatchObject({
      setIdName: "maqam_rast_set",
      setDisplayName: "maqām rāst set",
      compatibleMaqamatCount: 15,
      sourceMaqam: { id: "1", idName: "maqam_rast", displayName: "maqām rāst" },
      pitchClassCount: 8,
    });
    expect(rast.pitchClassSet.map((pc: any) => pc.noteName)).toEqual(["rāst", "dūgāh", "segāh", "chahārgāh", "nawā", "ḥusaynī", "ʿajam", "awj"]);
    expect(rast.pitchClassSet[2]).toEqual({
      englishName: "E-b3",
      noteName: "segāh",
      cents: 851.2076258263735,
      fraction: "121/74",
      decimalRatio: 1.6350555918901242,
      frequency: 160.23381294964028,
      octave: 1,
    });
    // Untransposed first, then by display name (ʿ sorts after every letter).
    expect(memberIds(rast).slice(0, 3)).toEqual(["maqam_awj", "maqam_baba_tahir", "maqam_bayyat"]);
    expect(memberIds(rast).slice(-2)).toEqual(["maqam_iraq", "maqam_ushshaq"]);
    expect(rast.compatibleMaqamat.find((m: any) => m.maqamIdName === "maqam_bayyat")).toEqual({
      maqamIdName: "maqam_bayyat",
      maqamDisplayName: "maqām bayyāt",
      isTransposed: false,
      isBaseForm: true,
      tonic: { ipnReferenceNoteName: "D", noteNameIdName: "dugah", noteNameDisplayName: "dūgāh" },
    });
  });

  it("counts sets, members and incompatible transpositions consistently", () => {
    expect(all.statistics).toEqual({ totalSets: 21, totalCompatibleMaqamat: 75, incompatibleMaqamatCount: 164, totalProcessed: 239 });
    expect(all.incompatibleMaqamatCount).toBe(164);
    expect(all.incompatibleMaqamat).toHaveLength(164);
    for (const set of all.sets) expect(set.compatibleMaqamatCount).toBe(set.compatibleMaqamat.length);
  });

  it("reports a shared 12-tone key with two different pitch classes", () => {
    const suzdalarah = all.incompatibleMaqamat[0];
    expect(suzdalarah).toMatchObject({
      maqam: { id: "22", idName: "maqam_suzdalarah", displayName: "maqām sūzdalārah" },
      transposition: { idName: "maqam_suzdalarah", displayName: "maqām sūzdalārah", isTransposed: false, isBaseForm: true },
      compatible: false,
      reason: "shared_key",
    });
    expect(suzdalarah.clashes).toEqual([
      {
        key: "E",
        notes: [
          { noteName: "segah", displayName: "segāh", englishName: "E-b3", cents: 851.2076258263735, centsInOctave: 353.162627 },
          { noteName: "nim_buselik", displayName: "nīm būselīk", englishName: "E-3", cents: 901.7581966335856, centsInOctave: 403.713197 },
        ],
      },
    ]);
    expect(suzdalarah.explanation).toMatch(/^maqām sūzdalārah cannot be reduced .* segāh .* nīm būselīk .* share the key E\.$/);
    expect(suzdalarah.explanation.split(". ")).toHaveLength(1);
  });

  it("adds Arabic note names to pitch classes and clash notes with includeArabic", () => {
    const b = body(MAQAM_SETS, `${CAIRO}&includeArabic=true&includeIncompatible=true&includePitchClassData=true&setId=maqam_rast_set`);
    expect(b.sets[0].pitchClassSet[0].noteNameDisplayAr).toBeTypeOf("string");
    expect(b.incompatibleMaqamat[0].clashes[0].notes[0].displayNameAr).toBeTypeOf("string");
  });

  it("omits pitch-class data and the incompatible list by default", () => {
    const b = body(MAQAM_SETS, CAIRO);
    expect(b.sets[0]).not.toHaveProperty("pitchClassSet");
    expect(b.sets[0]).not.toHaveProperty("pitchClassCount");
    expect(b).not.toHaveProperty("incompatibleMaqamat");
    expect(b.statistics.incompatibleMaqamatCount).toBe(164);
  });

  it("maqamId matches exactly: maqam_hijaz does not select maqam_hijaz_kar_(mutlaq)", () => {
    const full = body(MAQAM_SETS, CAIRO);
    const withHijazKar = full.sets.filter((s: any) => memberIds(s).some((id) => id.startsWith("maqam_hijaz_kar")));
    expect(withHijazKar.length).toBeGreaterThan(0);
    const b = body(MAQAM_SETS, `${CAIRO}&maqamId=maqam_hijaz`);
    expect(setIds(b)).toEqual(["maqam_hijaz_set"]);
    expect(b.parameters.maqamId).toBe("maqam_hijaz");
    expect(b.statistics).toEqual({ totalSets: 1, totalCompatibleMaqamat: 5, incompatibleMaqamatCount: 164, totalProcessed: 169 });
  });

  it("maqamId accepts a numeric id and transposition idNames in every spelling", () => {
    expect(setIds(body(MAQAM_SETS, `${CAIRO}&maqamId=2`))).toEqual(["maqam_hijaz_set"]);
    for (const spelling of ["maqam_iraq_al_qarar_zirguleh", "maqam_iraq_al-qarar_zirguleh", "maqam_iraq_alqarar_zirguleh"]) {
      const b = body(MAQAM_SETS, `${CAIRO}&maqamId=${spelling}`);
      expect(setIds(b), spelling).toEqual(["maqam_iraq_al_qarar_zirguleh_set"]);
      expect(b.parameters.maqamId).toBe("maqam_iraq_al_qarar_zirguleh");
    }
  });

  it("setId selects one set, also in an older spelling, and combines with maqamId", () => {
    for (const spelling of ["maqam_iraq_al_qarar_zirguleh_set", "maqam_iraq_al-qarar_zirguleh_set", "maqam_iraq_alqarar_zirguleh_set"]) {
      const b = body(MAQAM_SETS, `${CAIRO}&setId=${spelling}`);
      expect(setIds(b), spelling).toEqual(["maqam_iraq_al_qarar_zirguleh_set"]);
      expect(b.parameters.setId).toBe("maqam_iraq_al_qarar_zirguleh_set");
    }
    expect(setIds(body(MAQAM_SETS, `${CAIRO}&setId=maqam_rast_set&maqamId=maqam_bayyat`))).toEqual(["maqam_rast_set"]);
  });

  it("a larger tolerance merges more transpositions into the sets", () => {
    const wide = body(MAQAM_SETS, `${CAIRO}&centsTolerance=15`);
    expect(wide.parameters.centsTolerance).toBe(15);
    expect(wide.statistics.totalCompatibleMaqamat).toBeGreaterThanOrEqual(75);
  });
});

describe("maqam-pitch-class-sets errors", () => {
  it("requires the tuning system and the starting note", () => {
    expectError(MAQAM_SETS, "", 400);
    expectError(MAQAM_SETS, "startingNote=yegah", 400);
    expectError(MAQAM_SETS, "tuningSystem=cairocongresstuningcommittee_1929", 400);
    expectError(MAQAM_SETS, "tuningSystem=&startingNote=", 400);
  });

  it("rejects an unknown tuning system (404) and a starting note it lacks (400, with the options)", () => {
    expectError(MAQAM_SETS, "tuningSystem=nope&startingNote=yegah", 404);
    expect(expectError(MAQAM_SETS, "tuningSystem=alsabbagh_1954&startingNote=yegah", 400).validOptions).toEqual(["rast"]);
  });

  it("rejects malformed parameters", () => {
    for (const q of ["centsTolerance=-1", "centsTolerance=abc", "includeArabic=", "includeArabic=maybe", "setId=", "maqamId=%20"])
      expectError(MAQAM_SETS, `${CAIRO}&${q}`, 400);
  });

  it("answers 404 for an unknown maqām, a maqām in no set, and an unknown set", () => {
    expectError(MAQAM_SETS, `${CAIRO}&maqamId=maqam_nope`, 404);
    expectError(MAQAM_SETS, `${CAIRO}&maqamId=maqam_mustaar`, 404);
    const unknownSet = expectError(MAQAM_SETS, `${CAIRO}&setId=maqam_bayyat_set`, 404);
    expect(unknownSet.validOptions).toContain("maqam_rast_set");
  });
});
