import { describe, it, expect, afterAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fitToLimits, HEADROOM, valueClassOf, VALUE_CLASSES, type Candidate, type ValueClass } from "../scripts/budget.js";
import { ROOT_FILES_RESERVE } from "../scripts/fitTree.js";
import { classStart, inPlaces, PART_SHARES, renderBound, type Bounded, type Place } from "../scripts/renderBound.js";
import type { Rendered } from "../scripts/buildWorker.js";
import type { Planned } from "../scripts/manifest.js";
import { cacheGroupOf } from "../scripts/slicePlan.js";

/** A request of each answer class, numbered. */
const REQUESTS: Record<Exclude<ValueClass, "site" | "database" | "dataset" | "picture">, (i: number) => string> = {
  index: (i) => `/maqamat/m${i}`,
  base: (i) => `/maqamat/m${i}?tuningSystem=t&startingNote=yegah`,
  export: (i) => `/exports/maqamat/m${i}/t/yegah.scl`,
  variant: (i) => `/maqamat/m${i}?tuningSystem=t&startingNote=yegah&includeArabic=true`,
  restated: (i) => `/exports/maqamat/m${i}/t/yegah.tun`,
};

/** A small pseudo-random sequence, the same on every run. */
function numbers(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** A plan of `n` requests of mixed classes in a shuffled order, and their results, some with a `.gz` sibling. */
function planAndResults(n: number, seed: number): { planned: Planned[]; results: Rendered[] } {
  const random = numbers(seed);
  const makers = Object.values(REQUESTS);
  const planned = Array.from({ length: n }, (_, i) => {
    const request = makers[Math.floor(random() * makers.length)](i);
    return {
      request,
      file: `${request.replace("?", "/q")}/f${i}.json`,
      route: "r",
      query: "",
      valueClass: valueClassOf(request),
      group: cacheGroupOf(request),
    };
  });
  const results = planned.map((_, index) => ({
    index,
    status: random() < 0.05 ? 404 : 200,
    bytes: Math.floor(random() * 20_000),
    hash: "h",
    encoded: random() < 0.5 ? { gzip: Math.floor(random() * 5_000) } : {},
  }));
  return { planned, results };
}

/** The stop as one fit over every file known asks it: nothing ranked before `place` left out. */
function goOnByOneFit(known: Candidate[], tarBytes: number, place: Place): boolean {
  const [firstLeft] = fitToLimits(known, { tarBytes }, ROOT_FILES_RESERVE).left;
  if (firstLeft === undefined) return true;
  const d = VALUE_CLASSES.indexOf(firstLeft.valueClass) - VALUE_CLASSES.indexOf(place.valueClass);
  return d > 0 || (d === 0 && firstLeft.order >= place.from);
}

const candidatesOf = (planned: Planned[], results: Rendered[]): Candidate[] =>
  results
    .filter((r) => r.status === 200)
    .flatMap((r) => {
      const path = `api/${planned[r.index].file}`;
      const valueClass = valueClassOf(planned[r.index].request);
      const sibling = r.encoded.gzip === undefined ? [] : [{ path: `${path}.gz`, bytes: r.encoded.gzip, valueClass, order: r.index }];
      return [{ path, bytes: r.bytes, valueClass, order: r.index }, ...sibling];
    });

/** The rendering's places in value order, as it asks about them, with the results of each. */
const placesInOrder = (bounded: Bounded, results: readonly Rendered[]): [Place, Rendered[]][] => inPlaces(results, (r) => bounded.placeOf(r.index));

describe("where a rendering in value order stops", () => {
  const empty = mkdtempSync(join(tmpdir(), "maqam-bound-"));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));
  const site: Candidate[] = [0, 1, 2].map((i) => ({ path: `site/p${i}.html`, bytes: 30_000, valueClass: "site", order: 0 }));
  const boundOf = (planned: Planned[], tarBytes: number, taken: Rendered[] = []) =>
    renderBound({ partial: empty, site, limits: { tarBytes }, pictures: true, taken: () => ({ results: taken, pictureFiles: new Set() }) })(planned);

  it("stops where one fit over every known file would, place after place, with part of the plan taken over from a previous build", () => {
    const { planned, results } = planAndResults(2000, 7);
    const whole = candidatesOf(planned, results).reduce((sum, c) => sum + c.bytes + 1024, 0);
    let stops = 0;
    for (const share of [0.1, 0.3, 0.5, 0.7, 0.9, 1.2])
      for (const takenEvery of [0, 3]) {
        const tarBytes = Math.round(whole * share);
        const taken = takenEvery ? results.filter((r) => r.index % takenEvery === 0) : [];
        const bounded = boundOf(planned, tarBytes, taken);
        // As the rendering asks: each place once those before it are rendered, into one list of results.
        const rendered: Rendered[] = [];
        const places = placesInOrder(
          bounded,
          results.filter((r) => !taken.includes(r)),
        );
        for (const [place, part] of [...places, [classStart("picture"), []] as [Place, Rendered[]]]) {
          const expected = goOnByOneFit([...site, ...candidatesOf(planned, [...rendered, ...taken])], tarBytes, place);
          expect(bounded.goOn(place, rendered), `${share} ${takenEvery} ${place.valueClass} ${place.from}`).toBe(expected);
          if (!expected) stops++;
          rendered.push(...part);
        }
      }
    // The limits above stop the rendering at several places, and not at all at the largest.
    expect(stops).toBeGreaterThan(10);
  });

  it("answers a place asked again, or out of order, or with other results, as a fresh fit would", () => {
    const { planned, results } = planAndResults(600, 11);
    const whole = candidatesOf(planned, results).reduce((sum, c) => sum + c.bytes + 1024, 0);
    const tarBytes = Math.round(whole * 0.6);
    const bounded = boundOf(planned, tarBytes);
    const known = [...site, ...candidatesOf(planned, results)];
    for (const valueClass of ["picture", "export", "base", "restated", "export", "variant"] as const) {
      const place = classStart(valueClass);
      const before = results.filter((r) => VALUE_CLASSES.indexOf(valueClassOf(planned[r.index].request)) < VALUE_CLASSES.indexOf(valueClass));
      expect(bounded.goOn(place, before), valueClass).toBe(goOnByOneFit(known, tarBytes, place));
    }
  });

  it("asks again within a class, so that a limit falling at its start stops the rendering after the first part of it", () => {
    const { planned, results } = planAndResults(12800, 3);
    const isVariant = (r: Rendered) => valueClassOf(planned[r.index].request) === "variant";
    const rankOfRequest = (r: Rendered) => VALUE_CLASSES.indexOf(valueClassOf(planned[r.index].request));
    // A host with room for everything ranked before the variants and less than one file more.
    const before = results.filter((r) => rankOfRequest(r) < VALUE_CLASSES.indexOf("variant"));
    const { measured } = fitToLimits([...site, ...candidatesOf(planned, before)], {}, ROOT_FILES_RESERVE);
    const bounded = boundOf(planned, Math.ceil((measured.tarBytes + 100) / (1 - HEADROOM)));
    const places = placesInOrder(bounded, results);
    const variants = places.filter(([p]) => p.valueClass === "variant");
    // A class cut where 1/16384, 1/4096, …, 1/4 of its requests are behind (the shares that fall on no request of a
    // small class left out): parts each about three times all before it.
    const total = results.filter(isVariant).length;
    const cuts = [0, ...new Set(PART_SHARES.map((share) => Math.floor(total * share)).filter((cut) => cut > 0)), total];
    expect(cuts.length).toBeGreaterThan(4);
    expect(variants.map(([, part]) => part.length)).toEqual(cuts.slice(1).map((cut, i) => cut - cuts[i]));
    for (const [[a], [b]] of variants.slice(1).map((v, i) => [variants[i], v])) expect(a.from).toBeLessThan(b.from);
    for (const [place, part] of variants) for (const r of part) expect(bounded.placeOf(r.index)).toEqual(place);
    // Rendered as the build does: the variants' first part, then the stop.
    const rendered: Rendered[] = [];
    for (const [place, part] of places) {
      if (!bounded.goOn(place, rendered)) break;
      rendered.push(...part);
    }
    expect(rendered.filter(isVariant)).toHaveLength(cuts[1]);
    expect(rendered).toHaveLength(before.length + cuts[1]);
  });
});
