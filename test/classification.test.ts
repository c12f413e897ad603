/**
 * Pitch-class-set classification: worked examples in the Cairo Congress tuning (1929) from yegāh,
 * exact and legacy maqamId/setId matching, the shared_key form of incompatible transpositions,
 * and every 4xx answer.
 */
import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { classificationRequests } from "../src/api/classification/prerender.js";
import { staticFileOf } from "../src/api/staticPath.js";

const MAQAM_SETS = "/maqamat/classification/maqam-pitch-class-sets";
const TWELVE = "/maqamat/classification/12-pitch-class-sets";
const CAIRO = "tuningSystem=cairocongresstuningcommittee_1929&startingNote=yegah";

const ask = (path: string, query: string) => dispatch(routes, { catalog, baseUrl: "http://localhost:3000", path, query: new URLSearchParams(query) });
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

  it("maqamId finds an octave rendering that the listing folds into its taḥlīl", () => {
    const b = body(MAQAM_SETS, `${CAIRO}&maqamId=maqam_rast_al_kurdan`);
    expect(setIds(b)).toEqual(["maqam_rast_set"]);
    expect(memberIds(b.sets[0])).not.toContain("maqam_rast_al_kurdan");
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

describe("12-pitch-class-sets, Cairo 1929 from yegāh (the default tuning)", () => {
  const all = body(TWELVE, "includeIncompatible=true");
  const rast = body(TWELVE, "setId=maqam_rast_set").sets[0];

  it("completes rāst to twelve keys from its tonic, filling the keys it lacks from the tuning", () => {
    expect(rast.pitchClassSet.map((pc: any) => `${pc.ipnReferenceNoteName} ${pc.noteName}`)).toEqual([
      "C rāst",
      "C# nīm zīrgūleh",
      "D dūgāh",
      "D# kurdī",
      "E segāh",
      "F chahārgāh",
      "F# ḥijāz",
      "G nawā",
      "G# nīm ḥiṣār",
      "A ḥusaynī",
      "A# ʿajam",
      "B awj",
    ]);
    expect(rast.pitchClassSet[1]).toEqual({ ipnReferenceNoteName: "C#", noteName: "nīm zīrgūleh", relativeCents: 42.05633651904094, octave: 1 });
    expect(rast.compatibleMaqamatCount).toBe(174);
  });

  it("lists compatible maqāmāt untransposed first, by the tonic's place in the set", () => {
    const bayyat = rast.compatibleMaqamat.find((m: any) => m.maqamIdName === "maqam_bayyat");
    expect(bayyat).toEqual({
      maqamIdName: "maqam_bayyat",
      maqamDisplayName: "maqām bayyāt",
      baseMaqamIdName: "maqam_bayyat",
      isTransposed: false,
      tonic: { ipnReferenceNoteName: "D", noteNameIdName: "dugah", noteNameDisplayName: "dūgāh", positionInSet: 2 },
    });
    // A tonic spelled as a flat finds no sharp key (QUIRK Q20) and sorts first.
    expect(rast.compatibleMaqamat[0]).toMatchObject({ maqamIdName: "maqam_ajam_ushayran", tonic: { ipnReferenceNoteName: "Bb", positionInSet: -1 } });
    const positions = rast.compatibleMaqamat.filter((m: any) => !m.isTransposed).map((m: any) => m.tonic.positionInSet);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it("counts globally and per answer", () => {
    expect(all.statistics).toEqual({
      totalSets: 31,
      totalCompatibleMaqamat: 412,
      incompatibleMaqamatCount: 63,
      global: { totalSets: 31, totalCompatibleMaqamat: 412, totalProcessed: 475 },
    });
    expect(all.incompatibleMaqamat).toHaveLength(63);
    expect(all.parameters).toMatchObject({
      tuningSystem: { id: "cairocongresstuningcommittee_1929" },
      startingNote: { idName: "yegah", displayName: "yegāh" },
      alKindiTuningSystem: { id: "alkindi_874", idName: "alkindi_874", displayName: "al-Kindī (874) 12-Tone" },
      centsTolerance: 5,
      startSetFromC: false,
    });
  });

  it("reports re-spelled pitch classes competing for one key, at different places in the octave", () => {
    const yegah = all.incompatibleMaqamat.find((i: any) => i.transposition.idName === "maqam_yegah");
    expect(yegah).toMatchObject({ reason: "shared_key", compatible: false, transposition: { isTransposed: false, isBaseForm: true } });
    expect(yegah.clashes).toEqual([
      {
        key: "F",
        notes: [
          { noteName: "chahargah", displayName: "chahārgāh", englishName: "F3", cents: 1009.9955673994793, centsInOctave: 1009.995567 },
          { noteName: "nim_hijaz", displayName: "nīm ḥijāz", englishName: "F-#3", cents: 1050.806237997358, centsInOctave: 1050.806238 },
        ],
      },
    ]);
  });

  it("reads a set from C with startSetFromC: the keys below the tonic come from octave 1, by reference note name", () => {
    const fromTonic = body(TWELVE, "setId=maqam_athar_kurd_set").sets[0].pitchClassSet;
    const fromC = body(TWELVE, "setId=maqam_athar_kurd_set&startSetFromC=true").sets[0].pitchClassSet;
    expect(fromTonic.slice(-2).map((pc: any) => [pc.noteName, pc.octave])).toEqual([
      ["kurdān", 2],
      ["shahnāz", 2],
    ]);
    expect(fromC.slice(0, 3).map((pc: any) => [pc.ipnReferenceNoteName, pc.noteName, pc.octave])).toEqual([
      ["C", "rāst", 1],
      ["C#", "nīm zīrgūleh", 1],
      ["D", "dūgāh", 1],
    ]);
    // Measured from the C entry (rāst, 498.04 cents), not from the tonic.
    expect(fromC.map((pc: any) => pc.relativeCents.toFixed(2))).toEqual([
      "0.00",
      "42.06",
      "204.08",
      "299.10",
      "353.16",
      "511.95",
      "594.56",
      "660.90",
      "793.13",
      "901.76",
      "994.55",
      "1050.81",
    ]);
  });

  it("shows midiNoteNumber under midiNoteDecimal, the name pitchClassDataType=all gives it", () => {
    const midi = body(TWELVE, "setId=maqam_rast_set&pitchClassDataType=midiNoteNumber").sets[0].pitchClassSet[0];
    expect(midi).toEqual({ ipnReferenceNoteName: "C", noteName: "rāst", midiNoteDecimal: 47.98047490099577 });
  });

  it("selects the data fields with pitchClassDataType", () => {
    const cents = body(TWELVE, "setId=maqam_rast_set&pitchClassDataType=cents").sets[0].pitchClassSet[0];
    expect(cents).toEqual({ ipnReferenceNoteName: "C", noteName: "rāst", cents: 498.0449991346125 });
    const abjad = body(TWELVE, "setId=maqam_rast_set&pitchClassDataType=abjadName").sets[0].pitchClassSet[0];
    expect(abjad).toEqual({ ipnReferenceNoteName: "C", noteName: "rāst", abjadName: null });
    const full = body(TWELVE, "setId=maqam_rast_set&pitchClassDataType=all&includeArabic=true").sets[0].pitchClassSet[0];
    expect(Object.keys(full)).toEqual([
      "ipnReferenceNoteName",
      "noteName",
      "noteNameDisplayAr",
      "cents",
      "relativeCents",
      "fraction",
      "decimalRatio",
      "frequency",
      "octave",
      "englishName",
      "solfege",
      "stringLength",
      "fretDivision",
      "midiNoteDecimal",
      "midiNoteDeviation",
      "centsDeviation",
      "referenceNoteName",
    ]);
  });

  it("maqamId matches exactly and answers compatible: true with the maqām's incompatible transpositions", () => {
    const hijaz = body(TWELVE, "maqamId=maqam_hijaz");
    expect(hijaz.compatible).toBe(true);
    expect(setIds(hijaz)).toEqual(["maqam_rast_set"]);
    expect(hijaz.incompatibleTranspositions).toEqual([]);
    // maqam_hijaz_kar… idNames start with maqam_hijaz but belong to other maqāmāt.
    const hijazKarSets = all.sets.filter((s: any) => memberIds(s).some((id) => id.startsWith("maqam_hijaz_kar")));
    expect(hijazKarSets.some((s: any) => s.setIdName !== "maqam_rast_set")).toBe(true);
  });

  it("maqamId and setId accept the older transposition spellings", () => {
    for (const spelling of ["maqam_iraq_al_zirguleh", "maqam_iraq_al-zirguleh", "maqam_iraq_alzirguleh"]) {
      const b = body(TWELVE, `maqamId=${spelling}`);
      expect(b.parameters.maqamId, spelling).toBe("maqam_iraq_al_zirguleh");
      expect(setIds(b)).toEqual(["maqam_nawa_athar_al_qarar_qarar_tik_hisar/shuri_set"]);
    }
    const legacySet = body(TWELVE, "setId=maqam_iraq_al-qarar_zirguleh_set");
    expect(setIds(legacySet)).toEqual(["maqam_iraq_al_qarar_zirguleh_set"]);
    expect(legacySet.parameters.setId).toBe("maqam_iraq_al_qarar_zirguleh_set");
  });

  it("answers 200 compatible: false when every transposition shares a key", () => {
    const b = body(TWELVE, "maqamId=maqam_yegah");
    expect(b).toMatchObject({ compatible: false, sets: [] });
    expect(b.explanation).toMatch(/^maqām yegāh fits no 12-pitch-class set/);
    expect(b.incompatibleTranspositions.map((i: any) => i.transposition.idName)).toEqual([
      "maqam_yegah",
      "maqam_yegah_al_qarar_yegah",
      "maqam_yegah_al_nawa",
      "maqam_yegah_al_saham/ramal_tuti",
    ]);
    expect(b.statistics).toMatchObject({ totalSets: 0, totalCompatibleMaqamat: 0, incompatibleMaqamatCount: 63 });
  });

  it("answers 200 compatible: false for a transposition that cannot be built, and for a set without the maqām", () => {
    const unbuilt = body(TWELVE, "maqamId=maqam_rast_al_nim_zirguleh");
    expect(unbuilt).toMatchObject({ compatible: false, sets: [], incompatibleTranspositions: [] });
    expect(unbuilt.explanation).toMatch(/cannot be built/);
    const elsewhere = body(TWELVE, "setId=maqam_rast_set&maqamId=maqam_gulazar");
    expect(elsewhere).toMatchObject({ compatible: false, sets: [], incompatibleTranspositions: [] });
    expect(elsewhere.explanation).toMatch(/not maqam_rast_set/);
  });

  it("completes other tunings from al-Kindī's twelve tones", () => {
    const b = body(TWELVE, "tuningSystem=ibnsina_1037&startingNote=ushayran");
    expect(b.statistics).toMatchObject({ totalSets: 14, totalCompatibleMaqamat: 496, incompatibleMaqamatCount: 27 });
  });

  it("reads the clashes of each direction's own spelling (Meshshāqa 1899 from yegāh: 1,161 transpositions spell a note differently going down)", () => {
    const b = body(TWELVE, "tuningSystem=meshshaqa_1899&startingNote=yegah");
    // Keys shared between the directions gave 138 sets and 1,015 incompatible transpositions.
    expect(b.statistics).toMatchObject({ totalSets: 136, totalCompatibleMaqamat: 7142, incompatibleMaqamatCount: 1012 });
  });
});

describe("12-pitch-class-sets errors", () => {
  it("rejects an unknown tuning system with the list of ids (400, as the archive answers here)", () => {
    const b = expectError(TWELVE, "tuningSystem=nope&startingNote=yegah", 400);
    expect(b.validOptions).toContain("cairocongresstuningcommittee_1929");
    expect(b.availableTuningSystems).toContainEqual({ id: "alkindi_874", idName: "alkindi_874", displayName: "al-Kindī (874) 12-Tone" });
  });

  it("rejects a starting note the tuning system lacks, with its options", () => {
    expect(expectError(TWELVE, "tuningSystem=alsabbagh_1954&startingNote=yegah", 400).validOptions).toEqual(["rast"]);
    expectError(TWELVE, "tuningSystem=alsabbagh_1954&startingNote=nowhere", 400);
  });

  it("rejects malformed parameters", () => {
    for (const q of [
      "centsTolerance=abc",
      "includeArabic=",
      "pitchClassDataType=",
      "pitchClassDataType=%20",
      "pitchClassDataType=pitchClassIndex",
      "setId=",
      "maqamId=",
    ]) {
      const b = expectError(TWELVE, q, 400);
      if (q.startsWith("pitchClassDataType")) expect(b.validOptions).toContain("relativeCents");
    }
  });

  it("answers 404 for an unknown maqām and an unknown set", () => {
    expectError(TWELVE, "maqamId=maqam_nope", 404);
    expectError(TWELVE, "setId=maqam_hijaz_set", 404);
  });
});

describe("pre-rendered classification requests", () => {
  const requests = [...classificationRequests(catalog)];

  it("are canonical, distinct, and cover every tuning system × starting note", () => {
    expect(new Set(requests).size).toBe(requests.length);
    for (const r of requests) {
      const url = new URL(r, "http://x");
      expect(staticFileOf(url.pathname, url.searchParams), r).toBeDefined();
    }
    expect(requests).toContain(TWELVE);
    expect(requests).toContain(`${TWELVE}?includeIncompatible=true&startingNote=ushayran&tuningSystem=ibnsina_1037`);
    expect(requests).toContain(`${MAQAM_SETS}?includePitchClassData=true&startingNote=rast&tuningSystem=alsabbagh_1954`);
  });

  it("answer 200 (a spread sample)", () => {
    for (const r of requests.filter((_, i) => i % 40 === 0)) {
      const url = new URL(r, "http://x");
      expect(ask(url.pathname, url.search.slice(1)).status, r).toBe(200);
    }
  });
});
