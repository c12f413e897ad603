/**
 * Walks every registered route with bad input: unknown ids, blank and malformed parameters.
 * Every answer must be a 4xx built by the one error helper — `{error, message, hint}` strings —
 * and never a 500.
 */
import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";

const ask = (path: string, query = "") => dispatch(routes, { catalog, baseUrl: "http://localhost:3000", path, query: new URLSearchParams(query) });

/** A concrete path for a route pattern, with every path parameter set to `value`. */
const pathOf = (name: string, value: string) => name.replace(/^GET /, "").replace(/\{\w+\}/g, value);

const BAD_QUERIES = [
  "",
  "includeArabic=maybe",
  "includeArabic=",
  "centsTolerance=-3",
  "centsTolerance=abc",
  "tuningSystem=nope&startingNote=nope",
  "tuningSystem=&startingNote=",
  "tuningSystems=all,ibnsina_1037&startingNotes=yegah&startingNote=yegah",
  "pitchClassDataType=bogus&tuningSystem=ibnsina_1037&startingNote=yegah",
  "sortBy=&filterByFamily=&filterByTonic=",
  "maxHops=99&fromMaqam=x&toMaqam=y&tuningSystem=ibnsina_1037&startingNote=yegah",
  "noteNames=&from=&to=&unit=",
  "octave=7",
];

function expectErrorBody(status: number, body: any) {
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
  expect(typeof body.error).toBe("string");
  if (status !== 422) {
    expect(typeof body.message).toBe("string");
    expect(typeof body.hint).toBe("string");
  }
}

describe("bad input on every route", () => {
  for (const route of routes) {
    it(`${route.name}: unknown ids are a 4xx with {error, message, hint}`, () => {
      const r = ask(pathOf(route.name, "no_such_thing_xyz"));
      // Routes without path parameters may legitimately answer 200 without a query.
      if (route.pathParams.length > 0 || r.status !== 200) expectErrorBody(r.status, r.body);
    });

    it(`${route.name}: malformed parameters never give a 500`, () => {
      for (const id of ["no_such_thing_xyz", "%20", "maqam_rast", "jins_rast", "ibnsina_1037"]) {
        for (const q of BAD_QUERIES) {
          const r = ask(pathOf(route.name, id), q);
          expect(r.status, `${pathOf(route.name, id)}?${q}`).not.toBe(500);
          if (r.status >= 400) expectErrorBody(r.status, r.body);
        }
      }
    });
  }

  it("an unknown route is a 404 with an error body", () => {
    const r = ask("/no-such-endpoint");
    expect(r.status).toBe(404);
    expectErrorBody(r.status, r.body);
  });

  it("malformed percent-encoding in a path is a 400", () => {
    const r = ask("/tuning-systems/%E0%A4%A/yegah/pitch-classes");
    expect(r.status).toBe(400);
    expectErrorBody(r.status, r.body);
  });
});

describe("limits on unbounded requests", () => {
  const many = (token: string, n: number) => Array(n).fill(token).join(",");

  it("a compare grid over 2000 cells is a 400 naming the limit", () => {
    const r = ask("/maqamat/maqam_rast/compare", `tuningSystems=all&startingNotes=${many("yegah", 58)}`);
    expect(r.status).toBe(400);
    expectErrorBody(r.status, r.body);
    expect((r.body as any).error).toBe("Too many comparisons: 2030 (at most 2000)");
    expect(ask("/ajnas/jins_rast/compare", `tuningSystems=all&startingNotes=${many("yegah", 57)}`).status).toBe(200);
  });

  it("a list of more than 500 values is a 400", () => {
    for (const [path, query] of [
      ["/intervals", `noteNames=${many("rast", 501)}`],
      ["/intervals/compare", `noteNames=${many("rast", 501)}&tuningSystems=all&startingNote=all`],
      ["/pitch-classes/note-names/rast/compare", `tuningSystems=${many("ibnsina_1037", 501)}&startingNote=yegah`],
      ["/ajnas/jins_rast/compare", `tuningSystems=ibnsina_1037&startingNotes=${many("yegah", 501)}`],
    ]) {
      const r = ask(path, query);
      expect(r.status, path).toBe(400);
      expect((r.body as any).error, path).toMatch(/^Too many .*: 501 \(at most 500\)$/);
    }
    expect(ask("/intervals", `noteNames=${many("rast", 200)}`).status).toBe(200);
  });
});
