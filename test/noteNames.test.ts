import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { noteNamesRequests } from "../src/api/pitch-classes/prerender.js";
import { ask, expectPrerendered } from "./support/api.js";

const N = "/pitch-classes/note-names";

describe("GET /pitch-classes/note-names (algorithms.md §13.8)", () => {
  it("lists the 183 distinct names, by within-octave index first, then octave", () => {
    const { status, body } = ask(N);
    expect(status).toBe(200);
    expect(body.count).toBe(183);
    expect(body.data.slice(0, 5).map((d: any) => d.noteName.idName)).toEqual([
      "qarar_yegah",
      "yegah",
      "nawa",
      "saham/ramal_tuti",
      // Octave 4's first name is octave 3's last: a duplicate, listed once (at octave 3, i = 36).
      "qarar_qarar_nim_hisar",
    ]);
    expect(body.data[1]).toEqual({
      noteName: { idName: "yegah", displayName: "yegāh" },
      englishName: "G2",
      order: 0,
      octave: 1,
      links: {
        detail: "http://localhost:3000/api/pitch-classes/note-names/yegah",
        availability: "http://localhost:3000/api/pitch-classes/note-names/yegah/availability",
      },
    });
  });

  it("sorts by display name with ʿ after every letter, and filters by a tuning system", () => {
    const names = ask(N, "sortBy=alphabetical&filterByTuningSystem=alfarabi_950c").body.data.map((d: any) => d.noteName.displayName);
    expect(names[0]).toBe("awj");
    expect(names.at(-1)!.startsWith("ʿ")).toBe(true);
    expect(names).toHaveLength(80);
  });

  it("answers 400 for a blank filter, 404 for an unknown tuning system", () => {
    expect(ask(N, "filterByTuningSystem=").status).toBe(400);
    expect(ask(N, "filterByTuningSystem=nope").status).toBe(404);
    expect(ask(N, "includeArabic=maybe").status).toBe(400);
  });
});

describe("GET /pitch-classes/note-names/{noteName}", () => {
  it("one tuning system and starting note: the pitch class and its context, reference frequency recomputed", () => {
    const { status, body } = ask(`${N}/rast`, "tuningSystem=ibnsina_1037&startingNote=yegah&pitchClassDataType=cents");
    expect(status).toBe(200);
    expect(body.context).toMatchObject({
      tuningSystem: { id: "ibnsina_1037" },
      startingNote: { idName: "yegah", displayName: "yegāh" },
      noteName: { idName: "rast", displayName: "rāst" },
      pitchClassDataType: "cents",
    });
    expect(body.pitchClass).toEqual({ pitchClassIndex: 7, octave: 1, noteName: "rast", noteNameDisplay: "rāst", cents: 498.0449991346125 });
  });

  it("names with a slash and display names with diacritics resolve", () => {
    expect(ask(`${N}/tik_hijaz/saba`).body.context.noteName.displayName).toBe("tīk ḥijāz/ṣabā");
    expect(ask(`${N}/b%C5%ABsel%C4%ABk%2F%CA%BFushsh%C4%81q`).body.context.noteName.idName).toBe("buselik/ushshaq");
  });

  it("without a tuning system, or with startingNote=all, the answer is a list under pitchClassData", () => {
    const all = ask(`${N}/rast`).body;
    expect(all.pitchClasses.length).toBeGreaterThan(30);
    expect(Object.keys(all.pitchClasses[0])).toEqual(["context", "pitchClassData"]);
    const one = ask(`${N}/rast`, "tuningSystem=alkindi_874&startingNote=all").body;
    expect(one.pitchClasses.map((p: any) => p.context.startingNote.idName)).toEqual(["ushayran", "yegah", "rast"]);
  });

  it("answers 404 for unknown names and names the tuning lacks, 400 for missing or wrong starting notes", () => {
    expect(ask(`${N}/nowhere`).status).toBe(404);
    expect(ask(`${N}/none`).status).toBe(404);
    expect(ask(`${N}/%20`).status).toBe(404);
    expect(ask(`${N}/nim_kawasht`, "tuningSystem=alfarabi_950i&startingNote=ushayran").status).toBe(404);
    expect(ask(`${N}/rast`, "tuningSystem=nope&startingNote=rast").status).toBe(404);
    const missing = ask(`${N}/rast`, "tuningSystem=alsabbagh_1954");
    expect(missing.status).toBe(400);
    expect(missing.body.validOptions).toEqual(["rast"]);
    expect(ask(`${N}/rast`, "tuningSystem=alsabbagh_1954&startingNote=yegah").status).toBe(400);
    expect(ask(`${N}/rast`, "pitchClassDataType=bogus").status).toBe(400);
    expect(ask(`${N}/rast`, "includeArabic=").status).toBe(400);
  });
});

describe("GET /pitch-classes/note-names/{noteName}/availability", () => {
  it("lists the tuning systems holding the name, with index and octave per starting note", () => {
    const { body } = ask(`${N}/kurdi/availability`);
    expect(body.availability.count).toBe(body.availability.data.length);
    expect(body.availability.data[1]).toEqual({
      tuningSystem: expect.objectContaining({ id: "alkindi_874" }),
      startingNotes: [
        { startingNote: { idName: "ushayran", displayName: "ʿushayrān" }, pitchClassIndex: 6, octave: 1 },
        { startingNote: { idName: "yegah", displayName: "yegāh" }, pitchClassIndex: 8, octave: 1 },
        { startingNote: { idName: "rast", displayName: "rāst" }, pitchClassIndex: 3, octave: 1 },
      ],
    });
  });

  it("answers 404 for an unknown name and 400 for a bad includeArabic", () => {
    expect(ask(`${N}/nowhere/availability`).status).toBe(404);
    expect(ask(`${N}/rast/availability`, "includeArabic=maybe").status).toBe(400);
  });
});

describe("GET /pitch-classes/note-names/{noteName}/compare", () => {
  it("reports every cell: successes, and failures with an error; the counts add up", () => {
    const { status, body } = ask(`${N}/segah/compare`, "tuningSystems=angloeuropean_1700,alfarabi_950h,nope&startingNote=ushayran");
    expect(status).toBe(200);
    expect(body.meta).toEqual({ totalComparisons: 3, successfulComparisons: 1, failedComparisons: 2 });
    expect(body.comparisons).toHaveLength(3);
    expect(body.comparisons.filter((c: any) => typeof c.error === "string")).toHaveLength(2);
    expect(body.comparisons[2]).toEqual({
      tuningSystem: { id: "nope", idName: "nope", displayName: "nope" },
      startingNote: { idName: "ushayran", displayName: "ushayran" },
      error: "Tuning system 'nope' not found",
    });
  });

  it("tuningSystems=all expands to every system, one cell per system for a named starting note", () => {
    expect(ask(`${N}/rast/compare`, "tuningSystems=all&startingNote=yegah").body.meta).toEqual({
      totalComparisons: 35,
      successfulComparisons: 23,
      failedComparisons: 12,
    });
  });

  it("answers 400 for missing parameters, all with ids, and a bad data type; 404 for an unknown name", () => {
    expect(ask(`${N}/rast/compare`).status).toBe(400);
    expect(ask(`${N}/rast/compare`, "tuningSystems=&startingNote=rast").status).toBe(400);
    expect(ask(`${N}/rast/compare`, "tuningSystems=alsabbagh_1954&startingNote=").status).toBe(400);
    expect(ask(`${N}/rast/compare`, "tuningSystems=all,alsabbagh_1954&startingNote=rast").status).toBe(400);
    expect(ask(`${N}/rast/compare`, "tuningSystems=alsabbagh_1954&startingNote=rast&pitchClassDataType=bogus").status).toBe(400);
    expect(ask(`${N}/nowhere/compare`, "tuningSystems=alsabbagh_1954&startingNote=rast").status).toBe(404);
  });
});

describe("pre-rendered note-name requests", () => {
  it("are canonical and all answer 200", () => {
    const requests = [...noteNamesRequests(catalog)];
    expect(requests.length).toBe(3 * 2 * 36 + 4 * 183);
    for (const request of requests) expectPrerendered(request);
  });
});
