/**
 * The archive is a value: answers depend only on the catalog in the request context. Catalogs made
 * from different facts answer differently, side by side in one process, and share no cache; the
 * bundled facts make the same catalog as the files.
 */
import { describe, it, expect } from "vitest";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { readFacts } from "../src/data/load.js";
import { bundledFacts } from "../src/data/bundled.js";
import type { Facts } from "../src/data/facts.js";
import { createCatalog, type Catalog } from "../src/theory/catalog.js";
import { pitchClassesOf } from "../src/theory/pitchClass.js";
import { transpositionsOf } from "../src/theory/transposition.js";
import { MEMO_LIMITS } from "../src/theory/caches.js";
import { FORMATS } from "../src/exports/formats.js";
import { EXPLORER_FIRST_VIEW, prerenderRequests } from "../scripts/prerender/index.js";

const IBN_SINA = "ibnsina_1037";
const PITCH_CLASSES = `/tuning-systems/${IBN_SINA}/yegah/pitch-classes`;

const answer = (catalog: Catalog, path: string, query = "") => {
  const { status, body } = dispatch(routes, { catalog, baseUrl: "http://localhost:3000", path, query: new URLSearchParams(query) });
  return { status, json: JSON.stringify(body) };
};
const cents = (catalog: Catalog) =>
  (JSON.parse(answer(catalog, PITCH_CLASSES, "octave=1&pitchClassDataType=cents").json) as { pitchClasses: { cents: number }[] }).pitchClasses.map(
    (pc) => pc.cents,
  );

/** The archive's facts with one change to Ibn Sīnā's tuning system (the archive's own are left alone). */
function changed(change: (systems: Facts["tuningSystems"]) => Facts["tuningSystems"]): Facts {
  const facts = structuredClone(readFacts());
  return { ...facts, tuningSystems: change(facts.tuningSystems) };
}

describe("catalogs", () => {
  const archive = createCatalog(readFacts());
  const without = createCatalog(changed((systems) => systems.filter((ts) => ts.id !== IBN_SINA)));
  // 256/243 (a limma, 90.225 cents) in place of 273/256 (111.309 cents) on the second pitch class.
  const retuned = createCatalog(
    changed((systems) =>
      systems.map((ts) => (ts.id === IBN_SINA ? { ...ts, tuningSystemPitchClasses: ["1/1", "256/243", ...ts.tuningSystemPitchClasses.slice(2)] } : ts)),
    ),
  );

  it("answer from their own facts, side by side", () => {
    const list = (catalog: Catalog) => JSON.parse(answer(catalog, "/tuning-systems").json) as { count: number };
    expect(list(without).count).toBe(list(archive).count - 1);
    expect(answer(archive, PITCH_CLASSES).status).toBe(200);
    expect(answer(without, PITCH_CLASSES).status).toBe(404);
    expect(answer(archive, PITCH_CLASSES).status).toBe(200);
    expect(without.findTuningSystem(IBN_SINA)).toBeUndefined();
    expect(archive.findTuningSystem(IBN_SINA)?.id).toBe(IBN_SINA);
  });

  it("share no cache: a computed answer of one catalog never reaches another", () => {
    const before = cents(archive);
    expect(before[1]).toBeCloseTo(111.309, 3);
    expect(cents(retuned)[1]).toBeCloseTo(90.225, 3);
    expect(cents(archive)).toEqual(before);
    // A third catalog of the same facts recomputes rather than borrowing the first one's values.
    const again = createCatalog(readFacts());
    const ts = archive.findTuningSystem(IBN_SINA)!;
    const tsAgain = again.findTuningSystem(IBN_SINA)!;
    expect(pitchClassesOf(archive, ts, "yegāh")).toBe(pitchClassesOf(archive, ts, "yegāh"));
    expect(pitchClassesOf(again, tsAgain, "yegāh")).not.toBe(pitchClassesOf(archive, ts, "yegāh"));
    expect(pitchClassesOf(again, tsAgain, "yegāh")).toEqual(pitchClassesOf(archive, ts, "yegāh"));
    const rast = archive.findMaqam("maqam_rast")!.entity;
    expect(transpositionsOf(again, again.findMaqam("maqam_rast")!.entity, tsAgain, "yegāh")).not.toBe(transpositionsOf(archive, rast, ts, "yegāh"));
    for (const name of Object.keys(MEMO_LIMITS) as (keyof typeof MEMO_LIMITS)[]) expect(again.caches.memos[name]).not.toBe(archive.caches.memos[name]);
  });

  it("answer for a tuning system whose ratios do not rise (no pitch classes) with 200s and 404s, its octave's exports not found", () => {
    // 13/12 moved above 9/8: the fractions are no longer non-decreasing, so the values' format is unknown (algorithms.md §1.1.1).
    const unordered = createCatalog(
      changed((systems) =>
        systems.map((ts) =>
          ts.id === IBN_SINA ? { ...ts, tuningSystemPitchClasses: ts.tuningSystemPitchClasses.map((v) => (v === "13/12" ? "8/7" : v)) } : ts,
        ),
      ),
    );
    const ts = unordered.findTuningSystem(IBN_SINA)!;
    expect(pitchClassesOf(unordered, ts, "yegāh")).toEqual([]);
    // The explorer's first view is asked whatever the facts hold (the build writes its 200s only): here its rendering has no pitch classes.
    const requests = [...prerenderRequests(unordered, { full: false })].filter((r) => r.includes(IBN_SINA) && !EXPLORER_FIRST_VIEW.includes(r));
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => r.startsWith(`/exports/tuning-systems/${IBN_SINA}/`))).toEqual([]);
    for (const request of requests) {
      const [path, query = ""] = request.split("?");
      expect(answer(unordered, path, query).status, request).toBe(200);
    }
    for (const request of EXPLORER_FIRST_VIEW) {
      const [path, query = ""] = request.split("?");
      expect([200, 404, 422], request).toContain(answer(unordered, path, query).status);
    }
    for (const format of FORMATS) {
      const { status, json } = answer(unordered, `/exports/tuning-systems/${IBN_SINA}/yegah.${format}`);
      expect(status).toBe(404);
      const body = JSON.parse(json) as { error: string; message: string; hint: string };
      expect(body.error).toBe(`No pitch classes in '${IBN_SINA}'`);
      expect(body.message).toContain("no pitch classes");
      expect(body.hint).toContain(`/api/tuning-systems/${IBN_SINA}`);
    }
    expect(answer(archive, `/exports/tuning-systems/${IBN_SINA}/yegah.scl`).status).toBe(200);
  });

  it("answer the same from the bundled facts as from data/", () => {
    const bundled = createCatalog(bundledFacts());
    for (const [path, query] of [
      ["/tuning-systems", ""],
      [PITCH_CLASSES, "octave=1&pitchClassDataType=cents"],
      ["/maqamat/maqam_rast", "tuningSystem=ibnsina_1037&startingNote=yegah&includeModulations=true"],
      ["/maqamat/families", "tuningSystem=alfarabi_950g&startingNote=yegah"],
    ]) {
      const expected = answer(archive, path, query);
      expect(expected.status, path).toBe(200);
      expect(answer(bundled, path, query)).toEqual(expected);
    }
  });
});
