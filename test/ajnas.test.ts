/**
 * The ajnās endpoints: worked examples in ibnsina_1037, every transposition-identifier rule of the
 * spec (legacy spellings included), the 422s, every 4xx, the compare invariant as a property over
 * generated requests, and the pre-rendered request list.
 */
import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { ask, expectCanonical, expectError, expectPrerendered, random } from "./support/api.js";
import { ajnasRequests } from "../src/api/ajnas/prerender.js";
import { distinctTranspositions } from "../src/api/entities/transpositions.js";

import { transpositionsOf } from "../src/theory/transposition.js";
import { PITCH_CLASS_DATA_TYPES } from "../src/api/shared/pitchClassValues.js";

const IBN_SINA_YEGAH = "tuningSystem=ibnsina_1037&startingNote=yegah";

/** The body without its self link, which echoes the request. */
const withoutSelf = (body: any) => ({ ...body, links: { ...body.links, self: undefined } });

describe("worked examples: ibnsina_1037 / yegāh", () => {
  it("jins rāst: the taḥlīl on rāst with the archive's exact cents (§3.9)", () => {
    const { status, body } = ask("/ajnas/jins_rast", `${IBN_SINA_YEGAH}&pitchClassDataType=cents`);
    expect(status).toBe(200);
    expect(body.jins).toEqual({ id: "19", idName: "jins_rast", displayName: "jins rāst", version: expect.any(String), isBaseForm: true });
    expect(body.tonic).toEqual({ idName: "rast", displayName: "rāst" });
    expect(body.transposition).toBeUndefined();
    expect(body.pitchData.map((pc: any) => [pc.scaleDegree, pc.noteName, pc.cents])).toEqual([
      ["I", "rast", 498.0449991346125],
      ["II", "dugah", 701.9550008653874],
      ["III", "segah", 840.5276617693106],
      ["IV", "chahargah", 996.089998269225],
    ]);
    // Every register of a transposed degree counts in the detail (reference §5.5): 15 entries less
    // the taḥlīl and its three octave renderings.
    expect(body.stats).toEqual({ numberOfTranspositions: 11, numberOfPitchClasses: 4 });
    expect(body.context.tuningSystem).toEqual({
      id: "ibnsina_1037",
      displayName: "Ibn Sīnā  (1037) 7-Fret Oud 17-Tone",
      version: expect.any(String),
      originalValueType: "fraction",
      numberOfPitchClassesSingleOctave: 17,
      numberOfPitchClassesAllOctaves: 68,
      startingNoteName: "yegah",
      referenceFrequency: 97.999,
    });
  });

  it("jins rāst: three distinct transpositions, each degree in the register nearest the taḥlīl", () => {
    const { status, body } = ask("/ajnas/jins_rast/transpositions", IBN_SINA_YEGAH);
    expect(status).toBe(200);
    expect(body.transpositions.total).toBe(3);
    expect(body.transpositions.options).toEqual({
      idNames: ["jins_rast_al_yegah", "jins_rast_al_ajam_ushayran", "jins_rast_al_chahargah"],
      displayNames: ["jins rāst al-yegāh", "jins rāst al-ʿajam ʿushayrān", "jins rāst al-chahārgāh"],
    });
    expect(body.transpositions.detailed[2]).toEqual({
      idName: "jins_rast_al_chahargah",
      displayName: "jins rāst al-chahārgāh",
      tonic: { idName: "chahargah", displayName: "chahārgāh" },
      pitchClass: { pitchClassIndex: 14, octave: 1 },
      links: { detail: "http://localhost:3000/api/ajnas/jins_rast_al_chahargah?startingNote=yegah&tuningSystem=ibnsina_1037" },
    });
    expect(body.links.self).toBe("http://localhost:3000/api/ajnas/jins_rast/transpositions?tuningSystem=ibnsina_1037&startingNote=yegah");
  });

  it("jins bayyāt: nawā comes from the octave above the yegāh set; transposed to rāst keeps the pattern", () => {
    const tahlil = ask("/ajnas/jins_bayyat", `${IBN_SINA_YEGAH}&pitchClassDataType=cents`).body;
    expect(tahlil.pitchData.map((pc: any) => pc.noteName)).toEqual(["dugah", "segah", "chahargah", "nawa"]);
    const { body } = ask("/ajnas/jins_bayyat", `${IBN_SINA_YEGAH}&pitchClassDataType=cents&transposeTo=rast&includeIntervals=true`);
    expect(body.jins).toMatchObject({ idName: "jins_bayyat_al_rast", displayName: "jins bayyāt al-rāst", isBaseForm: false });
    expect(body.transposition).toEqual({
      original: { idName: "dugah", displayName: "dūgāh" },
      resolved: { idName: "rast", displayName: "rāst" },
    });
    expect(body.pitchData.map((pc: any) => pc.noteName)).toEqual(["rast", "tik_zirguleh", "kurdi", "chahargah"]);
    // cents intervals of the transposition equal the taḥlīl's: 138.57, 155.56, 203.91 (within float noise).
    const pattern = (cells: any[]) => cells.slice(1).map((pc, i) => pc.cents - cells[i].cents);
    pattern(body.pitchData).forEach((c: number, i: number) => {
      expect(c).toBeCloseTo(pattern(tahlil.pitchData)[i], 9);
    });
    expect(body.intervals).toEqual(pattern(body.pitchData).map((cents: number) => ({ cents: expect.closeTo(cents, 9) })));
    const distinct = ask("/ajnas/jins_bayyat/transpositions", IBN_SINA_YEGAH).body.transpositions.options.idNames;
    // nawā shares yegāh's degree and lies nearer dūgāh; ḥusaynī is ʿushayrān an octave up.
    expect(distinct).toEqual(["jins_bayyat_al_ushayran", "jins_bayyat_al_rast", "jins_bayyat_al_nawa"]);
  });

  it("§10.5 interval blocks: one field per value type, frequency null, the full interval otherwise", () => {
    const intervals = (type: string) => ask("/ajnas/jins_rast", `${IBN_SINA_YEGAH}&includeIntervals=true&pitchClassDataType=${type}`).body.intervals;
    expect(intervals("fraction")).toEqual([{ fraction: "9/8" }, { fraction: "13/12" }, { fraction: "128/117" }]);
    expect(intervals("frequency")).toEqual([{ frequency: null }, { frequency: null }, { frequency: null }]);
    expect(intervals("all")[0]).toEqual({
      fraction: "9/8",
      cents: expect.closeTo(203.91, 2),
      decimalRatio: 1.125,
      stringLength: expect.any(Number),
      fretDivision: expect.any(Number),
      pitchClassIndex: expect.any(Number),
      originalValue: "9/8",
      originalValueType: "fraction",
    });
    expect(intervals("solfege")).toEqual(intervals("all"));
  });

  it("availability spans three registers: jins segāh baladī needs the octave above the yegāh set, jins qāf the octave below the ʿushayrān set", () => {
    const baladi = ask("/ajnas/jins_segah_baladi/availability").body.availability.tuningSystems;
    expect(baladi.find((t: any) => t.tuningSystemId === "ibnsina_1037").tuningSystemStartingNoteNamesIds).toEqual(["ushayran", "yegah"]);
    const qaf = ask("/ajnas/jins_qaf/availability").body.availability.tuningSystems;
    expect(qaf.find((t: any) => t.tuningSystemId === "ibnsina_1037").tuningSystemStartingNoteNamesIds).toEqual(["ushayran", "yegah"]);
  });

  it("discovery mode lists every tonic of the list, taḥlīl and octave renderings included", () => {
    const { status, body } = ask("/ajnas/jins_rast", `${IBN_SINA_YEGAH}&options=true`);
    expect(status).toBe(200);
    expect(body.jins).toBe("jins rāst");
    expect(body.availableParameters.startingNote.options).toEqual(["ushayran", "yegah"]);
    expect(body.availableParameters.pitchClassDataType.options).toEqual([...PITCH_CLASS_DATA_TYPES]);
    expect(body.availableParameters.transposeTo.options.slice(0, 3)).toEqual(["rast", "qarar_yegah", "qarar_ajam_ushayran"]);
    expect(body.examples).toEqual([
      "/api/ajnas/jins_rast?tuningSystem=ibnsina_1037&startingNote=yegah&pitchClassDataType=cents&includeIntervals=true",
      "/api/ajnas/jins_rast?tuningSystem=ibnsina_1037&startingNote=yegah&pitchClassDataType=cents&transposeTo=qarar_yegah",
      "/api/ajnas/jins_rast?tuningSystem=ibnsina_1037&startingNote=yegah&pitchClassDataType=all",
    ]);
    const withoutNote = ask("/ajnas/jins_rast", "tuningSystem=ibnsina_1037&options=true&pitchClassDataType=cents").body;
    expect(withoutNote.availableParameters.transposeTo.options).toBeNull();
    expect(withoutNote.examples).toHaveLength(2);
  });
});

describe("GET /ajnas", () => {
  it("lists the 38 ajnās alphabetically by idName, or by tonic priority", () => {
    const alphabetical = ask("/ajnas").body;
    expect(alphabetical.count).toBe(38);
    expect(alphabetical.data.slice(0, 3).map((d: any) => d.jins.idName)).toEqual(["jins_ajam_sultani", "jins_ajam_ushayran", "jins_ashwaq_alkharif"]);
    const byTonic = ask("/ajnas", "sortBy=tonic").body.data.map((d: any) => d.tonic.idName);
    expect(byTonic[0]).toBe("yegah");
    expect(byTonic[byTonic.length - 1]).toBe("nawa");
  });

  it("filters by tonic diacritics-insensitively; an unknown tonic is an empty list", () => {
    expect(ask("/ajnas", "filterByTonic=r%C4%81st").body.data.map((d: any) => d.jins.idName)).toEqual([
      "jins_hijaz_kar",
      "jins_hijaz_kar_kurd",
      "jins_nahawand",
      "jins_nawa_athar",
      "jins_rast",
    ]);
    expect(ask("/ajnas", "filterByTonic=nowhere").body).toEqual({ count: 0, data: [] });
  });

  it("adds sources and Arabic names on request", () => {
    const item = ask("/ajnas", "includeSources=true&includeArabic=true").body.data[0];
    expect(item.sources).toEqual([{ sourceId: "alhilu_1957_1961", page: "83" }]);
    expect(item.jins.displayNameAr).toBe("جنس عَجَم سُلطاني");
    expect(item.availability.tuningSystems[0].startingNotes.displayNamesAr).toBeDefined();
  });
});

describe("transposition identifiers (spec rules 1-9)", () => {
  it("1-2: transposed idNames are <base>_al_<tonic>; an al inside a base is closed up", () => {
    const body = ask("/ajnas/jins_rahat_alarwah", "tuningSystem=angloeuropean_1800&startingNote=yegah&transposeTo=kurdi").body;
    expect(body.jins.idName).toBe("jins_rahat_alarwah_al_kurdi");
    expect(body.jins.displayName).toBe("jins rāḥat al-arwāḥ al-kurdī");
  });

  it("3: the taḥlīl is the bare idName; an octave rendering names its tonic but is not a transposition", () => {
    const octave = ask("/ajnas/jins_rast", `${IBN_SINA_YEGAH}&transposeTo=kurdan`).body;
    expect(octave.jins).toMatchObject({ idName: "jins_rast_al_kurdan", displayName: "jins rāst al-kurdān", isBaseForm: false });
    expect(octave.transposition).toBeUndefined();
    const tahlil = ask("/ajnas/jins_rast", `${IBN_SINA_YEGAH}&transposeTo=rast`).body;
    expect(tahlil.jins).toMatchObject({ idName: "jins_rast", isBaseForm: true });
  });

  it("5: the older spellings _al-<tonic>, _al<tonic> and a hyphenated base are read as the current one", () => {
    const current = withoutSelf(ask("/ajnas/jins_rast_al_nawa", IBN_SINA_YEGAH).body);
    for (const legacy of ["jins_rast_al-nawa", "jins_rast_alnawa"]) expect(withoutSelf(ask(`/ajnas/${legacy}`, IBN_SINA_YEGAH).body)).toEqual(current);
    const system = "tuningSystem=angloeuropean_1800&startingNote=yegah";
    const rahat = withoutSelf(ask("/ajnas/jins_rahat_alarwah_al_kurdi", system).body);
    expect(rahat.jins.idName).toBe("jins_rahat_alarwah_al_kurdi");
    for (const legacy of ["jins_rahat_al-arwah_al-kurdi", "jins_rahat_al-arwah_alkurdi", "jins_rahat_alarwah_alkurdi"])
      expect(withoutSelf(ask(`/ajnas/${legacy}`, system).body)).toEqual(rahat);
  });

  it("6: a transposed idName in a path is the base with the tonic given separately", () => {
    expect(withoutSelf(ask("/ajnas/jins_rast_al_nawa", IBN_SINA_YEGAH).body)).toEqual(
      withoutSelf(ask("/ajnas/jins_rast", `${IBN_SINA_YEGAH}&transposeTo=nawa`).body),
    );
    expect(ask("/ajnas/jins_rast_al_awj/availability").body).toEqual(ask("/ajnas/jins_rast/availability", "transpositionNoteName=awj").body);
    const compare = "tuningSystems=ibnsina_1037&startingNotes=yegah";
    expect(withoutSelf(ask("/ajnas/jins_rast_al_nawa/compare", compare).body)).toEqual(
      withoutSelf(ask("/ajnas/jins_rast/compare", `${compare}&transposeTo=nawa`).body),
    );
    // A tonic whose idName contains a slash, encoded or not.
    const slash = ask("/ajnas/jins_rahat_alarwah_al_buselik/ushshaq", "tuningSystem=angloeuropean_1800&startingNote=yegah");
    expect(slash.body.jins.idName).toBe("jins_rahat_alarwah_al_buselik/ushshaq");
    expect(withoutSelf(ask("/ajnas/jins_rahat_alarwah_al_buselik%2Fushshaq", "tuningSystem=angloeuropean_1800&startingNote=yegah").body)).toEqual(
      withoutSelf(slash.body),
    );
  });

  it("7: a transposed idName that cannot be built there gets the same 400 as the matching transposeTo", () => {
    const byPath = ask("/ajnas/jins_rast_al_nim_hisar", IBN_SINA_YEGAH);
    const byParameter = ask("/ajnas/jins_rast", `${IBN_SINA_YEGAH}&transposeTo=nim_hisar`);
    expectError(byPath, 400);
    expect(byPath.body).toEqual(byParameter.body);
    expect(byPath.body.availableTranspositions.map((t: any) => t.idName)).toContain("jins_rast_al_chahargah");
  });

  it("8: a different tonic given both ways is a 400; the same tonic both ways is accepted", () => {
    expectError(ask("/ajnas/jins_hijaz_al_nawa", "tuningSystem=alsabbagh_1954&startingNote=rast&transposeTo=dugah"), 400);
    expectError(ask("/ajnas/jins_rast_al_awj/availability", "transpositionNoteName=nawa"), 400);
    expectError(ask("/ajnas/jins_rast_al_nawa/compare", "tuningSystems=ibnsina_1037&startingNotes=yegah&transposeTo=dugah"), 400);
    expect(ask("/ajnas/jins_rast_al_nawa", `${IBN_SINA_YEGAH}&transposeTo=naw%C4%81`).status).toBe(200);
    expect(ask("/ajnas/jins_rast_al_awj/availability", "transpositionNoteName=awj").status).toBe(200);
  });

  it("8: the conflicting-tonic hint names the route that was asked (detail, /availability, /compare)", () => {
    expect(ask("/ajnas/jins_hijaz_al_nawa", "tuningSystem=alsabbagh_1954&startingNote=rast&transposeTo=dugah").body.hint).toContain(
      "/ajnas/jins_hijaz?transposeTo=dugah",
    );
    expect(ask("/ajnas/jins_rast_al_awj/availability", "transpositionNoteName=nawa").body.hint).toContain(
      "/ajnas/jins_rast/availability?transpositionNoteName=nawa",
    );
    expect(ask("/ajnas/jins_rast_al_nawa/compare", "tuningSystems=ibnsina_1037&startingNotes=yegah&transposeTo=dugah").body.hint).toContain(
      "/ajnas/jins_rast/compare?transposeTo=dugah",
    );
  });

  it("9: /transpositions takes only a base idName; the hint names the base", () => {
    for (const id of ["jins_rast_al_nawa", "jins_rast_al-nawa", "jins_rast_alnawa"]) {
      const r = ask(`/ajnas/${id}/transpositions`, IBN_SINA_YEGAH);
      expectError(r, 400);
      expect(r.body.hint).toContain("/ajnas/jins_rast/transpositions");
    }
    expect(ask("/ajnas/19/transpositions", IBN_SINA_YEGAH).status).toBe(200);
  });
});

describe("422", () => {
  it("detail: the jins is in no adjacent-octave set of the tuning system", () => {
    const r = ask("/ajnas/jins_rast", "tuningSystem=almawsili_850&startingNote=yegah");
    expectError(r, 422);
    expect(r.body.hint).toContain("/api/ajnas/jins_rast/availability");
  });

  it("/transpositions: not realisable, or only in its own modal position", () => {
    expectError(ask("/ajnas/jins_segah_baladi/transpositions", "tuningSystem=alfarabi_950j&startingNote=rast"), 422);
    const none = ask("/ajnas/jins_yegah/transpositions", "tuningSystem=ibnsina_1037&startingNote=yegah&centsTolerance=0");
    expectError(none, 422);
    expect(none.body.error).toContain("No distinct transpositions");
  });
});

describe("every 4xx", () => {
  const cases: [string, string, number, boolean?][] = [
    // [path, query, status, carries validOptions]
    ["/ajnas", "filterByTonic=", 400],
    ["/ajnas", "sortBy=", 400, true],
    ["/ajnas", "sortBy=name", 400, true],
    ["/ajnas", "includeArabic=", 400, true],
    ["/ajnas", "includeArabic=x", 400, true],
    ["/ajnas/jins_nope", IBN_SINA_YEGAH, 404],
    ["/ajnas/jins_rast", "", 400],
    ["/ajnas/jins_rast", "tuningSystem=&startingNote=yegah", 400],
    ["/ajnas/jins_rast", "tuningSystem=nope&startingNote=yegah", 404],
    ["/ajnas/jins_rast", "tuningSystem=ibnsina_1037", 400, true],
    ["/ajnas/jins_rast", "tuningSystem=ibnsina_1037&startingNote=rast", 400, true],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&pitchClassDataType=`, 400, true],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&pitchClassDataType=Cents`, 400, true],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&pitchClassDataType=scaleDegree`, 400, true],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&transposeTo=`, 400],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&transposeTo=nowhere`, 400],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&centsTolerance=-1`, 400],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&centsTolerance=zz`, 400],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&options=true&includeIntervals=true`, 400],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&options=true&transposeTo=nawa`, 400],
    ["/ajnas/jins_rast_al_nawa", `${IBN_SINA_YEGAH}&options=true`, 400],
    ["/ajnas/jins_rast", `${IBN_SINA_YEGAH}&options=true&pitchClassDataType=all`, 400],
    ["/ajnas/jins_rast", "options=true", 400],
    ["/ajnas/jins_rast", "options=true&tuningSystem=nope", 404],
    ["/ajnas/jins_rast", "options=true&tuningSystem=alsabbagh_1954&startingNote=nowhere", 400, true],
    ["/ajnas/all/availability", "", 404],
    ["/ajnas/jins_rast/availability", "transpositionNoteName=", 400],
    ["/ajnas/jins_rast/availability", "includeArabic=maybe", 400, true],
    ["/ajnas/jins_rast/transpositions", "tuningSystem=alsabbagh_1954", 400, true],
    ["/ajnas/jins_rast/transpositions", "startingNote=rast", 400],
    ["/ajnas/jins_rast/transpositions", "tuningSystem=nope&startingNote=rast", 404],
    ["/ajnas/jins_rast/transpositions", "tuningSystem=alsabbagh_1954&startingNote=yegah", 400, true],
    ["/ajnas/all/transpositions", "tuningSystem=alsabbagh_1954&startingNote=rast", 404],
    ["/ajnas/jins_rast/compare", "", 400],
    ["/ajnas/jins_rast/compare", "tuningSystems=alsabbagh_1954", 400],
    ["/ajnas/jins_rast/compare", "tuningSystems=,,&startingNotes=rast", 400],
    ["/ajnas/jins_rast/compare", "tuningSystems=all,alsabbagh_1954&startingNotes=rast", 400],
    ["/ajnas/jins_rast/compare", "tuningSystems=alsabbagh_1954&startingNotes=,", 400],
    ["/ajnas/jins_rast/compare", "tuningSystems=alsabbagh_1954&startingNotes=rast&pitchClassDataType=bogus", 400, true],
    ["/ajnas/jins_rast/compare", "tuningSystems=alsabbagh_1954&startingNotes=rast&includeIntervals=TRUE", 400, true],
    ["/ajnas/nope/compare", "tuningSystems=alsabbagh_1954&startingNotes=rast", 404],
    ["/tuning-systems/nope/yegah/ajnas", "", 404],
    ["/tuning-systems/alsabbagh_1954/yegah/ajnas", "", 400, true],
    ["/tuning-systems/ibnsina_1037/yegah/ajnas", "sortBy=bogus", 400, true],
    ["/tuning-systems/ibnsina_1037/yegah/ajnas", "includeTranspositions=yes", 400, true],
    ["/tuning-systems/ibnsina_1037/yegah/ajnas", "includeJinsDegrees=", 400, true],
    ["/tuning-systems/ibnsina_1037/yegah/ajnas", "centsTolerance=-2", 400],
    ["/tuning-systems/ibnsina_1037/yegah/ajnas", "includeArabic=1", 400, true],
  ];
  for (const [path, query, status, options] of cases)
    it(`${path}?${query} → ${status}`, () => {
      const r = ask(path, query);
      expectError(r, status);
      if (options) expect(Array.isArray(r.body.validOptions)).toBe(true);
    });
});

describe("GET /ajnas/{idName}/compare", () => {
  it("property: successful + unavailable + failed === total = N × M, and every cell is exactly one kind", () => {
    const next = random(20260101);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
    const systemTokens = [...catalog.tuningSystems.map((ts) => ts.id), "nope", "IBNSINA_1037"];
    const noteTokens = ["yegah", "ushayran", "rast", "yeg%C4%81h", "USHAYRAN", "dugah", "nowhere"];
    const tonics = [undefined, "nawa", "rast", "dugah", "kurdan", "husayni", "nowhere"];
    for (let run = 0; run < 60; run++) {
      const jins = pick(catalog.ajnas);
      const systems = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(systemTokens));
      const notes = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(noteTokens));
      const tonic = pick(tonics);
      const query = `tuningSystems=${systems.join(",")}&startingNotes=${notes.join(",")}${tonic ? `&transposeTo=${tonic}` : ""}&includeIntervals=${next() < 0.5}`;
      const { status, body } = ask(`/ajnas/${jins.idName}/compare`, query);
      expect(status, query).toBe(200);
      const c = body.comparisons;
      expect(c.successfulComparisons + c.unavailableStartingNotes + c.failedComparisons).toBe(c.totalComparisons);
      expect(c.totalComparisons).toBe(systems.length * notes.length);
      expect(c.count).toBe(c.data.length);
      expect(c.data.filter((cell: any) => "note" in cell)).toHaveLength(c.unavailableStartingNotes);
      expect(c.data.filter((cell: any) => "error" in cell)).toHaveLength(c.failedComparisons);
      for (const cell of c.data) {
        expect("note" in cell && "error" in cell).toBe(false);
        if (!("note" in cell) && !("error" in cell)) expect(cell.pitchData).toHaveLength(cell.stats.jins.numberOfPitchClasses);
      }
    }
  });

  it("tuningSystems=all covers every system for every starting note, in file order", () => {
    const c = ask("/ajnas/jins_rast/compare", "tuningSystems=all&startingNotes=yegah,rast&pitchClassDataType=cents").body.comparisons;
    expect(c.totalComparisons).toBe(catalog.tuningSystems.length * 2);
    expect(c.data[0].tuningSystem.id).toBe(catalog.tuningSystems[0].id);
  });

  it("cells: unknown system and unrealisable jins are errors, a missing starting note is a note, a bad tonic lists the transpositions", () => {
    const c = ask("/ajnas/jins_rast/compare", "tuningSystems=nope,almawsili_850,alsabbagh_1954&startingNotes=yegah,rast&transposeTo=husayni").body.comparisons
      .data;
    expect(c[0]).toMatchObject({ error: "Tuning system 'nope' not found" });
    expect(c[2]).toMatchObject({ error: "Jins 'jins rāst' cannot be realized in this tuning system configuration" });
    expect(c[3]).toMatchObject({ note: expect.stringContaining("'rast' is not available") });
    expect(c[4]).toMatchObject({ note: expect.any(String), validStartingNotes: { idNames: ["rast"], displayNames: ["rāst"] } });
    expect(c[5]).toMatchObject({ transposeTo: "husayni", error: "Cannot transpose to 'husayni' in this tuning system" });
  });
});

describe("GET /tuning-systems/{id}/{startingNote}/ajnas", () => {
  it("lists the ajnās realisable from the starting note, sorted by tonic, consistent with their availability", () => {
    const { status, body } = ask("/tuning-systems/ibnsina_1037/yegah/ajnas");
    expect(status).toBe(200);
    expect(body.selectedStartingNote).toEqual({ idName: "yegah", displayName: "yegāh" });
    expect(body.stats.totalAjnasInLibrary).toBe(38);
    expect(body.stats.totalAjnasForStartingNote).toBe(body.data.length);
    for (const item of body.data) {
      const system = ask(`/ajnas/${item.jins.idName}/availability`).body.availability.tuningSystems.find((t: any) => t.tuningSystemId === "ibnsina_1037");
      expect(system.tuningSystemStartingNoteNamesIds).toContain("yegah");
      expect(ask(item.links.detail.replace("http://localhost:3000/api", "").split("?")[0], IBN_SINA_YEGAH).status).toBe(200);
    }
    expect(body.data.map((d: any) => d.jins.idName)).toContain("jins_segah_baladi");
    expect(body.links).toEqual({
      self: "http://localhost:3000/api/tuning-systems/ibnsina_1037/yegah/ajnas",
      tuningSystem: "http://localhost:3000/api/tuning-systems/ibnsina_1037",
      collection: "http://localhost:3000/api/ajnas",
    });
  });

  it("adds jins degrees and every transposition (each register) on request", () => {
    const rast = ask("/tuning-systems/ibnsina_1037/yegah/ajnas", "includeTranspositions=true&includeJinsDegrees=true").body.data.find(
      (d: any) => d.jins.idName === "jins_rast",
    );
    expect(rast.jinsDegrees).toEqual(["rast", "dugah", "segah", "chahargah"]);
    expect(rast.transpositions).toHaveLength(11);
    expect(rast.transpositions[0]).toEqual({
      idName: "jins_rast_al_qarar_yegah",
      displayName: "jins rāst al-qarār yegāh",
      tonic: { idName: "qarar_yegah", displayName: "qarār yegāh" },
      jinsDegrees: ["qarar_yegah", "qarar_ushayran", "qarar_iraq", "qarar_rast"],
    });
  });
});

describe("links", () => {
  it("every /transpositions detail link answers 200, the given tolerance passed on", () => {
    for (const [path, query] of [
      ["/ajnas/jins_rast/transpositions", IBN_SINA_YEGAH],
      ["/ajnas/jins_segah_baladi/transpositions", `${IBN_SINA_YEGAH}&centsTolerance=15`],
      ["/ajnas/jins_saba_zamzam/transpositions", "tuningSystem=alfarabi_950j&startingNote=rast&centsTolerance=15"],
    ]) {
      const { body } = ask(path, query);
      for (const { links } of body.transpositions.detailed) {
        const url = new URL(links.detail);
        expect(url.searchParams.has("centsTolerance")).toBe(query.includes("centsTolerance"));
        expect(ask(url.pathname.replace(/^\/api/, ""), url.search.slice(1)).status, links.detail).toBe(200);
      }
    }
  });
});

describe("distinct transpositions", () => {
  it("keep one entry per modal degree other than the taḥlīl's, in pitch order", () => {
    const ts = catalog.findTuningSystem("ibnsina_1037")!;
    for (const jins of catalog.ajnas) {
      const list = transpositionsOf(catalog, jins, ts, "yegāh");
      const distinct = distinctTranspositions(catalog, list);
      const slots = distinct.map((t) => t.tonic);
      expect(new Set(slots).size).toBe(slots.length);
      expect(distinct.every((t) => t.isTransposed)).toBe(true);
      expect(distinct.map((t) => t.ascending[0].cents)).toEqual([...distinct.map((t) => t.ascending[0].cents)].sort((a, b) => a - b));
    }
    expect(catalog.findJins("jins_rast")).toBeDefined();
  });
});

describe("pre-rendered requests", () => {
  const requests = [...ajnasRequests(catalog, { full: false })];

  it("are canonical and distinct", () => {
    for (const r of requests) expectCanonical(r);
    expect(new Set(requests).size).toBe(requests.length);
  });

  it("answer 200 (a spread sample)", () => {
    const sample = requests.filter((_, i) => i % 61 === 0);
    for (const r of sample) expectPrerendered(r);
  });
});
