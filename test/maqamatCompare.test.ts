/**
 * GET /maqamat/{idName}/compare and GET /tuning-systems/{id}/{startingNote}/maqamat: the worked
 * rāst cell in ibnsina_1037/yegāh (§6.4 ajnās, §10.5 intervals), the four failing cell kinds, the
 * invariant successful + unavailable + failed === total as a property over generated requests,
 * the transposed-idName rules, every 4xx, unbounded requests, and the per-tuning-system list.
 */
import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { ask, expectCanonical, expectError, random } from "./support/api.js";
import { tuningSystemMaqamatRequests } from "../src/api/tuning-systems/prerender.js";

import { transpositionsOf } from "../src/theory/transposition.js";
import { toIdName } from "../src/theory/idName.js";

const compare = (id: string, query: string) => ask(`/maqamat/${id}/compare`, query);

describe("GET /maqamat/{idName}/compare: the rāst cell in ibnsina_1037 / yegāh", () => {
  const { status, body } = compare("maqam_rast", "tuningSystems=ibnsina_1037&startingNotes=yegah&pitchClassDataType=cents&includeIntervals=true");
  const cell = body.comparisons.data[0];

  it("is the taḥlīl with its family, stats, scale degrees and cents", () => {
    expect(status).toBe(200);
    expect(cell.maqam).toEqual({
      id: "1",
      idName: "maqam_rast",
      displayName: "maqām rāst",
      version: expect.any(String),
      maqamFamilyId: "rast",
      maqamFamilyDisplayName: "rāst",
    });
    expect(cell.tonic).toEqual({ idName: "rast", displayName: "rāst" });
    expect(cell.transposition).toBeUndefined();
    expect(cell.stats).toEqual({
      tuningSystem: { numberOfPitchClassesSingleOctave: 17, referenceFrequency: 97.999 },
      maqam: { numberOfPitchClasses: 7, isOctaveRepeating: true },
    });
    expect(cell.availableTranspositions.map((t: any) => t.idName)).toEqual([
      "maqam_rast_al_qarar_chahargah",
      "maqam_rast_al_chahargah",
      "maqam_rast_al_mahuran",
    ]);
    expect(cell.pitchData.ascending.map((pc: any) => [pc.scaleDegree, pc.noteName, pc.cents])).toEqual([
      ["I", "rast", 498.0449991346125],
      ["II", "dugah", 701.9550008653874],
      ["III", "segah", 840.5276617693106],
      ["IV", "chahargah", 996.089998269225],
      ["V", "nawa", 1200],
      ["VI", "husayni", 1403.9100017307749],
      ["VII", "awj", 1542.4826626346978],
    ]);
    expect(cell.pitchData.descending.map((pc: any) => [pc.scaleDegree, pc.noteName])).toEqual([
      ["VII", "ajam"],
      ["VI", "husayni"],
      ["V", "nawa"],
      ["IV", "chahargah"],
      ["III", "segah"],
      ["II", "dugah"],
      ["I", "rast"],
    ]);
  });

  it("maps every degree to its jins as arrays (§6.4 example; awj is jins ʿirāq, on its own slot)", () => {
    const names = (map: Record<string, any[]>) => Object.entries(map).map(([note, ajnas]) => [note, ajnas.map((j) => j.displayName)]);
    expect(names(cell.ajnas.ascending)).toEqual([
      ["rāst", ["jins rāst"]],
      ["dūgāh", ["jins bayyāt"]],
      ["segāh", ["jins segāh"]],
      ["chahārgāh", ["jins mahrān al-chahārgāh"]],
      ["nawā", ["jins rāst al-nawā"]],
      ["ḥusaynī", ["jins bayyāt al-ḥusaynī"]],
      ["awj", ["jins ʿirāq"]],
    ]);
    expect(names(cell.ajnas.descending)).toEqual([
      ["ʿajam", ["jins mahrān"]],
      ["ḥusaynī", ["jins kurd al-ḥusaynī"]],
      ["nawā", ["jins nahāwand al-nawā"]],
      ["chahārgāh", ["jins ʿajam ʿushayrān al-chahārgāh"]],
      ["segāh", ["jins segāh"]],
      ["dūgāh", ["jins bayyāt"]],
      ["rāst", ["jins rāst"]],
    ]);
    expect(cell.ajnas.ascending["nawā"][0]).toEqual({ id: "19", idName: "jins_rast_al_nawa", displayName: "jins rāst al-nawā" });
  });

  it("gives intervals per adjacent pair; descending ones measured upwards and listed top-down (§10.5)", () => {
    expect(cell.intervals.ascending.map((i: any) => i.cents)).toEqual([
      203.91000173077492, 138.57266090392318, 155.5623364999144, 203.91000173077498, 203.91000173077487, 138.57266090392295,
    ]);
    // ʿajam → ḥusaynī first: the limma 256/243 upwards, 90.22 cents.
    expect(cell.intervals.descending[0]).toEqual({ cents: 90.22499567306272 });
    expect(cell.intervals.descending).toHaveLength(6);
    const all = compare("maqam_rast", "tuningSystems=ibnsina_1037&startingNotes=yegah&includeIntervals=true").body.comparisons.data[0];
    expect(all.intervals.descending[0]).toEqual({
      fraction: "256/243",
      cents: 90.22499567306272,
      decimalRatio: 256 / 243,
      stringLength: expect.any(Number),
      fretDivision: expect.any(Number),
      pitchClassIndex: expect.any(Number),
    });
  });

  it("links the detail with the display starting note percent-encoded", () => {
    expect(cell.links).toEqual({
      detail: "http://localhost:3000/api/maqamat/maqam_rast?tuningSystem=ibnsina_1037&startingNote=yeg%C4%81h&pitchClassDataType=cents&includeIntervals=true",
      availability: "http://localhost:3000/api/maqamat/maqam_rast/availability",
    });
    expect(body.parameters).toEqual({
      tuningSystems: { idNames: ["ibnsina_1037"], displayNames: ["ibnsina_1037"] },
      startingNotes: { idNames: ["yegah"], displayNames: ["yegah"] },
      pitchClassDataType: "cents",
      includeIntervals: true,
      transposeTo: null,
      centsTolerance: 5,
    });
  });
});

describe("GET /maqamat/{idName}/compare: transposeTo and transposed idNames", () => {
  it("a transposed cell names the transposition; the family stays that of the taḥlīl", () => {
    const cell = compare("maqam_rast", "tuningSystems=ibnsina_1037&startingNotes=yegah&transposeTo=chahargah").body.comparisons.data[0];
    expect(cell.maqam).toMatchObject({ idName: "maqam_rast_al_chahargah", displayName: "maqām rāst al-chahārgāh", maqamFamilyId: "rast" });
    expect(cell.transposition).toEqual({ original: { idName: "rast", displayName: "rāst" }, resolved: { idName: "chahargah", displayName: "chahārgāh" } });
  });

  it("an octave rendering of the taḥlīl carries the `_al_` idName but is not a transposition", () => {
    const cell = compare("maqam_rast", "tuningSystems=ibnsina_1037&startingNotes=yegah&transposeTo=kurdan").body.comparisons.data[0];
    expect(cell.maqam.idName).toBe("maqam_rast_al_kurdan");
    expect(cell.transposition).toBeUndefined();
  });

  it("a transposed idName (any spelling) means the base idName with transposeTo", () => {
    const query = "tuningSystems=ibnsina_1037,alsabbagh_1954&startingNotes=yegah,rast";
    const expected = compare("maqam_rast", `${query}&transposeTo=chahargah`).body;
    for (const id of ["maqam_rast_al_chahargah", "maqam_rast_al-chahargah", "maqam_rast_alchahargah"]) {
      const { body } = compare(id, query);
      expect({ ...body, links: { ...body.links, self: undefined } }).toEqual({ ...expected, links: { ...expected.links, self: undefined } });
    }
    expect(compare("maqam_rast_al_chahargah", `${query}&transposeTo=chah%C4%81rg%C4%81h`).status).toBe(200);
  });

  it("400 for a transposed idName with a different transposeTo", () => {
    expectError(compare("maqam_rast_al_nawa", "tuningSystems=alsabbagh_1954&startingNotes=rast&transposeTo=dugah"), 400);
  });

  it("the conflicting-tonic hint names the compare route, not the detail route", () => {
    const r = compare("maqam_rast_al_nawa", "tuningSystems=alsabbagh_1954&startingNotes=rast&transposeTo=dugah");
    expect(r.body.hint).toContain("/maqamat/maqam_rast/compare?transposeTo=dugah");
  });
});

describe("GET /maqamat/{idName}/compare: failing cells", () => {
  const { body } = compare("maqam_rast", "tuningSystems=nope_1,alsabbagh_1954,almawsili_850&startingNotes=rast,nowhere,ushayran&transposeTo=nim_ajam");
  const cells = body.comparisons.data;

  it("reports every cell, tuning systems outside, starting notes inside, in the order given", () => {
    expect(cells.map((c: any) => [c.tuningSystem.idName, c.startingNote.idName])).toEqual([
      ["nope_1", "rast"],
      ["nope_1", "nowhere"],
      ["nope_1", "ushayran"],
      ["alsabbagh_1954", "rast"],
      ["alsabbagh_1954", "nowhere"],
      ["alsabbagh_1954", "ushayran"],
      ["almawsili_850", "rast"],
      ["almawsili_850", "nowhere"],
      ["almawsili_850", "ushayran"],
    ]);
  });

  it("an unknown tuning system is an error; a starting note the system lacks is an informational note", () => {
    expect(cells[0]).toEqual({
      tuningSystem: { id: "nope_1", idName: "nope_1", displayName: "nope_1" },
      startingNote: { idName: "rast", displayName: "rast" },
      error: "Tuning system 'nope_1' not found",
    });
    expect(cells[4].note).toMatch(/not available/);
    expect(cells[4].error).toBeUndefined();
    expect(cells[4].validStartingNotes).toEqual({ idNames: ["rast"], displayNames: ["rāst"] });
  });

  it("a reachable transposeTo succeeds; an unreachable one is an error listing the transpositions; an unbuildable maqām is an error", () => {
    expect(cells[3].maqam.idName).toBe("maqam_rast_al_nim_ajam");
    const unreachable = compare("maqam_rast", "tuningSystems=alsabbagh_1954&startingNotes=rast&transposeTo=segah").body.comparisons.data[0];
    expect(unreachable.error).toBe("Cannot transpose to 'segah' in this tuning system");
    expect(unreachable.transposeTo).toBe("segah");
    expect(unreachable.availableTranspositions.length).toBeGreaterThan(0);
    expect(cells[8].error).toBe("Maqām 'maqām rāst' cannot be realized in this tuning system configuration");
  });

  it("counts each kind once", () => {
    expect(body.comparisons).toMatchObject({
      count: 9,
      totalComparisons: 9,
      successfulComparisons: 1,
      unavailableStartingNotes: 4,
      failedComparisons: 4,
    });
  });
});

describe("GET /maqamat/{idName}/compare: successful + unavailable + failed === total", () => {
  it("holds over 300 generated requests, with unknown systems, foreign starting notes and arbitrary tonics", () => {
    const next = random(1946);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
    const ids = [...catalog.tuningSystems.map((ts) => ts.id), "nope_1", "IBNSINA_1037"];
    const notes = ["yegah", "rast", "ushayran", "dugah", "r%C4%81st", "nowhere", "nawa"];
    const tonics = ["", "nawa", "chahargah", "husayni", "segah", "qarar_rast", "kurdan", "nowhere"];
    for (let i = 0; i < 300; i++) {
      const systems = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(ids));
      const startingNotes = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(notes));
      const tonic = pick(tonics);
      const query = `tuningSystems=${systems.join(",")}&startingNotes=${startingNotes.join(",")}${tonic ? `&transposeTo=${tonic}` : ""}&centsTolerance=${pick(["0", "5", "25"])}`;
      const r = compare(pick(catalog.maqamat).idName, query);
      expect(r.status, query).toBe(200);
      const c = r.body.comparisons;
      const notes_ = c.data.filter((cell: any) => "note" in cell).length;
      const errors = c.data.filter((cell: any) => "error" in cell).length;
      expect(c.count).toBe(systems.length * startingNotes.length);
      expect(c.data).toHaveLength(c.count);
      expect(c.totalComparisons).toBe(c.count);
      expect([c.unavailableStartingNotes, c.failedComparisons]).toEqual([notes_, errors]);
      expect(c.successfulComparisons + c.unavailableStartingNotes + c.failedComparisons).toBe(c.totalComparisons);
      for (const cell of c.data) expect("note" in cell && "error" in cell).toBe(false);
    }
  });
});

describe("GET /maqamat/{idName}/compare: 4xx and unbounded requests", () => {
  it("400 for missing or empty lists, `all` with ids, a bad includeIntervals or data type; 404 for an unknown maqām", () => {
    expectError(compare("maqam_rast", ""), 400);
    expectError(compare("maqam_rast", "tuningSystems=,,&startingNotes=rast"), 400);
    expectError(compare("maqam_rast", "tuningSystems=alsabbagh_1954"), 400);
    expectError(compare("maqam_rast", "tuningSystems=alsabbagh_1954&startingNotes="), 400);
    expectError(compare("maqam_rast", "tuningSystems=alsabbagh_1954&startingNotes=,%20,"), 400);
    expectError(compare("maqam_rast", "tuningSystems=all,alsabbagh_1954&startingNotes=rast"), 400);
    for (const value of ["", "yes", "TRUE"]) {
      const r = compare("maqam_rast", `tuningSystems=alsabbagh_1954&startingNotes=rast&includeIntervals=${value}`);
      expectError(r, 400);
    }
    const scaleDegree = compare("maqam_rast", "tuningSystems=alsabbagh_1954&startingNotes=rast&pitchClassDataType=scaleDegree");
    expectError(scaleDegree, 400);
    expect(scaleDegree.body.validOptions).toHaveLength(14);
    expectError(compare("maqam_rast", "tuningSystems=alsabbagh_1954&startingNotes=rast&includeArabic=x"), 400);
    expectError(compare("maqam_rast", "tuningSystems=alsabbagh_1954&startingNotes=rast&centsTolerance=-1"), 400);
    expectError(compare("maqama_nope", "tuningSystems=alsabbagh_1954&startingNotes=rast"), 404);
    expectError(compare("all", "tuningSystems=alsabbagh_1954&startingNotes=rast"), 404);
  });

  it("an empty pitchClassDataType means the default, all, as recorded (maqām and jins compare)", () => {
    for (const base of ["/maqamat/maqam_rast/compare", "/ajnas/jins_rast/compare"]) {
      const cells = (q: string) => ask(base, `tuningSystems=ibnsina_1037&startingNotes=yegah${q}`).body.comparisons;
      const blank = cells("&pitchClassDataType=");
      expect(blank, base).toEqual(cells(""));
      expect(blank, base).toEqual(cells("&pitchClassDataType=all"));
    }
  });

  it("tuningSystems=all × every starting note stays fast", () => {
    const everyNote = [...new Set(catalog.tuningSystems.flatMap((ts) => ts.startingNotes.map(toIdName)))].join(",");
    for (const m of ["maqam_bayyat", "maqam_hijaz", "maqam_saba"]) {
      const started = performance.now();
      const r = compare(m, `tuningSystems=all&startingNotes=${everyNote}&includeIntervals=true&includeArabic=true`);
      expect(r.status).toBe(200);
      expect(r.body.comparisons.totalComparisons).toBe(catalog.tuningSystems.length * everyNote.split(",").length);
      expect(performance.now() - started).toBeLessThan(3000);
    }
  });
});

describe("GET /tuning-systems/{id}/{startingNote}/maqamat", () => {
  const { status, body } = ask("/tuning-systems/ibnsina_1037/yegah/maqamat", "includeMaqamDegrees=true");

  it("lists the maqāmāt the starting note's adjacent-octave names realise, by tonic, with counts", () => {
    expect(status).toBe(200);
    expect(body.tuningSystem).toMatchObject({ id: "ibnsina_1037", year: "1037", numberOfPitchClassesSingleOctave: 17 });
    expect(body.selectedStartingNote).toEqual({ idName: "yegah", displayName: "yegāh" });
    expect(body.stats).toEqual({
      totalMaqamatForStartingNote: 53,
      totalMaqamatInLibrary: 112,
      uniqueTonicCount: 8,
      uniqueFamilyCount: 17,
      referenceFrequency: 97.999,
    });
    expect(body.data).toHaveLength(53);
    expect(body.data[0].tonic.idName).toBe("yegah");
    const rast = body.data.find((item: any) => item.maqam.idName === "maqam_rast");
    expect(rast.family).toEqual({ idName: "rast", displayName: "rāst" });
    // Degrees as the data lists them, descending in data order.
    expect(rast.maqamDegrees.ascending).toEqual(["rast", "dugah", "segah", "chahargah", "nawa", "husayni", "awj"]);
    expect(rast.maqamDegrees.descending[0]).toBe("ajam");
    expect(body.links).toEqual({
      self: "http://localhost:3000/api/tuning-systems/ibnsina_1037/yegah/maqamat",
      tuningSystem: "http://localhost:3000/api/tuning-systems/ibnsina_1037",
      collection: "http://localhost:3000/api/maqamat",
    });
  });

  it("realises each maqām from its own tonic: rāst uses the first set here, which has no rāst set", () => {
    const ts = catalog.tuningSystems.find((t) => t.id === "ibnsina_1037")!;
    const rast = catalog.maqamat.find((m) => m.idName === "maqam_rast")!;
    const details = ask("/tuning-systems/ibnsina_1037/yegah/maqamat", "includeMaqamDegrees=true&includeDegreeDetails=true&includeTranspositions=true").body;
    const item = details.data.find((d: any) => d.maqam.idName === "maqam_rast");
    expect(item.maqamDegrees.ascending[0]).toEqual({
      noteName: "rast",
      englishName: "C3",
      solfege: "Do3",
      ipnReferenceNoteName: "C",
      centsDeviation: expect.any(Number),
      midiNotePlusCentsDeviation: expect.stringMatching(/^48 /),
    });
    expect(item.transpositions).toEqual(
      transpositionsOf(catalog, rast, ts, ts.startingNotes[0])
        .filter((t) => t.isTransposed)
        .map((t) => expect.objectContaining({ idName: t.idName })),
    );
  });

  it("transposition entries carry idName, displayName, tonic and degrees (every register listed)", () => {
    const item = ask("/tuning-systems/alfarabi_950e/ushayran/maqamat", "includeTranspositions=true").body.data.find(
      (d: any) => d.maqam.idName === "maqam_dilkeshidah",
    );
    expect(item.transpositions[0]).toEqual({
      idName: "maqam_dilkeshidah_al_qarar_rast",
      displayName: "maqām dilkeshīdah al-qarār rāst",
      tonic: { idName: "qarar_rast", displayName: "qarār rāst" },
      maqamDegrees: {
        ascending: ["qarar_rast", "qarar_dugah", "qarar_kurdi", "qarar_chahargah", "yegah", "nim_ushayran", "kawasht"],
        descending: ["ajam_ushayran", "nim_ushayran", "yegah", "qarar_chahargah", "qarar_kurdi", "qarar_dugah", "qarar_rast"],
      },
    });
    expect(item.transpositions.map((t: any) => t.tonic.idName)).toEqual(expect.arrayContaining(["rast", "kurdan"]));
  });

  it("describes characteristics as the reference does here: asymmetric when descending ≠ ascending as written (Q15)", () => {
    const kurd = ask("/tuning-systems/angloeuropean_1800/yegah/maqamat").body.data.find((d: any) => d.maqam.idName === "maqam_kurd");
    expect(kurd.characteristics.hasAsymmetricDescending).toBe(true);
    const listed = ask("/maqamat", "filterByFamily=kurd").body.data.find((d: any) => d.maqam.idName === "maqam_kurd");
    expect(listed.characteristics.hasAsymmetricDescending).toBe(false);
  });

  it("echoes the path's starting note decoded in links.self, as the pitch-classes route does", () => {
    const encoded = ask("/tuning-systems/ibnsina_1037/%CA%BFushayr%C4%81n/maqamat").body.links.self;
    expect(encoded).toBe("http://localhost:3000/api/tuning-systems/ibnsina_1037/ʿushayrān/maqamat");
    expect(ask("/tuning-systems/ibnsina_1037/%CA%BFushayr%C4%81n/pitch-classes").body.links.self).toBe(encoded.replace(/maqamat$/, "pitch-classes"));
  });

  it("sorts alphabetically on request; an empty answer for a starting note that realises nothing", () => {
    const ids = ask("/tuning-systems/ibnsina_1037/yegah/maqamat", "sortBy=alphabetical").body.data.map((d: any) => d.maqam.idName);
    expect(ids.slice(0, 2)).toEqual(["maqam_ajam_kurdi", "maqam_ajam_ushayran"]);
    expect(ask("/tuning-systems/almawsili_850/ushayran/maqamat").body.data).toEqual([]);
  });

  it("404 for an unknown tuning system, 400 for a bad starting note, sortBy, flag, includeArabic or centsTolerance", () => {
    const unknown = ask("/tuning-systems/..%2F..%2Fpackage.json/rast/maqamat");
    expectError(unknown, 404);
    expect(unknown.body.tuningSystemId).toBe("../../package.json");
    expectError(ask("/tuning-systems/alsabbagh_1954/yegah/maqamat"), 400);
    for (const query of ["sortBy=bogus", "sortBy=", "includeMaqamDegrees=maybe", "includeArabic=x", "centsTolerance=q"])
      expectError(ask("/tuning-systems/alsabbagh_1954/rast/maqamat", query), 400);
  });

  it("pre-renders every tuning system × starting note in canonical form", () => {
    const requests = [...tuningSystemMaqamatRequests(catalog)];
    expect(requests).toContain("/tuning-systems/ibnsina_1037/yegah/maqamat");
    expect(requests).toContain("/tuning-systems/ibnsina_1037/yegah/maqamat?includeDegreeDetails=true&includeMaqamDegrees=true");
    expect(requests).toContain("/tuning-systems/ibnsina_1037/yegah/maqamat?includeTranspositions=true");
    for (const request of requests) expectCanonical(request);
  });
});
