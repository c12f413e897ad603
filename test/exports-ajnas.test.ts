/** Every exported jins file (.scl, .kbm), read strictly and checked against the jins's detail answer. */
import { describe, expect, it } from "vitest";
import { catalog } from "./support/catalog.js";
import { renderingFiles } from "../src/api/exports.js";
import { checkRendering, renderingsOf, type Problems } from "./support/exportChecks.js";

const renderings = renderingsOf([...renderingFiles(catalog, { full: false }, "jins")]);

describe("jins exports", () => {
  it("cover every pre-rendered jins detail", () => expect(renderings.length).toBeGreaterThan(12_000));

  it.each(catalog.tuningSystems.map((ts) => [ts.id, ts] as const))("%s: every rendering", (id, ts) => {
    const problems: Problems = [];
    for (const r of renderings.filter((x) => x.tuningSystem === id)) checkRendering(r, ts.valueType === "fraction", problems);
    expect(problems.slice(0, 10)).toEqual([]);
  });
});
