import { describe, it, expect } from "vitest";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { createCatalog } from "../src/theory/catalog.js";
import { readFacts } from "../src/data/load.js";
import { grownFacts } from "../scripts/grow-archive.js";

const facts = readFacts();
const grown = createCatalog(grownFacts(facts, 2));
const ask = (path: string) => dispatch(routes, { catalog: grown, baseUrl: "http://localhost:3000", path, query: new URLSearchParams() });

describe("the synthetic archive twice today's size", () => {
  it("holds every tuning system twice under distinct derived ids, with copies of the sources they cite", () => {
    expect(grown.tuningSystems).toHaveLength(2 * facts.tuningSystems.length);
    expect(new Set(grown.tuningSystems.map((ts) => ts.id)).size).toBe(grown.tuningSystems.length);
    const copy = grown.findTuningSystem("ronzevalleii_1904");
    expect(copy?.record.sourcePageReferences.map((r) => r.sourceId)).toEqual(["alkhuli_1904_2011_ii", "shawqi_1969_ii"]);
    expect(grown.sources.some((s) => s.id === "shawqi_1969_ii")).toBe(true);
    expect(ask("/tuning-systems").body).toMatchObject({ count: 70 });
  });

  it("answers for a copy what it answers for the original, but for the names", () => {
    const original = ask("/tuning-systems/ronzevalle_1904/yegah/pitch-classes");
    const copied = ask("/tuning-systems/ronzevalleii_1904/yegah/pitch-classes");
    expect(copied.status).toBe(200);
    const strip = (body: unknown) => JSON.stringify(body).replaceAll(/ronzevalle(ii)?_1904|Ronzevalle( II)?|رونزيفال( II)?/g, "TS");
    expect(strip(copied.body)).toBe(strip(original.body));
  });
});
