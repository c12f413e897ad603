/**
 * Checks of the Ableton Live tunings (.ascl) and MIDI Tuning Standard dumps (.syx) against the
 * Scala files of the same scale (which the other export checks hold to the API within 1e-6
 * cents) and directly against the API's pitches: every key within 0.01 cents (the dump rounds
 * to steps of 100/16384 cents, so within half a step), each file read by the strict readers.
 * A rendering's dumps follow its note names instead, and exportChecks.ts checks them against those.
 */
import { ask } from "./api.js";
import { abletonKeyCents, parseAscl } from "./abletonFiles.js";
import { dumpKeyProblems, parseBulkDump, parseScaleOctave, type BulkDump } from "./mtsFiles.js";
import { keyCentsOf, type Kbm, type Scl } from "./tuningFiles.js";
import type { ApiPitch, Problems } from "./exportChecks.js";
import { downloadNameOf } from "../../src/api/staticPath.js";

/** How far an exported pitch may lie from the API's (the acceptance's 0.01 cents). */
export const INSTRUMENT_CENTS = 0.01;

/** A file's body as the route answers it, with its download name and content type checked. */
export function fetchFile(path: string, type: string, problems: Problems): string | Uint8Array | undefined {
  const r = ask(path) as { status: number; body: unknown; file?: { name: string; type: string } };
  if (r.status !== 200) return void problems.push(`${path}: status ${r.status}`);
  if (r.file?.name !== downloadNameOf(path) || r.file.type !== type) problems.push(`${path}: file ${JSON.stringify(r.file)}`);
  return r.body as string | Uint8Array;
}

function readWith<T>(parse: (body: never) => T, path: string, type: string, problems: Problems): T | undefined {
  const body = fetchFile(path, type, problems);
  if (body === undefined) return undefined;
  try {
    return parse(body as never);
  } catch (e) {
    problems.push(`${path}: ${(e as Error).message}`);
    return undefined;
  }
}

const centsOfFrequency = (hz: number): number => 6900 + 1200 * Math.log2(hz / 440);

/** A key's pitch against the API's pitch class: its MIDI value and its frequency, within `tolerance`. */
function checkApiKey(cents: number | undefined, pc: ApiPitch, tolerance: number, what: string, problems: Problems, offset = 0) {
  if (cents === undefined) return void problems.push(`${what}: no pitch`);
  if (!(Math.abs(cents - offset - 100 * pc.midiNoteDecimal) <= tolerance)) problems.push(`${what}: ${cents} cents, want MIDI ${pc.midiNoteDecimal}`);
  if (!(Math.abs(cents - offset - centsOfFrequency(pc.frequency)) <= tolerance)) problems.push(`${what}: ${cents} cents, want ${pc.frequency} Hz`);
}

/** A key the API names a pitch for, and a known shift of it (a set's keys from al-Kindi's tuning). */
export interface KeyedPitch {
  key: number;
  pc: ApiPitch;
  offset?: number;
}

/**
 * The .ascl beside a .scl (`path` without extension, `-descending` included): it holds the
 * .scl's pitches, one name per note, the .kbm's reference frequency and its own URL, lays every
 * key where the .scl with the .kbm does, and puts the API's pitches on their keys.
 */
export function checkAscl(path: string, scl: Scl, kbm: Kbm, api: readonly KeyedPitch[], problems: Problems) {
  const ascl = readWith(parseAscl, `${path}.ascl`, "text/plain; charset=us-ascii", problems);
  if (!ascl) return;
  if (ascl.scl.pitches.map((p) => p.text).join(" ") !== scl.pitches.map((p) => p.text).join(" ")) problems.push(`${path}.ascl: not the .scl's pitches`);
  if (ascl.scl.comments[0] !== downloadNameOf(`${path}.ascl`)) problems.push(`${path}.ascl: first comment '${ascl.scl.comments[0]}' is not its file name`);
  if (ascl.noteNames?.length !== scl.pitches.length || ascl.noteNames.some((n) => n === "")) problems.push(`${path}.ascl: note names ${ascl.noteNames}`);
  if (ascl.reference?.frequency !== kbm.referenceFrequency) problems.push(`${path}.ascl: reference ${ascl.reference?.frequency} Hz`);
  if (ascl.link !== `http://localhost:3000/api${path}.ascl`) problems.push(`${path}.ascl: link ${ascl.link}`);
  if (!ascl.source) problems.push(`${path}.ascl: no source`);
  for (let key = 0; key < 128; key++) {
    const want = keyCentsOf(scl, kbm, key);
    const cents = abletonKeyCents(ascl, key);
    if (want !== undefined && !(cents !== undefined && Math.abs(cents - want) < 1e-6))
      problems.push(`${path}.ascl key ${key}: ${cents}, the .scl with the .kbm give ${want}`);
  }
  for (const { key, pc, offset } of api) checkApiKey(abletonKeyCents(ascl, key), pc, INSTRUMENT_CENTS, `${path}.ascl key ${key}`, problems, offset);
}

/** The bulk dump at `path` (with its extension), read strictly: tuning program 0 for every device, and a name. */
export function readDump(path: string, problems: Problems): BulkDump | undefined {
  const dump = readWith(parseBulkDump, path, "application/octet-stream", problems);
  if (dump && (dump.device !== 0x7f || dump.program !== 0 || dump.name.trim() === ""))
    problems.push(`${path}: device ${dump.device}, program ${dump.program}, name '${dump.name}'`);
  return dump;
}

/**
 * The .ascl and .syx of a tuning system or a set (`path` without extension): the dump tunes every
 * key as the .scl with the .kbm do (12-TET where they leave a key unmapped) and puts the API's
 * pitches on their keys.
 */
export function checkInstrumentFiles(path: string, scl: Scl, kbm: Kbm, api: readonly KeyedPitch[], problems: Problems) {
  checkAscl(path, scl, kbm, api, problems);
  const dump = readDump(`${path}.syx`, problems);
  if (!dump) return;
  const want = Array.from({ length: 128 }, (_, key) => keyCentsOf(scl, kbm, key) ?? 100 * key);
  // What the Scala files' cents (six decimals) may add per repetition of the scale below or above degree 0.
  problems.push(...dumpKeyProblems(dump, want, `${path}.syx`, 1e-5));
  for (const { key, pc, offset } of api) {
    const inRange = pc.midiNoteDecimal >= 0 && pc.midiNoteDecimal <= 127.99;
    if (inRange) checkApiKey(dump.keys[key], pc, INSTRUMENT_CENTS, `${path}.syx key ${key}`, problems, offset);
  }
}

/** The scale/octave messages of a set: each offset from 12-TET what the set's keys sound (the 1-byte form to the whole cent). */
export function checkScaleOctave(path: string, scl: Scl, kbm: Kbm, forms: readonly (1 | 2)[], problems: Problems) {
  const offsets = Array.from({ length: 12 }, (_, chroma) => {
    const key = kbm.middleKey + ((((chroma - kbm.middleKey) % 12) + 12) % 12);
    return keyCentsOf(scl, kbm, key)! - 100 * key;
  });
  for (const form of [1, 2] as const) {
    const file = `${path}-octave-${form}-byte.syx`;
    if (!forms.includes(form)) {
      if (ask(file).status !== 404) problems.push(`${file}: offered though the form cannot hold ${offsets.map((c) => c.toFixed(2))}`);
      continue;
    }
    const message = readWith(parseScaleOctave, file, "application/octet-stream", problems);
    if (!message) continue;
    if (message.form !== form || message.channels.length !== 16 || message.device !== 0x7f)
      problems.push(`${file}: form ${message.form}, channels ${message.channels}`);
    const tolerance = form === 1 ? 0.5 : 100 / 8192 / 2 + 1e-9;
    message.offsets.forEach((c, i) => {
      if (!(Math.abs(c - offsets[i]) <= tolerance)) problems.push(`${file} pitch class ${i}: ${c}, want ${offsets[i]}`);
    });
  }
}
