/**
 * GET /tuning-systems/{id}: the record of Ibn Sīnā's 17-tone tuning, its source and starting
 * notes, and every link in it (and the links.tuningSystem of other answers) leading to a 200.
 */
import { describe, it, expect } from "vitest";
import { ask, expectError } from "./support/api.js";
import { catalog } from "./support/catalog.js";
import { tuningSystemsRequests } from "../src/api/tuning-systems/prerender.js";
import { tuningSystemSchemas } from "../src/api/tuning-systems/schemas.js";

const BASE = "http://localhost:3000/api";
/** Every absolute link in a body. */
const linksIn = (body: unknown): string[] =>
  typeof body === "string" ? (body.startsWith(BASE) ? [body] : []) : body && typeof body === "object" ? Object.values(body).flatMap(linksIn) : [];
const follow = (link: string) => {
  const url = new URL(link);
  return ask(decodeURI(url.pathname.slice("/api".length)), url.search.slice(1));
};

describe("GET /tuning-systems/{id}", () => {
  const { status, body } = ask("/tuning-systems/ibnsina_1037");

  it("gives the record as stored: one octave of fractions, two note-name sets, the string length", () => {
    expect(status).toBe(200);
    expect(tuningSystemSchemas().tuningSystemDetail.safeParse(body).success).toBe(true);
    expect(body.tuningSystem).toMatchObject({ id: "ibnsina_1037", year: "1037", numberOfPitchClassesSingleOctave: 17 });
    expect(body.record).toMatchObject({
      title: "7-Fret Oud 17-Tone",
      year: "1037",
      originalValueType: "fraction",
      stringLength: 1000,
      defaultReferenceFrequency: 97.999,
    });
    expect(body.record.pitchClasses).toHaveLength(17);
    expect(body.record.pitchClasses.slice(0, 4)).toEqual(["1/1", "273/256", "13/12", "9/8"]);
    expect(body.record.noteNameSets.map((set: { idNames: string[] }) => set.idNames[0])).toEqual(["ushayran", "yegah"]);
    expect(body.sources).toEqual([{ sourceId: "farmer_1937", page: "249", links: { source: `${BASE}/sources/farmer_1937` } }]);
  });

  it("lists each starting note with its reference frequency and links to its pitch classes, maqāmāt and ajnās", () => {
    expect(body.startingNotes.map((n: { idName: string; referenceFrequency: number }) => [n.idName, n.referenceFrequency])).toEqual([
      ["ushayran", 110],
      ["yegah", 97.999],
    ]);
    expect(body.startingNotes[1].links).toEqual({
      pitchClasses: `${BASE}/tuning-systems/ibnsina_1037/yegah/pitch-classes`,
      maqamat: `${BASE}/tuning-systems/ibnsina_1037/yegah/maqamat`,
      ajnas: `${BASE}/tuning-systems/ibnsina_1037/yegah/ajnas`,
    });
  });

  it("links only to answers: every link here, and links.tuningSystem of /intervals/calculate, is a 200", () => {
    const links = linksIn(body);
    expect(links).toHaveLength(9);
    for (const link of links) expect(follow(link).status, link).toBe(200);
    const calculated = ask("/intervals/calculate", "from=rast&to=nawa&tuningSystem=ibnsina_1037&startingNote=yegah&unit=cents").body;
    expect(follow(calculated.links.tuningSystem).body.tuningSystem.id).toBe("ibnsina_1037");
    for (const item of ask("/sources/farmer_1937/tuning-systems").body.data) expect(follow(item.links.detail).status).toBe(200);
  });

  it("adds the Arabic titles with includeArabic; 404 for an unknown id, 400 for a blank one or a bad includeArabic", () => {
    const arabic = ask("/tuning-systems/ibnsina_1037", "includeArabic=true").body;
    expect(arabic.tuningSystem.displayNameAr).toBeTypeOf("string");
    expect(arabic.record.titleAr).toBeTypeOf("string");
    expect(arabic.startingNotes[0].displayNameAr).toBeTypeOf("string");
    expectError(ask("/tuning-systems/nope_1999"), 404);
    expectError(ask("/tuning-systems/%20"), 400);
    expectError(ask("/tuning-systems/ibnsina_1037", "includeArabic=maybe"), 400);
  });

  it("is pre-rendered for every tuning system, with and without Arabic", () => {
    const detail = [...tuningSystemsRequests(catalog)].filter((r) => /^\/tuning-systems\/[^/?]+(\?|$)/.test(r));
    expect(detail).toHaveLength(2 * catalog.tuningSystems.length);
    expect(detail.slice(0, 2)).toEqual([`/tuning-systems/${catalog.tuningSystems[0].id}`, `/tuning-systems/${catalog.tuningSystems[0].id}?includeArabic=true`]);
  });
});
