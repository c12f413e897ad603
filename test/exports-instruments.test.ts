/**
 * The Ableton Live tunings (.ascl) and MIDI Tuning Standard files (.syx) in detail: worked
 * examples against the MMA's own examples of frequency words and against recorded answers,
 * the answers' content types and bytes from a file and computed, the 404 of a scale/octave form
 * too narrow for a set, and the strict readers refusing what the formats do not allow. Every
 * exported file is read in the sweeps of exports-tuning-systems, -maqamat and -ajnas.
 */
import { describe, expect, it } from "vitest";
import { ask, expectError } from "./support/api.js";
import { catalog } from "./support/catalog.js";
import { abletonArguments, abletonKeyCents, parseAscl } from "./support/abletonFiles.js";
import { parseBulkDump, parseScaleOctave } from "./support/mtsFiles.js";
import { bulkTuningDump, frequencyWord, scaleOctaveTuning } from "../src/exports/mts.js";
import { answerApi, handleRequest } from "../src/serve/handler.js";
import { staticFileOf } from "../src/api/staticPath.js";
import { setFiles } from "../src/api/exports/prerender.js";

const centsOf = (hz: number) => 6900 + 1200 * Math.log2(hz / 440);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const bytesOf = (path: string): Uint8Array => {
  const r = ask(path);
  expect(r.status, path).toBe(200);
  return r.body as Uint8Array;
};

describe("MIDI Tuning Standard", () => {
  it("writes the frequency words of the specification's examples", () => {
    // Key and 14-bit fraction of the specification's examples (its Hz are rounded to four decimals).
    const examples: [number, number, string][] = [
      [0, 0, "000000"],
      [1, 0, "010000"],
      [12, 0, "0c0000"],
      [60, 0, "3c0000"],
      [61, 0, "3d0000"],
      [68, 16383, "447f7f"],
      [69, 0, "450000"],
      [69, 1, "450001"],
      [120, 0, "780000"],
      [120, 1, "780001"],
      [127, 16382, "7f7f7e"],
    ];
    for (const [key, fraction, word] of examples) {
      const hz = 440 * 2 ** ((key + fraction / 16384 - 69) / 12);
      expect(hex(Uint8Array.from(frequencyWord(centsOf(hz)))), `${hz} Hz`).toBe(word);
    }
    expect(centsOf(8.1758)).toBeCloseTo(0, 2);
    expect(centsOf(440.0016)).toBeCloseTo(6900 + 100 / 16384, 2);
    // Beyond the range a word can hold: "no change".
    expect(frequencyWord(-1)).toEqual([0x7f, 0x7f, 0x7f]);
    expect(frequencyWord(12800)).toEqual([0x7f, 0x7f, 0x7f]);
  });

  it("dumps Ibn Sina's 17 tones from yegah: 408 bytes, yegah (97.999 Hz) on key 43, the checksum the XOR of 7E … the last data byte", () => {
    const syx = bytesOf("/exports/tuning-systems/ibnsina_1037/yegah.syx");
    expect(syx.length).toBe(408);
    expect(hex(syx.subarray(0, 6))).toBe("f07e7f080100");
    expect(String.fromCharCode(...syx.subarray(6, 22))).toBe("ibnsina_1037 yeg");
    expect(syx[407]).toBe(0xf7);
    expect(syx[406]).toBe(syx.subarray(1, 406).reduce((x, b) => x ^ b, 0) & 0x7f);
    const dump = parseBulkDump(syx);
    expect(Math.abs(dump.keys[43]! - centsOf(97.999))).toBeLessThan(100 / 16384 / 2);
    // Key 60 is 17 degrees above yegah: its octave, 195.998 Hz.
    expect(Math.abs(dump.keys[60]! - centsOf(195.998))).toBeLessThan(100 / 16384 / 2);
  });

  it("leaves the keys a 7-note maqām cannot reach within MIDI's range unchanged (7F 7F 7F)", () => {
    const dump = parseBulkDump(bytesOf("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.syx"));
    // Rast (C3, key 48) with seven degrees per octave: key 0 lies 48 degrees, almost 7 octaves, below.
    expect(dump.keys.slice(0, 7)).toEqual(Array(7).fill(undefined));
    expect(dump.keys[48]).toBeCloseTo(centsOf(130.6653333333333), 2);
    expect(dump.keys[55]).toBeCloseTo(centsOf(2 * 130.6653333333333), 2);
  });

  it("tunes the rast set in Ibn Sina by scale/octave messages, C … B from 12-TET, every channel (recorded answers)", () => {
    const base = "/exports/pitch-class-sets/ibnsina_1037/yegah/maqam_rast_set";
    expect(hex(bytesOf(`${base}-octave-1-byte.syx`))).toBe("f07e7f0808037f7f3e494238053c63404b443a06f7");
    const two = parseScaleOctave(bytesOf(`${base}-octave-2-byte.syx`));
    expect(two.channels).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    // C: rast at 130.665 Hz, 1.96 cents below C3 of 12-TET; D: a 9/8 above it.
    expect(two.offsets[0]).toBeCloseTo(centsOf(130.6653333333333) - 4800, 2);
    expect(two.offsets[2]).toBeCloseTo(centsOf(130.6653333333333) - 4800 + 1200 * Math.log2(9 / 8) - 200, 2);
  });

  it("writes each offset form to its range", () => {
    expect(hex(scaleOctaveTuning(Array(12).fill(0), 1))).toBe(`f07e7f0808037f7f${"40".repeat(12)}f7`);
    expect(hex(scaleOctaveTuning([-64, 63, ...Array(10).fill(0)], 1)).slice(16, 20)).toBe("007f");
    expect(hex(scaleOctaveTuning([-100, 100 * (8191 / 8192), ...Array(10).fill(0)], 2)).slice(16, 24)).toBe("00007f7f");
    expect(() => scaleOctaveTuning([64.5, ...Array(11).fill(0)], 1)).toThrow();
    expect(() => bulkTuningDump("x", [0])).toThrow();
  });

  it("answers a set the 1-byte form cannot hold with a 404 naming the 2-byte form, and lists only the forms that hold it", () => {
    // Zanjaran from nim kawasht in Ronzevalle: a pitch class more than 64 cents from its key.
    const base = "/exports/pitch-class-sets/ronzevalle_1904/ushayran/maqam_zanjaran_al_nim_kawasht_set";
    const refused = ask(`${base}-octave-1-byte.syx`);
    expectError(refused, 404);
    expect(refused.body.hint).toBe(`Use /api${base}-octave-2-byte.syx.`);
    expect(parseScaleOctave(bytesOf(`${base}-octave-2-byte.syx`)).offsets.some((c) => Math.abs(c) > 63.5)).toBe(true);
    const listed = [...setFiles(catalog, "ronzevalle_1904")];
    expect(listed).toContain(`${base}-octave-2-byte.syx`);
    expect(listed).not.toContain(`${base}-octave-1-byte.syx`);
  });

  it("refuses, in the strict reader, a wrong length, checksum or data byte", () => {
    const syx = bytesOf("/exports/tuning-systems/ibnsina_1037/yegah.syx");
    expect(() => parseBulkDump(syx.subarray(0, 407))).toThrow(/bytes/);
    const badSum = Uint8Array.from(syx);
    badSum[406] ^= 1;
    expect(() => parseBulkDump(badSum)).toThrow(/checksum/);
    const highByte = Uint8Array.from(syx);
    highByte[100] = 0x80;
    expect(() => parseBulkDump(highByte)).toThrow(/over 7F/);
  });
});

describe("Ableton Live tunings", () => {
  const path = "/exports/maqamat/maqam_rast/ibnsina_1037/yegah.ascl";

  it("maqām rast in Ibn Sina from yegah: the .scl's pitches, then Live's directives, rast on key 48 at 130.665 Hz", () => {
    const text = ask(path).body as string;
    expect(text.split("\n")[0]).toBe("! maqam_rast-ibnsina_1037-yegah.ascl");
    expect(text.slice(text.indexOf("! @ABL"))).toBe(
      [
        "! @ABL NOTE_NAMES rast dugah segah chahargah nawa husayni awj",
        "! @ABL REFERENCE_PITCH 3 0 130.6653333333333",
        // Key 0 is 48 notes below rast (6 octaves and 6 notes), key 127 is 79 above (11 octaves and 2 notes).
        "! @ABL NOTE_RANGE_BY_INDEX -4 1 14 2",
        '! @ABL SOURCE "Ibn Sina (1037) 7-Fret Oud 17-Tone: Farmer 1937, p. 249"',
        "! @ABL LINK http://localhost:3000/api/exports/maqamat/maqam_rast/ibnsina_1037/yegah.ascl",
        "",
      ].join("\n"),
    );
    const ascl = parseAscl(text);
    expect(abletonKeyCents(ascl, 48)).toBeCloseTo(centsOf(130.6653333333333), 9);
    expect(abletonKeyCents(ascl, 50)).toBeCloseTo(centsOf(130.6653333333333) + 1200 * Math.log2(39 / 32), 9);
  });

  it("quotes names with spaces, and its reader refuses what the specification does not allow", () => {
    const ts = ask("/exports/tuning-systems/ibnsina_1037/yegah.ascl").body as string;
    expect(ts).toContain('! @ABL NOTE_NAMES yegah "qarar hisar" "qarar tik hisar/shuri" ushayran');
    expect(abletonArguments('a "b c" d')).toEqual(["a", "b c", "d"]);
    expect(() => parseAscl(ts.replace("@ABL NOTE_NAMES yegah ", "@ABL NOTE_NAMES "))).toThrow(/note names/);
    expect(() => parseAscl(ts.replace("REFERENCE_PITCH 2 0", "REFERENCE_PITCH 9 0"))).toThrow(/octave/);
    expect(() => parseAscl(ts.replace("! @ABL LINK", "! @ABL NOTE_RANGE_BY_INDEX 0 0\n! @ABL LINK"))).toThrow(/twice/);
    expect(() => parseAscl(ts.replace(/! @ABL REFERENCE_PITCH .*\n/, ""))).toThrow(/REFERENCE_PITCH first/);
    expect(() => parseAscl(ts.replace("! @ABL LINK", "! @ABL KEYS 1\n! @ABL LINK"))).toThrow(/unknown/);
    expect(() => parseAscl(ts.replace("!\n ", "! @ABL SOURCE x\n!\n "))).toThrow(/before the pitch list/);
  });
});

describe("answers", () => {
  it.each([
    ["/exports/tuning-systems/ibnsina_1037/yegah.syx", "application/octet-stream"],
    ["/exports/pitch-class-sets/ibnsina_1037/yegah/maqam_rast_set-octave-2-byte.syx", "application/octet-stream"],
    ["/exports/ajnas/jins_rast/ibnsina_1037/yegah.ascl", "text/plain; charset=us-ascii"],
  ])("%s: %s with a download name, the same bytes from a file as computed", async (path, type) => {
    const computed = await handleRequest(new Request(`http://localhost:3000/api${path}`), { catalog, baseUrl: "http://localhost:3000" });
    expect(computed.headers.get("content-type")).toBe(type);
    expect(computed.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9_-]+\.(syx|ascl)"$/);
    const bytes = new Uint8Array(await computed.arrayBuffer());
    const file = staticFileOf(path, new URLSearchParams())!;
    expect(file).toBe(path.slice(1));
    const fromFile = await handleRequest(new Request(`http://localhost:3000/api${path}`), {
      catalog,
      baseUrl: "http://localhost:3000",
      assets: async (f) => (f === file ? { body: bytes } : undefined),
    });
    expect(fromFile.headers.get("x-answer-source")).toBe("static");
    expect(fromFile.headers.get("content-type")).toBe(type);
    expect(new Uint8Array(await fromFile.arrayBuffer())).toEqual(bytes);
    expect((await answerApi(path, new URLSearchParams(), { catalog, baseUrl: "http://localhost:3000" })).body).toEqual(bytes);
  });

  it("refuse a descending file where the descending scale is the ascending one", () => {
    expectError(ask("/exports/maqamat/maqam_bayyat/ibnsina_1037/yegah-descending.syx"), 404);
    expectError(ask("/exports/maqamat/maqam_bayyat/ibnsina_1037/yegah-descending.ascl"), 404);
  });
});
