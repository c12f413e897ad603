/**
 * The Ableton Live tunings (.ascl) and MIDI Tuning Standard files (.syx) in detail: worked
 * examples against the MMA's own examples of frequency words and against recorded answers,
 * a rendering's dumps by note name (within and past its octave, both directions, as its .tun),
 * the answers' content types and bytes from a file and computed, the 404 of a scale/octave form
 * too narrow for a set, and the strict readers refusing what the formats do not allow. Every
 * exported file is read in the sweeps of exports-tuning-systems, -maqamat and -ajnas.
 */
import { describe, expect, it } from "vitest";
import { ask, expectError } from "./support/api.js";
import { catalog } from "./support/catalog.js";
import { abletonArguments, abletonKeyCents, parseAscl } from "./support/abletonFiles.js";
import { MTS_HALF_STEP, parseBulkDump, parseScaleOctave } from "./support/mtsFiles.js";
import { parseTun } from "./support/tuningFiles.js";
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

  it("tunes maqām rast in Ibn Sina from yegah on the keys of its note names, as its .tun: rast C3 on 48, segah on the E key, black keys 12-TET", () => {
    const dump = parseBulkDump(bytesOf("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.syx"));
    expect(dump.name).toBe("rast            ");
    const rast = centsOf(130.6653333333333);
    // rast C3, dugah D3 (9/8), segah E-b3 (39/32), chahargah F3 (4/3), nawa G3 (3/2), husayni A3 (27/16), awj B-b3 (117/64).
    const degrees: [number, number][] = [
      [48, 1],
      [50, 9 / 8],
      [52, 39 / 32],
      [53, 4 / 3],
      [55, 3 / 2],
      [57, 27 / 16],
      [59, 117 / 64],
    ];
    for (const [key, ratio] of degrees)
      for (const octaves of [-3, -1, 0, 1, 5]) {
        const want = rast + 1200 * Math.log2(ratio) + 1200 * octaves;
        expect(Math.abs(dump.keys[key + 12 * octaves]! - want), `key ${key + 12 * octaves}`).toBeLessThanOrEqual(MTS_HALF_STEP);
      }
    // The words as written: rast 2F 7D 40 (47 + 16064/16384 semitones), segah 33 33 70 on the E key (59.47 cents below E3), awj 3A 36 31.
    expect(hex(bytesOf("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.syx").subarray(22 + 3 * 48, 25 + 3 * 48))).toBe("2f7d40");
    expect([dump.keys[48], dump.keys[52], dump.keys[59]]).toEqual([100 * (47 + 16064 / 16384), 100 * (51 + 6640 / 16384), 100 * (58 + 6961 / 16384)]);
    // The black keys no degree takes: 12-TET, as the .tun gives them; nawa (3/2 of rast) falls on G at 0.00003 cents from it.
    for (const key of [1, 49, 51, 54, 56, 58, 126]) expect(dump.keys[key], `key ${key}`).toBe(100 * key);
    expect(Math.abs(dump.keys[127]! - (rast + 1200 * Math.log2(3 / 2) + 7200))).toBeLessThanOrEqual(MTS_HALF_STEP);
    // Key 0 is rast four octaves down, 1.95 cents below MIDI note 0: beyond a frequency word, "no change" (the .tun writes -1.95).
    expect(dump.keys[0]).toBeUndefined();
    expect(parseTun(ask("/exports/maqamat/maqam_rast/ibnsina_1037/yegah.tun").body as string).exact[0]).toBeCloseTo(rast - 4800, 6);
    // Coming down, ajam (Bb3, 16/9 of rast) takes the Bb key and B stays 12-TET.
    const down = parseBulkDump(bytesOf("/exports/maqamat/maqam_rast/ibnsina_1037/yegah-descending.syx"));
    expect(down.name).toBe("rast desc       ");
    expect(Math.abs(down.keys[58]! - (rast + 1200 * Math.log2(16 / 9)))).toBeLessThanOrEqual(MTS_HALF_STEP);
    expect([down.keys[59], down.keys[52]]).toEqual([5900, dump.keys[52]]);
  });

  it("tunes maqām suznak from rast in Ronzevalle past its octave: keys 48 … 63 by note name, as its .tun, both directions, every other key 12-TET", () => {
    const base = "/exports/maqamat/maqam_suznak/ronzevalle_1904/ushayran";
    const up = parseBulkDump(bytesOf(`${base}.syx`));
    const tun = parseTun(ask(`${base}.tun`).body as string);
    // rast C3, dugah D3, segah E-b3, chahargah F3, nawa G3, hisar Ab3, nim mahur B-3, kurdan C4, muhayyar D4, sunbuleh Eb4 (the API's midiNoteDecimal).
    const keys = [48, 50, 52, 53, 55, 56, 59, 60, 62, 63];
    const midi = [47.9955804, 50.0061169, 51.500816, 52.9989152, 55.0036994, 56.0003048, 58.9958732, 59.9955804, 62.0061169, 62.9971738];
    for (const [d, key] of keys.entries()) expect(Math.abs(up.keys[key]! - 100 * midi[d]), `key ${key}`).toBeLessThanOrEqual(MTS_HALF_STEP + 1e-5);
    // Only those keys differ from 12-TET: not repeated an octave down (key 36) or above the highest note (key 64, E4).
    expect(up.keys.flatMap((c, key) => (c === 100 * key ? [] : [key]))).toEqual(keys);
    for (let key = 0; key < 128; key++)
      expect(Math.abs(up.keys[key]! - tun.exact[key]), `key ${key} against the .tun`).toBeLessThanOrEqual(MTS_HALF_STEP + 1e-6);
    // Coming down from buzurk (E-b4 on the E key, 64) through ajam (Bb3, 58) and husayni (A3, 57, exactly 5700 cents).
    const down = parseBulkDump(bytesOf(`${base}-descending.syx`));
    expect(down.keys.flatMap((c, key) => (c === 100 * key ? [] : [key]))).toEqual([48, 50, 52, 53, 55, 58, 60, 62, 64]);
    expect(Math.abs(down.keys[64]! - 6350.0816002)).toBeLessThanOrEqual(MTS_HALF_STEP + 1e-5);
    expect(Math.abs(down.keys[58]! - 5799.4638536)).toBeLessThanOrEqual(MTS_HALF_STEP + 1e-5);
    expect([down.keys[57], down.keys[63], down.keys[65]]).toEqual([5700, 6300, 6500]);
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
    const listed = [...setFiles(catalog, { full: false }, "ronzevalle_1904")];
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
    ["/exports/maqamat/maqam_rast/ibnsina_1037/yegah.syx", "application/octet-stream"],
    ["/exports/maqamat/maqam_suznak/ronzevalle_1904/ushayran-descending.syx", "application/octet-stream"],
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
