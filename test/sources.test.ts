import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { sourcesRequests } from "../src/api/sources/prerender.js";
import { ask, expectPrerendered } from "./support/api.js";

describe("GET /sources (algorithms.md §13.9)", () => {
  it("lists the 17 sources in file order with meta.total", () => {
    const { status, body } = ask("/sources");
    expect(status).toBe(200);
    expect(body.count).toBe(17);
    expect(body.meta).toEqual({ total: 17 });
    expect(Object.keys(body)).toEqual(["count", "data", "meta"]);
  });

  it("builds displayName from the last name and years; the Arabic one keeps toIdName's NFD and falls back to English dates", () => {
    const urmawi = ask("/sources/alurmawialbaghdadi_1986_2017", "includeArabic=true").body.source;
    expect(urmawi.displayName).toBe("al-urmawi-al-baghdadi-(1986/2017)");
    // toIdName decomposes أ into ا + U+0654 (hamza above), which it does not strip.
    expect(urmawi.displayNameAr).toBe("\u0627\u0644\u0627\u0654\u0631\u0645\u0648\u064a-\u0627\u0644\u0628\u063a\u062f\u0627\u062f\u064a-(١٩٨٦/٢٠١٧)");
    expect(ask("/sources/mofakham_2022", "includeArabic=true").body.source.displayNameAr).toBe("مفخم-(2022)");
  });

  it("orders the fields: common, type-specific, then the Arabic twins without identifiers", () => {
    const farmer = ask("/sources/farmer_1937", "includeArabic=true").body.source;
    expect(Object.keys(farmer)).toEqual([
      "id",
      "displayName",
      "sourceType",
      "title",
      "contributors",
      "edition",
      "publicationDate",
      "url",
      "dateAccessed",
      "version",
      "journal",
      "volume",
      "issue",
      "pageRange",
      "DOI",
      "displayNameAr",
      "titleAr",
      "editionAr",
      "publicationDateAr",
      "journalAr",
      "volumeAr",
      "issueAr",
      "pageRangeAr",
    ]);
    expect(farmer.contributors[0]).toEqual({ type: "Author", firstName: "Henry George", lastName: "Farmer", firstNameAr: "هنري جورج", lastNameAr: "فارمر" });
    expect(Object.keys(ask("/sources/allami_2022").body.source).slice(10)).toEqual([
      "degreeType",
      "university",
      "department",
      "databaseIdentifier",
      "databaseName",
    ]);
  });
});

describe("GET /sources/{id}/tuning-systems, /maqamat, /ajnas", () => {
  it("lists what cites the source, with its pages and links", () => {
    const { body } = ask("/sources/derlanger_1930/tuning-systems");
    expect(body).toEqual({
      context: { source: { id: "derlanger_1930", idName: "derlanger_1930", displayName: "La Musique Arabe, Tome 1" } },
      count: 1,
      data: [
        {
          tuningSystem: expect.objectContaining({ id: "alfarabi_950g", year: "950g" }),
          sourceReferences: [{ page: "165-185" }],
          startingNotes: ["ushayran", "yegah"],
          links: {
            detail: "http://localhost:3000/api/tuning-systems/alfarabi_950g",
            source: "http://localhost:3000/api/sources/derlanger_1930",
          },
        },
      ],
    });
  });

  it("maqām idNames close up al- as the spec spells them", () => {
    const maqamat = ask("/sources/alshawwa_1946/maqamat").body.data.map((d: any) => d.maqam.idName);
    expect(maqamat).toContain("maqam_rahat_alarwah");
    expect(ask("/sources/alurmawialbaghdadi_1986_2017/ajnas").body.data[0]).toMatchObject({
      jins: { id: "4", idName: "jins_saba", displayName: "jins ṣabā" },
      links: { detail: "http://localhost:3000/api/ajnas/jins_saba" },
    });
  });
});

describe("source errors", () => {
  for (const sub of ["", "/tuning-systems", "/maqamat", "/ajnas"]) {
    it(`/sources/{id}${sub}: 404 for unknown or differently cased ids, ${sub ? "404" : "400"} for a blank one; 400 for a bad includeArabic`, () => {
      expect(ask(`/sources/nope_1999${sub}`).status).toBe(404);
      // As recorded: the record refuses a blank id, the lists of a source do not find it.
      expect(ask(`/sources/%20${sub}`).status).toBe(sub ? 404 : 400);
      expect(ask(`/sources/ALSHAWWA_1946${sub}`).status).toBe(404);
      expect(ask(`/sources/alshawwa_1946${sub}`, "includeArabic=maybe").status).toBe(400);
    });
  }

  it("/sources: 400 for a bad includeArabic", () => {
    expect(ask("/sources", "includeArabic=x").status).toBe(400);
  });
});

describe("pre-rendered source requests", () => {
  it("are canonical and all answer 200", () => {
    const requests = [...sourcesRequests(catalog)];
    expect(requests).toHaveLength(2 * (1 + 17 * 4));
    for (const request of requests) expectPrerendered(request);
  });
});
