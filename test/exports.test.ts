/**
 * The exports in detail: worked examples of each kind of file, the writers' rules (ASCII,
 * ratios or cents with a point), the answers' headers from a file and computed, the path map of
 * downloads, the JSON 4xx, and the strict readers refusing what the formats do not allow.
 */
import { describe, expect, it } from "vitest";
import Fraction from "fraction.js";
import { ask, expectError } from "./support/api.js";
import { catalog } from "./support/catalog.js";
import { parseKbm, parseScl, parseTun, keyCentsOf } from "./support/tuningFiles.js";
import { ascii, asciiByDefinition } from "../src/exports/ascii.js";
import { centsText, decimalText, writeKbm, writeScl } from "../src/exports/scala.js";
import { writeTun } from "../src/exports/anamark.js";
import { answerApi, handleRequest } from "../src/serve/handler.js";
import { downloadNameOf, isDownloadPath, requestOfStaticFile, staticFileOf } from "../src/api/staticPath.js";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";

const text = (path: string): string => {
  const r = ask(path);
  expect(r.status, path).toBe(200);
  return r.body as string;
};
/** The pitch lines of a .scl, as written. */
const pitchLines = (scl: string) => parseScl(scl).pitches.map((p) => p.text);

describe("worked examples", () => {
  it("Ibn Sina's 17 tones from yegah: the archive's ratios over the starting note, 2/1 last", () => {
    expect(pitchLines(text("/exports/tuning-systems/ibnsina_1037/yegah.scl"))).toEqual(
      "273/256 13/12 9/8 32/27 39/32 81/64 4/3 91/64 13/9 3/2 128/81 13/8 27/16 16/9 91/48 52/27 2/1".split(" "),
    );
  });

  it("24-EDO, defined in cents: cents with a decimal point, the octave as 1200.000000", () => {
    const lines = pitchLines(text("/exports/tuning-systems/angloeuropean_1800/yegah.scl"));
    expect(lines).toHaveLength(24);
    expect(lines.slice(0, 2)).toEqual(["50.000000", "100.000000"]);
    expect(lines[23]).toBe("1200.000000");
  });

  it("maqam rast in Ibn Sina from yegah: rast (C3) on MIDI key 48 at the API's 130.665 Hz", () => {
    expect(pitchLines(text("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.scl"))).toEqual(["9/8", "39/32", "4/3", "3/2", "27/16", "117/64", "2/1"]);
    // Descending, awj (117/64) gives way to ajam (16/9).
    expect(pitchLines(text("/exports/maqamat/maqam_rast/ibnsina_1037/yegah-descending.scl"))).toEqual(["9/8", "39/32", "4/3", "3/2", "27/16", "16/9", "2/1"]);
    const kbm = parseKbm(text("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.kbm"));
    expect(kbm).toMatchObject({
      size: 7,
      firstKey: 0,
      lastKey: 127,
      middleKey: 48,
      referenceKey: 48,
      referenceFrequency: 130.6653333333333,
      octaveDegree: 7,
      mapping: [0, 1, 2, 3, 4, 5, 6],
    });
    // segah, two keys up, is 39/32 above rast.
    const scl = parseScl(text("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.scl"));
    expect(keyCentsOf(scl, kbm, 50)! - keyCentsOf(scl, kbm, 48)!).toBeCloseTo(1200 * Math.log2(39 / 32), 9);
  });

  it("a descending scale only where it differs: maqam bayyat has none", () => {
    expect(ask("/exports/maqamat/maqam_bayyat/ibnsina_1037/yegah.scl").status).toBe(200);
    expectError(ask("/exports/maqamat/maqam_bayyat/ibnsina_1037/yegah-descending.scl"), 404);
  });

  it("the rast set in Ibn Sina: twelve keys from C3 (48), each key its degree", () => {
    const kbm = parseKbm(text("/exports/pitch-class-sets/ibnsina_1037/yegah/maqam_rast_set.kbm"));
    expect(kbm).toMatchObject({ size: 12, middleKey: 48, referenceKey: 48, octaveDegree: 12, mapping: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] });
    expect(pitchLines(text("/exports/pitch-class-sets/ibnsina_1037/yegah/maqam_rast_set.scl"))).toEqual(
      "273/256 9/8 32/27 39/32 4/3 13/9 3/2 819/512 27/16 16/9 117/64 2/1".split(" "),
    );
  });

  it("the .tun of a tuning system: MIDI key 43 is yegah at 97.999 Hz, every key given twice", () => {
    const tun = parseTun(text("/exports/tuning-systems/ibnsina_1037/yegah.tun"));
    expect(tun.exact[43]).toBeCloseTo(6900 + 1200 * Math.log2(97.999 / 440), 6);
    expect(tun.tuning[43]).toBe(4300);
    // 17 keys up: the octave.
    expect(tun.exact[60] - tun.exact[43]).toBeCloseTo(1200, 6);
    expect(tun.info.name[0]).toBe("tuning system, one octave from yegah (Ibn Sina (1037) 7-Fret Oud 17-Tone)");
  });

  it("header comments: archive, tuning system, its source and page, the URL, in ASCII", () => {
    const { comments } = parseScl(text("/exports/ajnas/jins_hijaz/alfarabi_950g/yegah.scl"));
    expect(comments.slice(0, 4)).toEqual([
      "jins_hijaz-alfarabi_950g-yegah.scl",
      "Arabic Maqam Archive: jins hijaz on dugah",
      "Tuning system: al-Farabi (950g) First Oud Tuning (Full First Octave) 27-Tone (alfarabi_950g), starting note yegah",
      "Tuning system source: Farmer 1937, p. 249; Land 1885, p. 134-137; d'Erlanger 1930, p. 165-185; Mofakham 2022, p. 14; Forster 2010, p. 639",
    ]);
    expect(comments).toContain("From http://localhost:3000/api/exports/ajnas/jins_hijaz/alfarabi_950g/yegah.scl");
  });
});

describe("writers", () => {
  it("transliterate to ASCII and leave Arabic script out", () => {
    expect(ascii("maqām ḥijāz ʿajam ʾawj")).toBe("maqam hijaz ajam awj");
    expect(ascii("d’Erlanger – Tome 1")).toBe("d'Erlanger - Tome 1");
    expect(ascii("rāst راست")).toBe("rast");
    // Plain ASCII is its own form only with single spaces and none at either end.
    expect(ascii("From http://x/api/a.scl")).toBe("From http://x/api/a.scl");
    expect(ascii(" two  spaces ")).toBe("two spaces");
  });

  it("transliterate every text of the archive, and any mix of tricky characters, as the definition does", () => {
    const texts = new Set<string>();
    const collect = (value: unknown): void => {
      if (typeof value === "string") texts.add(value);
      else if (value && typeof value === "object") Object.values(value).forEach(collect);
    };
    collect(catalog.facts);
    expect(texts.size).toBeGreaterThan(1000);
    for (const text of texts) expect(ascii(text)).toBe(asciiByDefinition(text));
    // Combining marks, precomposed and compatibility letters, spaces and controls, punctuation, Arabic, astral and lone surrogates.
    const pool = [..."aZ9 ~\t\n\u00a0\u2003\u0301\u0323āḥʿʾ‘’“”–—را\u{1F600}\u{1D11E}\u0000\u007f\u212b\u1e9b\u0345\uac00Ǆﬁ", "\ud800", "\udfff"];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from({ length: next(10) }, () => pool[next(pool.length)]).join("");
      expect(ascii(text), JSON.stringify(text)).toBe(asciiByDefinition(text));
    }
  });

  it("write ratios whose terms fit 2^31 - 1, cents otherwise, always with a point", () => {
    const big = new Fraction(2n ** 40n + 1n, 2n ** 40n);
    const scl = writeScl({
      comments: ["x"],
      description: "!t",
      pitches: [{ cents: 1e-9, ratio: big }, { cents: 701.955, ratio: new Fraction(3, 2) }, { cents: 1200 }],
    });
    expect(parseScl(scl)).toMatchObject({ description: "t", pitches: [{ text: "0.000000" }, { text: "3/2" }, { text: "1200.000000" }] });
    expect(centsText(-0)).toBe("0.000000");
    expect(decimalText(110)).toBe("110.0");
    expect(decimalText(97.999)).toBe("97.999");
  });

  it("keep a keyboard mapping to its size and a tuning to 128 notes", () => {
    const base = { comments: [], firstKey: 0, lastKey: 127, middleKey: 60, referenceKey: 60, referenceFrequency: 261.6, octaveDegree: 0 };
    expect(() => writeKbm({ ...base, size: 2, mapping: [0] })).toThrow();
    expect(parseKbm(writeKbm({ ...base, size: 2, mapping: [0, null] })).mapping).toEqual([0, null]);
    const tun = { comments: [], name: 'a "b"', id: "a", fileName: "a.tun", description: "", keywords: [] };
    expect(() => writeTun({ ...tun, cents: [0] })).toThrow();
    const read = parseTun(writeTun({ ...tun, cents: Array.from({ length: 128 }, (_, k) => 100 * k - 0.4) }));
    expect(read.info.name).toEqual(["a 'b'"]);
    expect(read.tuning.slice(0, 2)).toEqual([0, 100]);
  });
});

describe("strict readers", () => {
  const scl = "! a\ndescription\n 2\n 3/2\n 2/1\n";
  it("read a well-formed scale", () =>
    expect(parseScl(scl).pitches.map((p) => p.ratio)).toEqual([
      [3n, 2n],
      [2n, 1n],
    ]));
  it.each([
    ["non-ASCII text", scl.replace("description", "descripción")],
    ["a count that does not match", scl.replace(" 2\n", " 3\n")],
    ["a zero denominator", scl.replace("3/2", "3/0")],
    ["a term beyond 2^31 - 1", scl.replace("3/2", "4294967296/1")],
    ["a missing final line feed", scl.slice(0, -1)],
  ])("refuse a scale with %s", (_, bad) => expect(() => parseScl(bad)).toThrow());
  it("refuse a mapping whose reference key has no degree, and a tuning without [Scale End]", () => {
    const kbm = parseKbm("2\n0\n127\n60\n61\n440.0\n2\n0\nx\n");
    expect(() => keyCentsOf(parseScl(scl), kbm, 60)).toThrow();
    const tun = writeTun({
      comments: [],
      name: "n",
      id: "i",
      fileName: "f",
      description: "",
      keywords: [],
      cents: Array.from({ length: 128 }, (_, k) => 100 * k),
    });
    expect(() => parseTun(tun.replace("[Scale End]\n", ""))).toThrow();
    expect(() => parseTun(tun.replace("FormatVersion = 200", 'FormatVersion = "200"'))).toThrow();
  });
});

describe("answers", () => {
  const path = "/exports/tuning-systems/ibnsina_1037/yegah.kbm";

  it("are ASCII text with a download name, the same from a file as computed", async () => {
    const computed = await handleRequest(new Request(`http://localhost:3000/api${path}`), { catalog, baseUrl: "http://localhost:3000" });
    expect(computed.headers.get("content-type")).toBe("text/plain; charset=us-ascii");
    expect(computed.headers.get("content-disposition")).toBe('attachment; filename="ibnsina_1037-yegah.kbm"');
    const bytes = new Uint8Array(await computed.arrayBuffer());
    const file = staticFileOf(path, new URLSearchParams())!;
    const fromFile = await answerApi(path, new URLSearchParams(), {
      catalog,
      baseUrl: "http://localhost:3000",
      assets: async (f) => (f === file ? { body: bytes } : undefined),
    });
    expect(fromFile).toMatchObject({ source: "static", download: "ibnsina_1037-yegah.kbm", status: 200 });
    expect(fromFile.body).toEqual(bytes);
  });

  it("are written at their URL path, which names them back", () => {
    expect(staticFileOf(path, new URLSearchParams())).toBe("exports/tuning-systems/ibnsina_1037/yegah.kbm");
    expect(requestOfStaticFile("exports/tuning-systems/ibnsina_1037/yegah.kbm")?.path).toBe(path);
    expect(isDownloadPath("/tuning-systems/ibnsina_1037/yegah.scl")).toBe(false);
    expect(downloadNameOf("/exports/maqamat/maqam_rast_al_saham/ramal_tuti/ibnsina_1037/yegah-descending.scl")).toBe(
      "maqam_rast_al_saham-ramal_tuti-ibnsina_1037-yegah-descending.scl",
    );
  });

  it("refuse bad input with the usual JSON", () => {
    expectError(ask("/exports/tuning-systems/nope_1/yegah.scl"), 404);
    expectError(ask("/exports/tuning-systems/ibnsina_1037/rast.tun"), 400);
    expectError(ask("/exports/maqamat/maqam_nope/ibnsina_1037/yegah.scl"), 404);
    expectError(ask("/exports/maqamat/maqam_hijaz/angloeuropean_1700/yegah.scl"), 422);
    expectError(ask("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.txt"), 404);
    const set = ask("/exports/pitch-class-sets/ibnsina_1037/yegah/nope_set.tun");
    expectError(set, 404);
    expect(set.body.validOptions).toContain("maqam_rast_set");
  });

  it("refuse a set on a starting note al-Kindi's tuning, which completes the sets, lacks", () => {
    const facts = readFacts();
    const tuningSystems = facts.tuningSystems.map((t) =>
      t.creatorEnglish === "al-Kindī" ? { ...t, noteNames: t.noteNames.filter((set) => set[0] !== "rāst") } : t,
    );
    const withoutRast = createCatalog({ ...facts, tuningSystems });
    const r = dispatch(routes, {
      catalog: withoutRast,
      baseUrl: "http://x",
      path: "/exports/pitch-class-sets/alsabbagh_1954/rast/maqam_rast_set.scl",
      query: new URLSearchParams(),
    });
    expectError(r as { status: number; body: unknown }, 400);
    expect((r.body as { validOptions: string[] }).validOptions).toEqual([]);
  });

  it("name the canonical URL whatever spelling was asked", () => {
    const spelled = ask("/exports/tuning-systems/ibnsina_1037/yeg%C4%81h.scl".replace("%C4%81", "ā"));
    expect(spelled.status).toBe(200);
    expect(spelled.body).toBe(text("/exports/tuning-systems/ibnsina_1037/yegah.scl"));
  });
});
