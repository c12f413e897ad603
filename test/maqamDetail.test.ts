/**
 * GET /maqamat/{idName}: worked examples (maqām rāst and bayyāt in Ibn Sīnā's and al-Kindī's
 * tuning systems from every starting note), the transposed-idName rules of the specification,
 * data types and blocks, discovery mode, `idName=all`, the 422 and every 4xx of the validation ladder.
 */
import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { MAQAM_PITCH_CLASS_DATA_TYPES } from "../src/api/maqamat/detail.js";
import { maqamDetailRequests } from "../src/api/maqamat/prerender.js";
import { ask as get, expectCanonical } from "./support/api.js";

const IBN_SINA_YEGAH = "tuningSystem=ibnsina_1037&startingNote=yegah";
const names = (cells: { noteNameDisplay: string }[]) => cells.map((pc) => pc.noteNameDisplay);
const ajnasNames = (map: Record<string, { displayName: string }[]>) => Object.entries(map).map(([note, js]) => [note, js[0]?.displayName ?? null]);
/** A body without the parts that name the request itself. */
const withoutRequest = (body: any) => ({ ...body, links: { ...body.links, self: undefined }, parameters: { ...body.parameters, transposeTo: undefined } });

describe("maqām rāst and bayyāt in Ibn Sīnā's 17 tones", () => {
  it("rāst from yegāh: header, pitch classes, transpositions, ajnās, family, named degrees", () => {
    const { status, body } = get("/maqamat/maqam_rast", IBN_SINA_YEGAH);
    expect(status).toBe(200);
    expect(body.maqam).toEqual({ id: "1", idName: "maqam_rast", displayName: "maqām rāst", version: expect.any(String), isBaseForm: true });
    expect(body.family).toEqual({ idName: "rast", displayName: "rāst" });
    expect(body.tonic).toEqual({ idName: "rast", displayName: "rāst" });
    expect(body).not.toHaveProperty("transposition");
    expect(body.stats).toEqual({ numberOfTranspositions: 3, numberOfPitchClasses: 7, numberOfMaqamModulations: 64, numberOfAjnasModulations: 54 });
    expect(body.characteristics).toEqual({ isOctaveRepeating: true, hasAsymmetricDescending: true, hasSuyur: true });
    // Every register of the one transposed degree (§5.5).
    expect(body.availableTranspositions.map((t: any) => t.idName)).toEqual([
      "maqam_rast_al_qarar_chahargah",
      "maqam_rast_al_chahargah",
      "maqam_rast_al_mahuran",
    ]);
    expect(names(body.pitchData.ascending)).toEqual(["rāst", "dūgāh", "segāh", "chahārgāh", "nawā", "ḥusaynī", "awj"]);
    expect(names(body.pitchData.descending)).toEqual(["ʿajam", "ḥusaynī", "nawā", "chahārgāh", "segāh", "dūgāh", "rāst"]);
    // Minimal fields without a data type.
    expect(body.pitchData.ascending[0]).toEqual({ pitchClassIndex: 7, octave: 1, scaleDegree: "I", noteName: "rast", noteNameDisplay: "rāst" });
    expect(body.pitchData.descending.map((pc: any) => pc.scaleDegree)).toEqual(["VII", "VI", "V", "IV", "III", "II", "I"]);
    expect(ajnasNames(body.ajnas.ascending)).toEqual([
      ["rāst", "jins rāst"],
      ["dūgāh", "jins bayyāt"],
      ["segāh", "jins segāh"],
      ["chahārgāh", "jins mahrān al-chahārgāh"],
      ["nawā", "jins rāst al-nawā"],
      ["ḥusaynī", "jins bayyāt al-ḥusaynī"],
      ["awj", "jins ʿirāq"],
    ]);
    expect(body.ajnas.ascending["nawā"]).toEqual([{ id: "19", idName: "jins_rast_al_nawa", displayName: "jins rāst al-nawā" }]);
    expect(ajnasNames(body.ajnas.descending)[0]).toEqual(["ʿajam", "jins mahrān"]);
    expect(body.primaryJins).toEqual([
      { noteName: "rast", noteNameDisplay: "rāst", maqamDegree: "I", jinsId: "19", jinsIdName: "jins_rast", jinsDisplayName: "jins rāst" },
    ]);
    expect(body.secondaryJins[0]).toMatchObject({ noteName: "nawa", maqamDegree: "V", jinsIdName: "jins_rast_al_nawa" });
    expect(body.tertiaryJins).toBeNull();
    expect(body.ghammaz).toEqual([{ noteName: "nawa", noteNameDisplay: "nawā", maqamDegree: "V" }]);
    expect(body.parameters).toEqual({
      pitchClassDataType: null,
      includeIntervals: false,
      includeModulations: false,
      includeModulations8vb: false,
      includeSuyur: false,
      transposeTo: null,
    });
    expect(body.context.tuningSystem).toMatchObject({
      id: "ibnsina_1037",
      startingNotes: { idNames: ["ushayran", "yegah"], displayNames: ["ʿushayrān", "yegāh"] },
      selectedStartingNote: { idName: "yegah", displayName: "yegāh" },
      pitchClassCounts: { singleOctave: 17, allOctaves: 68 },
      originalValueType: "fraction",
      referenceFrequency: 97.999,
    });
    expect(body.links).toEqual({
      self: "http://localhost:3000/api/maqamat/maqam_rast?tuningSystem=ibnsina_1037&startingNote=yegah",
      detail: "http://localhost:3000/api/maqamat/maqam_rast",
      availability: "http://localhost:3000/api/maqamat/maqam_rast/availability",
      compare: "http://localhost:3000/api/maqamat/maqam_rast/compare",
    });
    expect(body).not.toHaveProperty("sources");
  });

  it("rāst from ʿushayrān: only octave renderings, so no transpositions", () => {
    const { body } = get("/maqamat/maqam_rast", "tuningSystem=ibnsina_1037&startingNote=ushayran");
    expect(body.stats.numberOfTranspositions).toBe(0);
    expect(body.availableTranspositions).toEqual([]);
    expect(body.ajnas.ascending["chahārgāh"]).toEqual([]);
    expect(body.family.idName).toBe("rast");
  });

  it("bayyāt from both starting notes", () => {
    const yegah = get("/maqamat/maqam_bayyat", IBN_SINA_YEGAH).body;
    expect(yegah.family).toEqual({ idName: "bayyat", displayName: "bayyāt" });
    expect(names(yegah.pitchData.ascending)).toEqual(["dūgāh", "segāh", "chahārgāh", "nawā", "ḥusaynī", "ʿajam", "kurdān"]);
    expect(yegah.characteristics).toMatchObject({ isOctaveRepeating: true, hasAsymmetricDescending: false });
    expect(yegah.availableTranspositions.map((t: any) => t.tonic.idName)).toEqual([
      "qarar_yegah",
      "qarar_ushayran",
      "yegah",
      "ushayran",
      "nawa",
      "husayni",
      "saham/ramal_tuti",
    ]);
    expect(yegah.secondaryJins[0]).toMatchObject({ noteName: "chahargah", maqamDegree: "III", jinsDisplayName: "jins ʿajam ʿushayrān al-chahārgāh" });
    const ushayran = get("/maqamat/maqam_bayyat", "tuningSystem=ibnsina_1037&startingNote=ushayran").body;
    expect(ushayran.secondaryJins[0]).toMatchObject({ noteName: "chahargah", jinsDisplayName: "jins chahārgāh (al-Shawwā)" });
    expect(ushayran.stats.numberOfTranspositions).toBe(0);
  });
});

describe("al-Kindī's 12 tones", () => {
  it.each(["ushayran", "yegah", "rast"])("rāst and bayyāt from %s are not realisable (no segāh): 422", (startingNote) => {
    for (const maqam of ["maqam_rast", "maqam_bayyat"]) {
      const { status, body } = get(`/maqamat/${maqam}`, `tuningSystem=alkindi_874&startingNote=${startingNote}`);
      expect(status).toBe(422);
      expect(body).toEqual({
        error: expect.stringContaining("cannot be realized"),
        message: expect.any(String),
        hint: expect.stringContaining("/availability"),
      });
    }
  });

  it("ʿajam ʿushayrān is realisable there", () => {
    expect(get("/maqamat/maqam_ajam_ushayran", "tuningSystem=alkindi_874&startingNote=ushayran").status).toBe(200);
  });
});

describe("scales", () => {
  it("an asymmetric descent (rāst: awj up, ʿajam down) has its own ajnās, read upwards", () => {
    const { body } = get("/maqamat/maqam_rast", IBN_SINA_YEGAH + "&pitchClassDataType=englishName");
    expect(body.pitchData.ascending[6]).toMatchObject({ noteNameDisplay: "awj", englishName: "B-b3" });
    expect(body.pitchData.descending[0]).toMatchObject({ noteNameDisplay: "ʿajam", englishName: "Bb3" });
    expect(ajnasNames(body.ajnas.descending)).toEqual([
      ["ʿajam", "jins mahrān"],
      ["ḥusaynī", "jins kurd al-ḥusaynī"],
      ["nawā", "jins nahāwand al-nawā"],
      ["chahārgāh", "jins ʿajam ʿushayrān al-chahārgāh"],
      ["segāh", "jins segāh"],
      ["dūgāh", "jins bayyāt"],
      ["rāst", "jins rāst"],
    ]);
  });

  it("a scale wider than an octave (suzdal, al-Fārābī 950g from ʿushayrān) is not octave-repeating", () => {
    const { body } = get("/maqamat/maqam_suzdal", "tuningSystem=alfarabi_950g&startingNote=ushayran");
    expect(body.characteristics.isOctaveRepeating).toBe(false);
    expect(body.stats.numberOfPitchClasses).toBe(11);
    expect(body.pitchData.ascending.map((pc: any) => pc.scaleDegree).at(-1)).toBe("XI");
    expect(ajnasNames(body.ajnas.ascending).at(-1)).toEqual(["muḥayyar", "jins ḥiṣār"]);
  });
});

describe("transposition identifiers", () => {
  const TO_CHAHARGAH = "/maqamat/maqam_rast_al_chahargah";

  it("rule 1/6: a transposed idName means the base idName with transposeTo", () => {
    const byPath = get(TO_CHAHARGAH, IBN_SINA_YEGAH);
    const byParameter = get("/maqamat/maqam_rast", IBN_SINA_YEGAH + "&transposeTo=chahargah");
    expect(byPath.status).toBe(200);
    expect(withoutRequest(byPath.body)).toEqual(withoutRequest(byParameter.body));
    expect(byPath.body.parameters.transposeTo).toBe("chahargah");
    expect(byPath.body.maqam).toMatchObject({ idName: "maqam_rast_al_chahargah", displayName: "maqām rāst al-chahārgāh", isBaseForm: false });
    expect(byPath.body.transposition).toEqual({
      original: { idName: "rast", displayName: "rāst" },
      resolved: { idName: "chahargah", displayName: "chahārgāh" },
    });
    expect(byPath.body.primaryJins[0]).toMatchObject({ noteName: "chahargah", maqamDegree: "I", jinsIdName: "jins_rast_al_chahargah" });
    // kurdān shares rāst's modal slot: the jins there keeps its bare name.
    expect(byPath.body.secondaryJins[0]).toMatchObject({ noteName: "kurdan", maqamDegree: "V", jinsIdName: "jins_rast" });
    // The family is that of the analytical form; the links name the base.
    expect(byPath.body.family.idName).toBe("rast");
    expect(byPath.body.links.detail).toBe("http://localhost:3000/api/maqamat/maqam_rast");
  });

  it("rule 5: the older spellings `_al-` and closed-up `_al<tonic>` are read as `_al_`", () => {
    const current = get(TO_CHAHARGAH, IBN_SINA_YEGAH).body;
    for (const legacy of ["/maqamat/maqam_rast_al-chahargah", "/maqamat/maqam_rast_alchahargah"]) {
      const { status, body } = get(legacy, IBN_SINA_YEGAH);
      expect(status).toBe(200);
      expect(withoutRequest(body)).toEqual(withoutRequest(current));
      expect(body.maqam.idName).toBe("maqam_rast_al_chahargah");
    }
    // A base idName with a closed-up `al` is not a transposition.
    expect(get("/maqamat/maqam_rahat_alarwah", "tuningSystem=alladhiqi_1495&startingNote=yegah").body.maqam).toMatchObject({
      idName: "maqam_rahat_alarwah",
      isBaseForm: true,
    });
  });

  it("legacy spellings of a note the tuning cannot reach (nawā) get the unreachable-tonic 400", () => {
    for (const legacy of ["/maqamat/maqam_rast_al_nawa", "/maqamat/maqam_rast_al-nawa", "/maqamat/maqam_rast_alnawa"]) {
      const { status, body } = get(legacy, IBN_SINA_YEGAH);
      expect(status).toBe(400);
      expect(body.error).toContain("nawa");
    }
  });

  it("rule 3: an octave rendering of the taḥlīl is named on its tonic but is neither transposed nor the base form", () => {
    for (const request of [get("/maqamat/maqam_rast", IBN_SINA_YEGAH + "&transposeTo=kurdan"), get("/maqamat/maqam_rast_al_kurdan", IBN_SINA_YEGAH)]) {
      expect(request.status).toBe(200);
      expect(request.body.maqam).toMatchObject({ idName: "maqam_rast_al_kurdan", displayName: "maqām rāst al-kurdān", isBaseForm: false });
      expect(request.body).not.toHaveProperty("transposition");
      expect(request.body.tonic).toEqual({ idName: "kurdan", displayName: "kurdān" });
      expect(request.body.pitchData.ascending[0]).toMatchObject({ noteName: "kurdan", octave: 2 });
    }
    // Naming the taḥlīl's own tonic is the base form.
    expect(get("/maqamat/maqam_rast", IBN_SINA_YEGAH + "&transposeTo=rast").body.maqam).toMatchObject({ idName: "maqam_rast", isBaseForm: true });
  });

  it("rule 7: an unreachable tonic is a 400 listing the available transpositions, both ways", () => {
    for (const request of [get("/maqamat/maqam_rast", IBN_SINA_YEGAH + "&transposeTo=segah"), get("/maqamat/maqam_rast_al_segah", IBN_SINA_YEGAH)]) {
      expect(request.status).toBe(400);
      expect(request.body.availableTranspositions.map((t: any) => t.idName)).toEqual([
        "maqam_rast_al_qarar_chahargah",
        "maqam_rast_al_chahargah",
        "maqam_rast_al_mahuran",
      ]);
    }
  });

  it("rule 8: a different transposeTo is a 400; the same tonic given both ways (any spelling) is accepted", () => {
    const conflict = get(TO_CHAHARGAH, IBN_SINA_YEGAH + "&transposeTo=kurdan");
    expect(conflict.status).toBe(400);
    expect(conflict.body).toMatchObject({ error: expect.any(String), message: expect.any(String), hint: expect.any(String) });
    expect(get(TO_CHAHARGAH, IBN_SINA_YEGAH + "&transposeTo=chahargah").status).toBe(200);
    expect(get(TO_CHAHARGAH, IBN_SINA_YEGAH + "&transposeTo=chah%C4%81rg%C4%81h").status).toBe(200);
  });

  it("a tonic idName with a slash works in the path, encoded or not", () => {
    const q = "tuningSystem=angloeuropean_1800&startingNote=yegah";
    const plain = get("/maqamat/maqam_saba_al_tik_hijaz/saba", q);
    const encoded = get("/maqamat/maqam_saba_al_tik_hijaz%2Fsaba", q);
    expect(plain.status).toBe(200);
    expect(plain.body.maqam.idName).toBe("maqam_saba_al_tik_hijaz/saba");
    expect(withoutRequest(encoded.body)).toEqual(withoutRequest(plain.body));
  });
});

describe("data types and blocks", () => {
  const rast = (extra: string) => get("/maqamat/maqam_rast", `${IBN_SINA_YEGAH}&${extra}`).body;
  const MINIMAL = ["pitchClassIndex", "octave", "scaleDegree", "noteName", "noteNameDisplay"];

  it("accepts all 16 values: one field each, `all` the whole set, the last two only the minimal fields", () => {
    const added: Record<string, string[]> = {
      all: [
        "englishName",
        "solfege",
        "abjadName",
        "fraction",
        "cents",
        "decimalRatio",
        "stringLength",
        "frequency",
        "fretDivision",
        "midiNoteDecimal",
        "midiNotePlusCentsDeviation",
        "centsDeviation",
        "ipnReferenceNoteName",
      ],
      abjadName: ["abjadName"],
      englishName: ["englishName"],
      solfege: ["solfege"],
      fraction: ["fraction"],
      cents: ["cents"],
      centsDeviation: ["centsDeviation"],
      decimalRatio: ["decimalRatio"],
      stringLength: ["stringLength"],
      fretDivision: ["fretDivision"],
      midiNoteNumber: ["midiNoteDecimal"],
      midiNoteDeviation: ["midiNotePlusCentsDeviation"],
      frequency: ["frequency"],
      referenceNoteName: ["ipnReferenceNoteName"],
      pitchClassIndex: [],
      scaleDegree: [],
    };
    expect(Object.keys(added).sort()).toEqual([...MAQAM_PITCH_CLASS_DATA_TYPES].sort());
    for (const [type, fields] of Object.entries(added)) {
      const body = rast(`pitchClassDataType=${type}`);
      expect(Object.keys(body.pitchData.ascending[0]), type).toEqual([...MINIMAL, ...fields]);
      expect(body.parameters.pitchClassDataType).toBe(type);
    }
  });

  it("values: rāst is 4/3 above yegāh; the MIDI label keeps the exact deviation on this route", () => {
    expect(rast("pitchClassDataType=all").pitchData.ascending[0]).toMatchObject({
      fraction: "4/3",
      cents: 498.0449991346125,
      englishName: "C3",
      centsDeviation: -1.9525099004224262,
      midiNotePlusCentsDeviation: "48 -2.0",
    });
    expect(rast("pitchClassDataType=midiNoteDeviation").pitchData.ascending[0].midiNotePlusCentsDeviation).toBe("48 -1.9525099004224262");
  });

  it("includeArabic adds Arabic names everywhere, also with the minimal data types", () => {
    const body = rast("pitchClassDataType=scaleDegree&includeArabic=true");
    expect(body.maqam.displayNameAr).toBe("مقام راست");
    expect(body.family.displayNameAr).toBe("راست");
    expect(body.pitchData.ascending[0].noteNameDisplayAr).toBe("راست");
    expect(body.ajnas.ascending["rāst"][0].displayNameAr).toBe("جنس راست");
    expect(body.primaryJins[0]).toMatchObject({ noteNameDisplayAr: "راست", jinsDisplayNameAr: "جنس راست" });
    expect(body.context.tuningSystem.startingNotes.displayNamesAr).toEqual(["عُشَيران", "يكاه"]);
  });

  it("includeIntervals: descending steps are measured upwards and listed from the top (§10.5)", () => {
    const all = rast("includeIntervals=true").intervals;
    expect(all.ascending).toHaveLength(6);
    expect(all.ascending[0]).toEqual({
      fraction: "9/8",
      cents: 203.91000173077492,
      decimalRatio: 1.125,
      stringLength: -83.33333333333337,
      fretDivision: 83.33300000000003,
      pitchClassIndex: 3,
    });
    expect(all.descending[0]).toMatchObject({ fraction: "256/243", cents: expect.closeTo(90.225, 3) });
    expect(rast("includeIntervals=true&pitchClassDataType=fraction").intervals.ascending[0]).toEqual({ fraction: "9/8" });
    expect(rast("includeIntervals=true&pitchClassDataType=frequency").intervals.ascending[0]).toEqual({ cents: 203.91000173077492 });
    expect(Object.keys(rast("includeIntervals=true&pitchClassDataType=scaleDegree").intervals.ascending[0])).toHaveLength(8);
  });

  it("includeSuyur: the stored suyūr, their stops moved with the transposition", () => {
    const base = rast("includeSuyur=true").suyur;
    expect(base[0].stops[0]).toEqual({ type: "jins", value: "19", startingNote: "rāst" });
    const moved = rast("includeSuyur=true&transposeTo=chahargah").suyur;
    expect(moved[0]).toMatchObject({ id: "sayralshawwa_1946", sourceId: "alshawwa_1946" });
    expect(moved[0].stops.filter((s: any) => s.type === "note").map((s: any) => s.value)).toEqual(["kurdān", "chahārgāh"]);
  });

  it("includeModulations: the blocks of §8.5; 8vb only together with it; counts on the taḥlīl", () => {
    const plain = rast("includeModulations8vb=true");
    expect(plain).not.toHaveProperty("modulations");
    expect(plain).not.toHaveProperty("lowerOctaveModulations");
    const body = rast("includeModulations=true&includeModulations8vb=true");
    expect(body.modulations.maqamat.noteName2pBelowThird).toBe("kurdī");
    expect(Object.values(body.modulations.maqamat).filter(Array.isArray).flat()).toHaveLength(64);
    expect(Object.values(body.modulations.ajnas).filter(Array.isArray).flat()).toHaveLength(54);
    expect(body.lowerOctaveModulations.maqamat).not.toHaveProperty("noteName2pBelowThird");
    expect(rast("transposeTo=chahargah").stats).toMatchObject({ numberOfMaqamModulations: 64, numberOfAjnasModulations: 54 });
  });

  it("includeSources adds the page references", () => {
    expect(rast("includeSources=true").sources).toEqual(expect.arrayContaining([{ sourceId: expect.any(String), page: expect.any(String) }]));
  });
});

describe("options=true (discovery)", () => {
  it("with a starting note: every tonic of the list, the taḥlīl and octave renderings included", () => {
    const { status, body } = get("/maqamat/maqam_rast", "tuningSystem=ibnsina_1037&startingNote=yegah&options=true&pitchClassDataType=cents");
    expect(status).toBe(200);
    expect(body.maqam).toBe("maqām rāst");
    expect(body.availableParameters.startingNote.options).toEqual(["ushayran", "yegah"]);
    expect(body.availableParameters.transposeTo.options).toEqual(["rast", "qarar_rast", "qarar_chahargah", "chahargah", "kurdan", "mahuran"]);
    expect(body.examples).toEqual([
      "/api/maqamat/maqam_rast?tuningSystem=ibnsina_1037&startingNote=yegah&pitchClassDataType=cents&includeIntervals=true",
      "/api/maqamat/maqam_rast?tuningSystem=ibnsina_1037&startingNote=yegah&pitchClassDataType=cents&transposeTo=qarar_rast&includeModulations=true",
      "/api/maqamat/maqam_rast?tuningSystem=ibnsina_1037&startingNote=yegah&pitchClassDataType=all&includeSuyur=true",
    ]);
  });

  it("without a starting note: transposeTo options are null, examples use the first starting note", () => {
    const { body } = get("/maqamat/maqam_rast", "tuningSystem=ibnsina_1037&options=true");
    expect(body.availableParameters.transposeTo.options).toBeNull();
    expect(body.examples).toHaveLength(2);
    expect(body.examples[0]).toContain("startingNote=ushayran");
  });

  it.each([
    ["transposeTo=nawa", ["transposeTo"]],
    ["includeModulations=true&includeSuyur=true", ["includeModulations", "includeSuyur"]],
    ["includeModulations8vb=true", ["includeModulations8vb"]],
    ["pitchClassDataType=fraction&includeIntervals=true", ["pitchClassDataType", "includeIntervals"]],
  ])("conflicts with data parameters (%s)", (extra, conflicting) => {
    const { status, body } = get("/maqamat/maqam_rast", `tuningSystem=ibnsina_1037&startingNote=yegah&options=true&${extra}`);
    expect(status).toBe(400);
    expect(body.conflictingParameters).toEqual(conflicting);
  });

  it("a transposed idName is a transposeTo in discovery mode", () => {
    expect(get("/maqamat/maqam_rast_al_chahargah", "tuningSystem=ibnsina_1037&options=true").status).toBe(400);
  });
});

describe("idName=all", () => {
  it("every realisable maqām in its analytical form, by display name", () => {
    const started = performance.now();
    const { status, body } = get("/maqamat/all", "tuningSystem=alsabbagh_1954&startingNote=rast");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(status).toBe(200);
    expect(body.count).toBe(body.maqamat.length);
    expect(body.context).toMatchObject({
      tuningSystem: { id: "alsabbagh_1954", startingNoteName: "rast", numberOfPitchClassesAllOctaves: 96 },
      pitchClassDataType: null,
      includeIntervals: false,
    });
    const rast = body.maqamat.find((m: any) => m.idName === "maqam_rast");
    expect(rast).toMatchObject({ tonicId: "rast", transposition: false, familyId: "rast", numberOfMaqamModulations: 144, numberOfAjnasModulations: 85 });
    // The whole transposition list, taḥlīl and octave renderings included (QUIRK Q14).
    expect(rast.numberOfTranspositions).toBe(10);
    const displayNames = body.maqamat.map((m: any) => m.displayName);
    expect(displayNames).toEqual([...displayNames].sort((a: string, b: string) => a.localeCompare(b, "en-US")));
  });

  it("needs a tuning system and a starting note; `ALL` is not `all`", () => {
    expect(get("/maqamat/all").status).toBe(400);
    expect(get("/maqamat/all", "tuningSystem=nope_1").status).toBe(404);
    expect(get("/maqamat/all", "tuningSystem=ibnsina_1037").status).toBe(400);
    expect(get("/maqamat/all", "tuningSystem=ibnsina_1037&startingNote=nowhere").status).toBe(400);
    expect(get("/maqamat/ALL", IBN_SINA_YEGAH).status).toBe(404);
  });
});

describe("4xx ladder (§13.2)", () => {
  const RAST = "/maqamat/maqam_rast";
  const cases: [string, string, string, number][] = [
    ["retired includeLowerOctaveModulations", RAST, `${IBN_SINA_YEGAH}&includeLowerOctaveModulations`, 400],
    ["negative centsTolerance", RAST, `${IBN_SINA_YEGAH}&centsTolerance=-1`, 400],
    ["non-numeric centsTolerance", RAST, `${IBN_SINA_YEGAH}&centsTolerance=abc`, 400],
    ["empty includeArabic", RAST, `${IBN_SINA_YEGAH}&includeArabic=`, 400],
    ["includeArabic=yes", RAST, `${IBN_SINA_YEGAH}&includeArabic=yes`, 400],
    ["empty pitchClassDataType", RAST, `${IBN_SINA_YEGAH}&pitchClassDataType=`, 400],
    ["unknown pitchClassDataType", RAST, `${IBN_SINA_YEGAH}&pitchClassDataType=CENTS`, 400],
    ["blank idName", "/maqamat/%20", IBN_SINA_YEGAH, 400],
    ["unknown maqām", "/maqamat/maqam_doesnotexist", IBN_SINA_YEGAH, 404],
    ["unknown numeric id", "/maqamat/999", IBN_SINA_YEGAH, 404],
    ["blank tuningSystem", RAST, "tuningSystem=%20&startingNote=yegah", 400],
    ["blank startingNote", RAST, "tuningSystem=ibnsina_1037&startingNote=", 400],
    ["blank transposeTo", RAST, `${IBN_SINA_YEGAH}&transposeTo=`, 400],
    ["missing tuningSystem", RAST, "startingNote=yegah", 400],
    ["unknown tuningSystem", RAST, "tuningSystem=nope&startingNote=yegah", 404],
    ["missing startingNote", RAST, "tuningSystem=ibnsina_1037", 400],
    ["invalid startingNote", RAST, "tuningSystem=ibnsina_1037&startingNote=rast", 400],
    ["discovery without tuningSystem", RAST, "options=true&startingNote=yegah", 400],
    ["discovery with unknown tuningSystem", RAST, "options=true&tuningSystem=nope", 404],
    ["discovery with invalid startingNote", RAST, "options=true&tuningSystem=ibnsina_1037&startingNote=nowhere", 400],
    ["not realisable", RAST, "tuningSystem=alkindi_874&startingNote=rast", 422],
    ["unreachable transposeTo", RAST, `${IBN_SINA_YEGAH}&transposeTo=nowhere`, 400],
  ];
  it.each(cases)("%s", (_, path, query, status) => {
    const response = get(path, query);
    expect(response.status).toBe(status);
    expect(response.body).toEqual(expect.objectContaining({ error: expect.any(String), message: expect.any(String), hint: expect.any(String) }));
  });

  it("lists the valid options where there are some", () => {
    expect(get(RAST, `${IBN_SINA_YEGAH}&pitchClassDataType=bogus`).body.validOptions).toEqual([...MAQAM_PITCH_CLASS_DATA_TYPES]);
    expect(get(RAST, "tuningSystem=ibnsina_1037").body.validOptions).toEqual(["ushayran", "yegah"]);
  });

  it("never answers 500 to odd input", () => {
    for (const [path, query] of [
      ["/maqamat/maqam_rast", `${IBN_SINA_YEGAH}&transposeTo=%00`],
      ["/maqamat/maqam_rast", `${IBN_SINA_YEGAH}&centsTolerance=Infinity&includeModulations=true`],
      ["/maqamat/maqam_rast_al_", IBN_SINA_YEGAH],
      ["/maqamat/maqam_rast/extra", IBN_SINA_YEGAH],
      ["/maqamat/all", "tuningSystem=ibnsina_1037&startingNote=yegah&centsTolerance=1e9"],
    ])
      expect(get(path, query).status, `${path}?${query}`).toBeLessThan(500);
  });
});

describe("pre-rendering", () => {
  it("lists canonical requests: /maqamat/all, the taḥlīl and one register per transposed degree, default and with all data", () => {
    const requests = [...maqamDetailRequests(catalog, { full: false })];
    expect(requests).toContain("/maqamat/all?startingNote=yegah&tuningSystem=ibnsina_1037");
    expect(requests).toContain("/maqamat/maqam_rast?startingNote=yegah&tuningSystem=ibnsina_1037");
    expect(requests).toContain("/maqamat/maqam_rast_al_chahargah?pitchClassDataType=all&startingNote=yegah&tuningSystem=ibnsina_1037");
    // Octave renderings and the other registers of a degree are answered by the fallback.
    expect(requests).not.toContain("/maqamat/maqam_rast_al_kurdan?startingNote=yegah&tuningSystem=ibnsina_1037");
    expect(requests).not.toContain("/maqamat/maqam_rast_al_mahuran?startingNote=yegah&tuningSystem=ibnsina_1037");
    expect(requests.some((r) => r.startsWith("/maqamat/maqam_rast?") && r.includes("tuningSystem=alkindi_874"))).toBe(false);
    for (const r of requests.filter((_, i) => i % 97 === 0)) expectCanonical(r);
  });
});
