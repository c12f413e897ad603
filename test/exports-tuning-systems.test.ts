/**
 * Every exported tuning-system file (.scl, .kbm, .tun for each tuning system × starting note)
 * and every 12-pitch-class-set file, read strictly and checked against the API's pitch classes.
 */
import { describe, expect, it } from "vitest";
import { ask } from "./support/api.js";
import { catalog } from "./support/catalog.js";
import { setFiles, tuningSystemFiles } from "../src/api/exports/prerender.js";
import { toIdName } from "../src/theory/idName.js";
import {
  CENTS,
  checkHeader,
  checkKey,
  checkPitches,
  checkReference,
  checkTun,
  keyCentsOf,
  keyOfPitch,
  parseKbm,
  parseScl,
  parseTun,
  read,
  type ApiPitch,
  type Problems,
} from "./support/exportChecks.js";
import { checkInstrumentFiles, checkScaleOctave } from "./support/instrumentChecks.js";
import { FORMATS } from "../src/exports/formats.js";

interface ApiPitchClass extends ApiPitch {
  pitchClassIndex: number;
  octave: number;
}

/** The .scl, .kbm and .tun below a path, read strictly (undefined when one does not read). */
function readAll(base: string, tuningSystem: string, problems: Problems) {
  const scl = read(parseScl, `${base}.scl`, problems);
  const kbm = read(parseKbm, `${base}.kbm`, problems);
  const tun = read(parseTun, `${base}.tun`, problems);
  if (!scl || !kbm || !tun) return undefined;
  for (const [comments, ext] of [
    [scl.comments, "scl"],
    [kbm.comments, "kbm"],
    [tun.comments, "tun"],
  ] as const)
    checkHeader(comments, `${base}.${ext}`, tuningSystem, problems);
  return { scl, kbm, tun };
}

describe("tuning-system exports", () => {
  const listed = [...tuningSystemFiles(catalog)];
  const pairs = catalog.tuningSystems.flatMap((ts) => ts.startingNotes.map((note) => ({ ts, note: toIdName(note) })));

  it("are the files of every tuning system and starting note, one per format", () => {
    expect(listed).toEqual(pairs.flatMap(({ ts, note }) => FORMATS.map((f) => `/exports/tuning-systems/${ts.id}/${note}.${f}`)));
  });

  it.each(pairs.map((p) => [`${p.ts.id}/${p.note}`, p] as const))("%s: one octave, keys at the API's pitches", (_, { ts, note }) => {
    const problems: Problems = [];
    const base = `/exports/tuning-systems/${ts.id}/${note}`;
    const api: ApiPitchClass[] = ask(`/tuning-systems/${ts.id}/${note}/pitch-classes`, "octave=all&pitchClassDataType=all").body.pitchClasses.map(
      (pc: ApiPitchClass & { ipnReferenceNoteName: string }) => ({ ...pc, key: pc.ipnReferenceNoteName }),
    );
    const n = api.filter((pc) => pc.octave === 1).length;
    const at = (octave: number, index: number) => api.find((pc) => pc.octave === octave && pc.pitchClassIndex === index)!;
    const tonic = at(1, 0);
    const files = readAll(base, ts.id, problems);
    expect(problems).toEqual([]);
    const { scl, kbm, tun } = files!;
    // Octave 1 above the starting note, the octave (index 0 of octave 2) last.
    const expected = [...Array.from({ length: n - 1 }, (_, i) => at(1, i + 1).cents), at(2, 0).cents].map((c) => c - tonic.cents);
    checkPitches(scl, expected, `${base}.scl`, ts.valueType === "fraction", problems);
    expect(scl.pitches[n - 1].text).toBe(ts.valueType === "fraction" ? "2/1" : "1200.000000");
    checkReference(kbm, tonic, `${base}.kbm`, problems);
    expect([kbm.size, kbm.octaveDegree, kbm.mapping]).toEqual([n, n, Array.from({ length: n }, (_, i) => i)]);
    // Linear: pitch class (octave o, index i) on the key (o − 1)·n + i above the starting note's.
    const keyed = api.map((pc) => ({ key: keyOfPitch(tonic) + (pc.octave - 1) * n + pc.pitchClassIndex, pc })).filter(({ key }) => key >= 0 && key <= 127);
    for (const { key, pc } of keyed) {
      checkKey(keyCentsOf(scl, kbm, key), pc, `${base}.kbm key ${key}`, problems);
      checkKey(tun.exact[key], pc, `${base}.tun key ${key}`, problems);
    }
    checkInstrumentFiles(base, scl, kbm, keyed, problems);
    checkTun(tun, scl, kbm, `${base}.tun`, problems);
    expect(problems).toEqual([]);
  });
});

describe("12-pitch-class-set exports", () => {
  const listed = [...setFiles(catalog)];
  const contexts = [...new Set(listed.map((p) => p.split("/").slice(3, 5).join("/")))];

  it("cover every tuning system and starting note al-Kindi's tuning also has", () => {
    const alKindi = catalog.findTuningSystem("alkindi_874")!.startingNotes.map(toIdName);
    expect(contexts).toEqual(
      catalog.tuningSystems.flatMap((ts) =>
        ts.startingNotes
          .map(toIdName)
          .filter((n) => alKindi.includes(n))
          .map((n) => `${ts.id}/${n}`),
      ),
    );
  });

  /** How far (cents) al-Kindi's pitch classes, which fill the keys a maqam leaves out, sit from the tuning's own reference frequency. */
  const referenceShift = (tsId: string, note: string) => {
    const frequency = (id: string) =>
      ask(`/tuning-systems/${id}/${note}/pitch-classes`, "octave=1&pitchClassDataType=frequency").body.pitchClasses[0].frequency;
    return 1200 * Math.log2(frequency(tsId) / frequency("alkindi_874"));
  };

  it.each(contexts.map((c) => [c]))("%s: every set on its twelve keys", (context) => {
    const problems: Problems = [];
    const [tsId, note] = context.split("/");
    const sets = ask("/maqamat/classification/12-pitch-class-sets", `pitchClassDataType=all&startingNote=${note}&tuningSystem=${tsId}`).body.sets;
    const here = listed.filter((p) => p.startsWith(`/exports/pitch-class-sets/${context}/`));
    expect(here.filter((p) => !p.includes("-octave-")).length).toBe(FORMATS.length * sets.length);
    const shift = referenceShift(tsId, note);
    for (const set of sets) {
      const base = `/exports/pitch-class-sets/${context}/${set.setIdName}`;
      const files = readAll(base, tsId, problems);
      if (!files) continue;
      const { scl, kbm, tun } = files;
      const pcs: ApiPitch[] = set.pitchClassSet.map((pc: ApiPitch & { ipnReferenceNoteName: string }) => ({ ...pc, key: pc.ipnReferenceNoteName }));
      if (scl.pitches.length !== pcs.length || Math.abs(scl.pitches[pcs.length - 1].cents - 1200) > CENTS)
        problems.push(`${base}.scl: not the set's pitch classes and the octave`);
      checkReference(kbm, pcs[0], `${base}.kbm`, problems);
      if (kbm.size !== 12 || kbm.octaveDegree !== pcs.length) problems.push(`${base}.kbm: not a twelve-key mapping repeating at the octave`);
      const tonicCents = keyCentsOf(scl, kbm, keyOfPitch(pcs[0]))!;
      for (const pc of pcs) {
        // Each pitch class on its key, at the API's cents above the tonic…
        const key = keyOfPitch(pc);
        const cents = keyCentsOf(scl, kbm, key);
        if (cents === undefined || !(Math.abs(cents - tonicCents - pc.relativeCents!) < CENTS))
          problems.push(`${base} key ${key}: ${cents} is not ${pc.relativeCents} above the tonic`);
        // …and at its frequency, or for a key filled from al-Kindi's tuning at the tuning's own reference frequency.
        const offset = cents !== undefined && Math.abs(cents - 100 * pc.midiNoteDecimal) < CENTS ? 0 : shift;
        checkKey(cents, pc, `${base}.kbm key ${key}`, problems, offset);
        checkKey(tun.exact[key], pc, `${base}.tun key ${key}`, problems, offset);
      }
      checkTun(tun, scl, kbm, `${base}.tun`, problems);
      const keyed = pcs.map((pc) => {
        const cents = keyCentsOf(scl, kbm, keyOfPitch(pc));
        return { key: keyOfPitch(pc), pc, offset: cents !== undefined && Math.abs(cents - 100 * pc.midiNoteDecimal) < CENTS ? 0 : shift };
      });
      checkInstrumentFiles(base, scl, kbm, keyed, problems);
      const forms = ([1, 2] as const).filter((form) => here.includes(`${base}-octave-${form}-byte.syx`));
      checkScaleOctave(base, scl, kbm, forms, problems);
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });
});
