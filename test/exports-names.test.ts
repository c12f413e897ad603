/**
 * The renderings by note name in detail: worked examples of the -names.kbm (each degree on the
 * key of its name, a key away only where names share one), of a rendering past its octave, of the
 * .tun on those keys, the choice of keys itself, and the routes, listings and value class of the
 * two files. The sweep over every pre-rendered rendering is test/exports-maqamat and -ajnas.
 */
import { describe, expect, it } from "vitest";
import { ask, expectError } from "./support/api.js";
import { parseKbm, parseScl, parseTun, keyCentsOf } from "./support/tuningFiles.js";
import { noteNameOffsets } from "../src/exports/scales.js";
import { valueClassOf } from "../scripts/budget.js";
import { exportRequests } from "../src/api/exports/prerender.js";
import { catalog } from "./support/catalog.js";

const text = (path: string): string => {
  const r = ask(path);
  expect(r.status, path).toBe(200);
  return r.body as string;
};

/** The API's ascending cells of a maqām or jins rendering. */
function cellsOf(collection: "maqamat" | "ajnas", idName: string, tuningSystem: string, startingNote: string) {
  const r = ask(`/${collection}/${idName}`, `pitchClassDataType=all&startingNote=${startingNote}&tuningSystem=${tuningSystem}`);
  expect(r.status).toBe(200);
  const cells = collection === "maqamat" ? r.body.pitchData.ascending : r.body.pitchData;
  return cells as { englishName: string; midiNoteDecimal: number }[];
}

/** The key of each degree 0…n−1 of a mapping, from its first entry on. */
const keysOfDegrees = (kbm: ReturnType<typeof parseKbm>, n: number) => Array.from({ length: n }, (_, d) => kbm.middleKey + kbm.mapping.indexOf(d));

const base = "/exports/maqamat/maqam_rast/ibnsina_1037/yegah";

describe("worked examples", () => {
  it("maqam rast in Ibn Sina from yegah: C D E F G A B keys from rast on key 48, the black keys unmapped", () => {
    const kbm = parseKbm(text(`${base}-names.kbm`));
    expect(kbm).toMatchObject({ size: 12, firstKey: 0, lastKey: 127, middleKey: 48, referenceKey: 48, referenceFrequency: 130.6653333333333, octaveDegree: 7 });
    expect(kbm.mapping).toEqual([0, null, 1, null, 2, 3, null, 4, null, 5, null, 6]);
    // segah (E-b3, 39/32 above rast) on the E key; the octave on the next C.
    const scl = parseScl(text(`${base}.scl`));
    expect((keyCentsOf(scl, kbm, 52) ?? Number.NaN) - (keyCentsOf(scl, kbm, 48) ?? Number.NaN)).toBeCloseTo(1200 * Math.log2(39 / 32), 9);
    expect((keyCentsOf(scl, kbm, 60) ?? Number.NaN) - (keyCentsOf(scl, kbm, 48) ?? Number.NaN)).toBeCloseTo(1200, 9);
    expect(keyCentsOf(scl, kbm, 49)).toBeUndefined();
    expect(kbm.comments).toContain(
      "Keys by note name: rast (C3) 48, dugah (D3) 50, segah (E-b3) 52, chahargah (F3) 53, nawa (G3) 55, husayni (A3) 57, awj (B-b3) 59",
    );
  });

  it("its .tun: the same keys at the API's pitches, every other key in 12-TET, every note twice", () => {
    const tun = parseTun(text(`${base}.tun`));
    const cells = cellsOf("maqamat", "maqam_rast", "ibnsina_1037", "yegah");
    for (const [d, key] of [48, 50, 52, 53, 55, 57, 59].entries()) expect(tun.exact[key]).toBeCloseTo(100 * cells[d].midiNoteDecimal, 5);
    // The next octave: rast 1200 cents up on key 60.
    expect(tun.exact[60]).toBeCloseTo(100 * cells[0].midiNoteDecimal + 1200, 5);
    expect(tun.exact[49]).toBe(4900);
    expect(tun.tuning[52]).toBe(Math.round(tun.exact[52]));
    expect(tun.info.name[0]).toBe("maqam rast on rast, ascending, keys by note name (Ibn Sina (1037) 7-Fret Oud 17-Tone)");
  });

  it("two names on one key: in jins saba from iraq (Ronzevalle), D-b goes to the Db key and D-# keeps D", () => {
    const path = "/exports/ajnas/jins_saba_al_iraq/ronzevalle_1904/ushayran";
    const cells = cellsOf("ajnas", "jins_saba_al_iraq", "ronzevalle_1904", "ushayran");
    expect(cells.map((c) => c.englishName)).toEqual(["B-b2", "C3", "D-b3", "D-#3"]);
    const kbm = parseKbm(text(`${path}-names.kbm`));
    expect(keysOfDegrees(kbm, 4)).toEqual([47, 48, 49, 50]);
    const scl = parseScl(text(`${path}.scl`));
    for (const [d, c] of cells.entries()) expect(keyCentsOf(scl, kbm, 47 + d)).toBeCloseTo(100 * c.midiNoteDecimal, 6);
  });

  it("a half-flat next to the octave: F-b3 in rahatfazza from qarar chahargah goes down to the E key, E-b3 to Eb", () => {
    const path = "/exports/maqamat/maqam_rahatfazza_al_qarar_chahargah/ronzevalle_1904/ushayran";
    const cells = cellsOf("maqamat", "maqam_rahatfazza_al_qarar_chahargah", "ronzevalle_1904", "ushayran");
    const names = cells.map((c) => c.englishName);
    expect(names.slice(-2)).toEqual(["E-b3", "F-b3"]);
    const kbm = parseKbm(text(`${path}-names.kbm`));
    expect(kbm.size).toBe(12);
    const keys = keysOfDegrees(kbm, cells.length);
    // F2 on 41; the octave F3 is key 53, so F-b3 takes E (52) and E-b3 the Eb key (51).
    expect(keys[0]).toBe(41);
    expect(keys.slice(-2)).toEqual([51, 52]);
  });

  it("a maqam past its octave: suznak from rast keeps its keys up to Eb4 and retunes only those", () => {
    const path = "/exports/maqamat/maqam_suznak/ronzevalle_1904/ushayran";
    const kbm = parseKbm(text(`${path}-names.kbm`));
    expect(kbm).toMatchObject({ size: 24, firstKey: 48, lastKey: 63, middleKey: 48, octaveDegree: 9 });
    expect(keysOfDegrees(kbm, 10)).toEqual([48, 50, 52, 53, 55, 56, 59, 60, 62, 63]);
    const tun = parseTun(text(`${path}.tun`));
    expect(tun.exact[47]).toBe(4700);
    expect(tun.exact[64]).toBe(6400);
  });
});

describe("keys by note name (noteNameOffsets)", () => {
  it.each([
    ["names on their keys", [0, 2, 4, 5, 7, 9, 11], [0, 2, 4, 5, 7, 9, 11]],
    ["two names on one key: the lower a key down", [0, 1, 3, 3], [0, 1, 2, 3]],
    ["a name on the tonic's key: a key up, the tonic stays", [0, 0, 4], [0, 1, 4]],
    ["a name on the octave's key: down, and the degree below it with it", [0, 2, 4, 7, 9, 11, 12], [0, 2, 4, 7, 9, 10, 11]],
    ["a name out of order", [0, 5, 4, 7], [0, 4, 5, 7]],
  ])("%s", (_, named, keys) => expect(noteNameOffsets(named, 12)).toEqual(keys));

  it("no keys left: undefined (thirteen degrees in twelve keys)", () => {
    expect(noteNameOffsets([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11], 12)).toBeUndefined();
  });
});

describe("routes, listings and the build's plan", () => {
  it("a bad rendering is the usual JSON 4xx; yegah-names is no starting note of the linear .kbm", () => {
    expectError(ask("/exports/maqamat/maqam_nope/ibnsina_1037/yegah-names.kbm"), 404);
    expectError(ask("/exports/ajnas/jins_rast/ibnsina_1037/rast.tun"), 400);
    expect(ask("/exports/maqamat/maqam_rast/ibnsina_1037/yegah-names.kbm").body).not.toBe(ask("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.kbm").body);
  });

  it("listed in /api and the OpenAPI document", () => {
    const index = JSON.stringify(ask("/").body);
    const paths = Object.keys(ask("/openapi.json").body.paths);
    for (const collection of ["maqamat", "ajnas"])
      for (const suffix of ["-names.kbm", ".tun"]) {
        const path = `/exports/${collection}/{idName}/{tuningSystem}/{startingNote}${suffix}`;
        expect(paths).toContain(path);
        expect(index).toContain(path);
      }
  });

  it("planned for every pre-rendered rendering: the -names.kbm as an export, the .tun after the variants", () => {
    const wanted = new Set([`${base}-names.kbm`, `${base}.tun`]);
    for (const path of exportRequests(catalog, { full: false })) if (wanted.delete(path) && wanted.size === 0) break;
    expect([...wanted]).toEqual([]);
    expect(valueClassOf(`${base}-names.kbm`)).toBe("export");
    expect(valueClassOf(`${base}.tun`)).toBe("restated");
  });
});
