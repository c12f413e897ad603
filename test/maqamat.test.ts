/**
 * The maqām collection routes: GET /maqamat, /maqamat/families, /maqamat/{idName}/availability
 * and /transpositions. Worked examples (the §5.5 rāst transpositions, the §7.2 family vectors),
 * every 4xx of the spec's error table for these routes, the 422s, the transposed-idName rules and
 * the pre-rendered request list.
 */
import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { ask, expectError, expectPrerendered } from "./support/api.js";
import { maqamatRequests } from "../src/api/maqamat/prerender.js";

import { transpositionsOf, transposedOnly } from "../src/theory/transposition.js";

const IBN_SINA_YEGAH = "tuningSystem=ibnsina_1037&startingNote=yegah";

describe("GET /maqamat", () => {
  it("classifies every maqām as the §7.2 test vectors say (alsabbagh_1954, built from the maqām's tonic)", () => {
    const { status, body } = ask("/maqamat");
    expect(status).toBe(200);
    expect(body.count).toBe(112);
    const byFamily: Record<string, number[]> = {};
    for (const item of body.data) {
      byFamily[item.family.idName] ??= [];
      byFamily[item.family.idName].push(Number(item.maqam.id));
    }
    for (const ids of Object.values(byFamily)) ids.sort((a, b) => a - b);
    expect(byFamily).toEqual({
      rast: [1, 18, 22, 27, 29, 51, 55, 56, 58, 82, 89, 99],
      hijaz: [2, 4, 23, 31, 38, 54, 61, 65, 71, 72, 76, 88, 103, 108, 116],
      no_jins: [14, 25, 44, 50, 62, 74, 79, 83, 86, 87, 97, 98],
      athar: [5, 6, 64],
      athar_kurd: [12],
      huzam: [20, 21, 57],
      hisar: [75, 115],
      mahran: [41],
      ajam: [17, 42, 100],
      chahargah: [49],
      awj_ara: [46, 47],
      iraq: [26, 33, 43, 45, 52, 92, 104],
      kurd: [3, 9, 39, 93, 94, 114],
      nahawand: [10, 11, 30, 32, 34, 63],
      buselik: [48, 67, 105, 109],
      saba: [15, 96, 101, 113],
      saba_zamzam: [16],
      segah: [19, 80, 81],
      bayyat: [7, 8, 13, 24, 35, 36, 37, 40, 66, 68, 69, 70, 73, 77, 78, 84, 85, 90, 91, 95, 102, 106, 107, 110, 111, 112],
    });
  });

  it("a summary record: entity, family, tonic, stats, characteristics, availability, link", () => {
    const rast = ask("/maqamat", "filterByTonic=rast").body.data.find((item: any) => item.maqam.idName === "maqam_rast");
    expect(rast).toMatchObject({
      maqam: { id: "1", idName: "maqam_rast", displayName: "maqām rāst" },
      family: { idName: "rast", displayName: "rāst" },
      tonic: { idName: "rast", displayName: "rāst" },
      stats: { numberOfPitchClasses: 7 },
      characteristics: { isOctaveRepeating: true, hasAsymmetricDescending: true, hasSuyur: true },
      links: { detail: "http://localhost:3000/api/maqamat/maqam_rast" },
    });
    expect(rast.stats.availableInTuningSystems).toBe(rast.availability.tuningSystems.length);
    expect(rast.sources).toBeUndefined();
  });

  it("filters by family and tonic (diacritics- and case-insensitively), sorts by idName or by tonic", () => {
    expect(ask("/maqamat", "filterByFamily=R%C4%81st").body.count).toBe(12);
    expect(ask("/maqamat", "filterByTonic=DUGAH").body.count).toBe(48);
    // A value outside the listed families or tonics selects nothing; it is not an error.
    expect(ask("/maqamat", "filterByFamily=doesnotexist").body).toEqual({ count: 0, data: [] });
    const alphabetical = ask("/maqamat").body.data.map((item: any) => item.maqam.idName);
    expect(alphabetical.slice(0, 3)).toEqual(["maqam_ajam_buselik", "maqam_ajam_kurdi", "maqam_ajam_ushayran"]);
    const byTonic = ask("/maqamat", "sortBy=tonic").body.data.map((item: any) => item.tonic.idName);
    expect(byTonic[0]).toBe("yegah");
    expect(byTonic.indexOf("rast")).toBeLessThan(byTonic.indexOf("dugah"));
  });

  it("adds sources and Arabic names on request", () => {
    const item = ask("/maqamat", "filterByTonic=rast&includeSources=true&includeArabic=true").body.data[0];
    expect(item.sources.length).toBeGreaterThan(0);
    expect(item.maqam.displayNameAr).toMatch(/^مقام /);
    expect(item.availability.tuningSystems[0].startingNotes.displayNamesAr).toBeDefined();
  });

  it("400 for an empty filter, any sortBy but the two values, a bad includeArabic or centsTolerance", () => {
    for (const query of ["filterByFamily=", "filterByTonic=", "filterByTonic=%20", "sortBy=", "sortBy=bogus", "includeArabic=yes", "centsTolerance=-1"])
      expectError(ask("/maqamat", query), 400);
    expect(ask("/maqamat", "sortBy=bogus").body.validOptions).toEqual(["alphabetical", "tonic"]);
  });
});

describe("GET /maqamat/families", () => {
  it("lists the families of the maqāmāt a tuning system realises, by display name, linked to the filtered list", () => {
    const { status, body } = ask("/maqamat/families", "tuningSystem=alkindi_874&startingNote=ushayran&includeArabic=true");
    expect(status).toBe(200);
    expect(body.data.map((item: any) => item.family.idName)).toEqual(["athar", "athar_kurd", "hijaz", "kurd", "nahawand", "no_jins", "saba_zamzam", "ajam"]);
    expect(body.count).toBe(8);
    expect(body.data[1]).toEqual({
      family: { idName: "athar_kurd", displayName: "athar kurd", displayNameAr: "أثَر كُرد" },
      links: { maqamat: "/api/maqamat?filterByFamily=athar_kurd" },
    });
    // `no jins` has no Arabic name here (the converter would give `نo جنس`).
    expect(body.data[5].family).toEqual({ idName: "no_jins", displayName: "no jins" });
  });

  it("400 for a missing or blank tuningSystem or startingNote; 404 for an unknown tuning system or starting note", () => {
    expectError(ask("/maqamat/families", "startingNote=rast"), 400);
    expectError(ask("/maqamat/families", "tuningSystem=alsabbagh_1954"), 400);
    expectError(ask("/maqamat/families", "tuningSystem=alsabbagh_1954&startingNote="), 400);
    expectError(ask("/maqamat/families", "tuningSystem=nope&startingNote=rast"), 404);
    const r = ask("/maqamat/families", "tuningSystem=alsabbagh_1954&startingNote=yegah");
    expectError(r, 404);
    expect(r.body.validOptions).toEqual(["rast"]);
  });
});

describe("GET /maqamat/{idName}/availability", () => {
  it("a transposed idName with a different transpositionNoteName is a 400 whose hint names the availability route", () => {
    const r = ask("/maqamat/maqam_rast_alnawa/availability", "transpositionNoteName=dugah");
    expectError(r, 400);
    expect(r.body.hint).toContain("/maqamat/maqam_rast/availability?transpositionNoteName=dugah");
  });

  it("lists the tuning systems and starting notes that realise the maqām", () => {
    const { status, body } = ask("/maqamat/maqam_nahawand/availability");
    expect(status).toBe(200);
    expect(body.maqam).toEqual({ id: "10", idName: "maqam_nahawand", displayName: "maqām nahāwand", version: expect.any(String) });
    expect(body.availability.count).toBe(9);
    expect(body.availability.tuningSystems[0]).toEqual({
      tuningSystemId: "ronzevalle_1904",
      tuningSystemDisplayName: "Ronzevalle (1904) Modernist Arabic Tuning",
      tuningSystemStartingNoteNames: ["ʿushayrān"],
      tuningSystemStartingNoteNamesIds: ["ushayran"],
    });
  });

  it("keeps only starting notes with a transposition on transpositionNoteName; an unknown note keeps none", () => {
    const all = ask("/maqamat/maqam_rast/availability").body.availability;
    const onNawa = ask("/maqamat/maqam_rast/availability", "transpositionNoteName=naw%C4%81").body.availability;
    expect(onNawa.count).toBeGreaterThan(0);
    expect(onNawa.count).toBeLessThanOrEqual(all.count);
    expect(ask("/maqamat/maqam_rast/availability", "transpositionNoteName=nowhere").body.availability).toEqual({ count: 0, tuningSystems: [] });
  });

  it("a transposed idName (any spelling) acts as transpositionNoteName; the same tonic both ways is fine", () => {
    const expected = ask("/maqamat/maqam_rast/availability", "transpositionNoteName=nawa").body;
    for (const id of ["maqam_rast_al_nawa", "maqam_rast_al-nawa", "maqam_rast_alnawa"]) expect(ask(`/maqamat/${id}/availability`).body).toEqual(expected);
    expect(ask("/maqamat/maqam_rast_al_nawa/availability", "transpositionNoteName=naw%C4%81").body).toEqual(expected);
  });

  it("400 for a different transpositionNoteName, a blank one or bad common parameters; 404 for an unknown maqām", () => {
    expectError(ask("/maqamat/maqam_rast_al_nawa/availability", "transpositionNoteName=dugah"), 400);
    expectError(ask("/maqamat/maqam_rast/availability", "transpositionNoteName=%20"), 400);
    expectError(ask("/maqamat/maqam_rast/availability", "centsTolerance=-5"), 400);
    expectError(ask("/maqamat/maqam_rast/availability", "includeArabic="), 400);
    expectError(ask("/maqamat/maqam_nope/availability"), 404);
    expectError(ask("/maqamat/maqam_rast%2F..%2Fmaqam_hijaz/availability"), 404);
  });
});

describe("GET /maqamat/{idName}/transpositions", () => {
  it("rāst in ibnsina_1037/yegāh: the three registers of chahārgāh (§5.5) are one distinct transposition", () => {
    const m = catalog.findMaqam("maqam_rast")!.entity;
    const ts = catalog.findTuningSystem("ibnsina_1037")!;
    const registers = transposedOnly(transpositionsOf(catalog, m, ts, "yegāh")).map((t) => t.tonic);
    expect(registers).toEqual(["qarār chahārgāh", "chahārgāh", "māhūrān"]);

    const { status, body } = ask("/maqamat/maqam_rast/transpositions", IBN_SINA_YEGAH);
    expect(status).toBe(200);
    expect(body.tuningSystem).toMatchObject({ id: "ibnsina_1037", numberOfPitchClassesSingleOctave: 17 });
    expect(body.startingNote).toEqual({ idName: "yegah", displayName: "yegāh" });
    // The register nearest the taḥlīl (rāst, 498 cents) stands for the degree: chahārgāh at 996.
    expect(body.transpositions.total).toBe(1);
    const [chahargah] = body.transpositions.detailed;
    expect(chahargah).toMatchObject({
      idName: "maqam_rast_al_chahargah",
      displayName: "maqām rāst al-chahārgāh",
      tonic: { idName: "chahargah", displayName: "chahārgāh" },
      pitchClass: { pitchClassIndex: 14, octave: 1 },
    });
    // §6.5: the named degrees move with the transposition (7 cells up).
    expect(chahargah.primaryJins).toEqual([
      {
        noteName: "chahargah",
        noteNameDisplay: "chahārgāh",
        maqamDegree: "I",
        jinsId: "19",
        jinsIdName: "jins_rast_al_chahargah",
        jinsDisplayName: "jins rāst al-chahārgāh",
      },
    ]);
    expect(chahargah.secondaryJins).toEqual([
      { noteName: "kurdan", noteNameDisplay: "kurdān", maqamDegree: "V", jinsId: "19", jinsIdName: "jins_rast", jinsDisplayName: "jins rāst" },
    ]);
    expect(chahargah.ghammaz).toEqual([{ noteName: "kurdan", noteNameDisplay: "kurdān", maqamDegree: "V" }]);
    expect(body.links.self).toBe("http://localhost:3000/api/maqamat/maqam_rast/transpositions?tuningSystem=ibnsina_1037&startingNote=yegah");
  });

  it("422 with {error, hint} when the maqām has no distinct transposition, or cannot be built", () => {
    const none = ask("/maqamat/maqam_khuzam_jadid/transpositions", "tuningSystem=mokhtarandmosharrafa_1937&startingNote=rast&centsTolerance=15");
    expect(none.status).toBe(422);
    expect(none.body.error).toMatch(/No distinct transpositions/);
    expect(typeof none.body.hint).toBe("string");
    const unbuildable = ask("/maqamat/maqam_rast/transpositions", "tuningSystem=almawsili_850&startingNote=ushayran");
    expect(unbuildable.status).toBe(422);
    expect(typeof unbuildable.body.hint).toBe("string");
  });

  it("400 for a transposed idName, naming the base idName in the hint", () => {
    for (const id of ["maqam_rast_al_nawa", "maqam_rast_al-nawa", "maqam_rast_alnawa"]) {
      const r = ask(`/maqamat/${id}/transpositions`, "tuningSystem=alsabbagh_1954&startingNote=rast");
      expectError(r, 400);
      expect(r.body.hint).toContain("/maqamat/maqam_rast/transpositions");
    }
  });

  it("400 for a missing or blank tuningSystem or startingNote or a bad starting note; 404 for an unknown system or maqām", () => {
    expectError(ask("/maqamat/maqam_rast/transpositions", "startingNote=rast"), 400);
    expectError(ask("/maqamat/maqam_rast/transpositions", "tuningSystem=&startingNote=rast"), 400);
    expectError(ask("/maqamat/maqam_rast/transpositions", "tuningSystem=alsabbagh_1954&startingNote="), 400);
    expectError(ask("/maqamat/maqam_rast/transpositions", "tuningSystem=alsabbagh_1954&startingNote=yegah"), 400);
    expectError(ask("/maqamat/maqam_rast/transpositions", "tuningSystem=alsabbagh_1954&startingNote=rast&includeArabic="), 400);
    expectError(ask("/maqamat/maqam_rast/transpositions", "tuningSystem=nope&startingNote=rast"), 404);
    expectError(ask("/maqamat/all/transpositions", "tuningSystem=alsabbagh_1954&startingNote=rast"), 404);
  });
});

describe("pre-rendering", () => {
  const requests = [...maqamatRequests(catalog)];

  it("lists only canonical requests that answer 200", () => {
    for (const request of requests.filter((_, i) => i % 97 === 0)) expectPrerendered(request);
  });

  it("covers list variants, families, availability through transposed idNames and transpositions", () => {
    expect(requests).toContain("/maqamat");
    expect(requests).toContain("/maqamat?filterByFamily=rast&filterByTonic=rast&includeArabic=true&includeSources=true&sortBy=tonic");
    expect(requests).toContain("/maqamat/families?startingNote=yegah&tuningSystem=ibnsina_1037");
    expect(requests).toContain("/maqamat/maqam_rast_al_nawa/availability");
    expect(requests).toContain("/maqamat/maqam_rast/transpositions?startingNote=yegah&tuningSystem=ibnsina_1037");
    expect(requests.some((r) => r.includes("/compare"))).toBe(false);
  });
});

describe("caches keyed by centsTolerance", () => {
  it("are bounded without changing answers: a tolerance asked again after more others than they keep answers the same", () => {
    const requests = [
      "/maqamat",
      "/maqamat/families?tuningSystem=alsabbagh_1954&startingNote=rast",
      "/maqamat/all?tuningSystem=alsabbagh_1954&startingNote=rast",
      "/tuning-systems/alsabbagh_1954/rast/maqamat",
    ];
    const answer = (request: string, tolerance: number) => {
      const [path, query = ""] = request.split("?");
      return ask(path, `${query}&centsTolerance=${tolerance}`).body;
    };
    const first = requests.map((r) => answer(r, 3));
    // Past every cache's limit: 128 tuning system × starting note × tolerance entries, 16 sets of list families.
    for (let i = 0; i < 130; i++) for (const r of requests) if (i < 17 || r !== "/maqamat") answer(r, 10 + i / 10);
    expect(requests.map((r) => answer(r, 3))).toEqual(first);
  });
});
