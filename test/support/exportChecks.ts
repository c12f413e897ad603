/**
 * Checks of the export files against the API's own JSON answers for the same tuning system,
 * starting note and entity: every file is read with the strict readers of tuningFiles.ts, each
 * pitch must lie within 1e-6 cents of the API's cents, and every key that sounds one of the
 * API's pitch classes must sound its `midiNoteDecimal` and `frequency`. Checks collect the
 * problems they find (an assertion per value would make the sweep over every file slow).
 */
import { describe, expect, it } from "vitest";
import { ask } from "./api.js";
import { catalog } from "./catalog.js";
import { parseKbm, parseScl, parseTun, keyCentsOf, type Kbm, type Scl, type Tun } from "./tuningFiles.js";
import { downloadNameOf } from "../../src/api/staticPath.js";
import { ascii } from "../../src/exports/ascii.js";
import { sourcesText } from "../../src/exports/files.js";
import { checkAscl, readDump } from "./instrumentChecks.js";
import { dumpKeyProblems, MTS_HALF_STEP, type BulkDump } from "./mtsFiles.js";

export const CENTS = 1e-6;

/** Problems found by a check, as messages. */
export type Problems = string[];

/** An API pitch class, as the JSON answers give one. */
export interface ApiPitch {
  cents: number;
  frequency: number;
  midiNoteDecimal: number;
  /** The 12-tone key the pitch class is named after (`C`, `F#`, `Bb`). */
  key: string;
  relativeCents?: number;
}

const CHROMA: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** The key of a pitch class on a keyboard: the MIDI note of its 12-tone name nearest to its pitch. */
export function keyOfPitch({ key, midiNoteDecimal }: ApiPitch): number {
  const chroma = (CHROMA[key[0]] + (key[1] === "#" ? 1 : key[1] === "b" ? -1 : 0) + 12) % 12;
  return chroma + 12 * Math.round((midiNoteDecimal - chroma) / 12);
}

/** Cents above MIDI note 0 of a frequency, the way the API derives `midiNoteDecimal`. */
const centsOfFrequency = (hz: number): number => 6900 + 1200 * Math.log2(hz / 440);

/** An export's text: a 200 file answer named after its path (a problem otherwise, and empty text). */
export function fetchText(path: string, problems: Problems): string {
  const r = ask(path) as { status: number; body: unknown; file?: { name: string } };
  if (r.status !== 200 || typeof r.body !== "string") problems.push(`${path}: status ${r.status}`);
  else if (r.file?.name !== downloadNameOf(path)) problems.push(`${path}: download name ${r.file?.name}`);
  return typeof r.body === "string" ? r.body : "";
}

/** Reads a file strictly; a parse error is a problem. */
export function read<T>(parse: (text: string) => T, path: string, problems: Problems): T | undefined {
  try {
    return parse(fetchText(path, problems));
  } catch (e) {
    problems.push(`${path}: ${(e as Error).message}`);
    return undefined;
  }
}

/** The header names the archive, the tuning system with its source and page, and the file's own URL. */
export function checkHeader(comments: readonly string[], path: string, tuningSystemId: string, problems: Problems) {
  const ts = catalog.findTuningSystem(tuningSystemId)!;
  const text = comments.join("\n");
  const wanted = [
    "Arabic Maqam Archive: ",
    `Tuning system: ${ascii(ts.displayName)} (${ts.id})`,
    `Tuning system source: ${ascii(sourcesText(catalog, ts.record.sourcePageReferences))}`,
    ...ts.record.sourcePageReferences.map(({ page }) => `p. ${page}`),
    `From http://localhost:3000/api${path}`,
  ];
  for (const w of wanted) if (!text.includes(w)) problems.push(`${path}: header lacks '${w}'`);
}

/** Every scale pitch equals the API's cents above degree 0 (the last one repeating the scale). */
export function checkPitches(scl: Scl, expected: readonly number[], path: string, ratios: boolean, problems: Problems) {
  if (scl.pitches.length !== expected.length) return void problems.push(`${path}: ${scl.pitches.length} pitches, want ${expected.length}`);
  scl.pitches.forEach((p, i) => {
    if (!(Math.abs(p.cents - expected[i]) < CENTS)) problems.push(`${path} degree ${i + 1}: ${p.text} is not ${expected[i]} cents`);
    // Exact ratios where the tuning system is defined by them (cents only for a ratio too large), else cents with a point.
    const form = ratios ? p.ratio !== undefined || p.text.includes(".") : /^-?\d+\.\d+$/.test(p.text);
    if (!form) problems.push(`${path} degree ${i + 1}: '${p.text}' is not written as ${ratios ? "a ratio" : "cents"}`);
  });
}

/** The .kbm puts degree 0 on its key, at the API's frequency, and retunes every key. */
export function checkReference(kbm: Kbm, tonic: ApiPitch, path: string, problems: Problems) {
  const key = keyOfPitch(tonic);
  if (kbm.middleKey !== key || kbm.referenceKey !== key) problems.push(`${path}: degree 0 on key ${kbm.middleKey}/${kbm.referenceKey}, want ${key}`);
  if (kbm.referenceFrequency !== tonic.frequency) problems.push(`${path}: reference ${kbm.referenceFrequency} Hz, want ${tonic.frequency}`);
  if (kbm.firstKey !== 0 || kbm.lastKey !== 127) problems.push(`${path}: retunes ${kbm.firstKey}…${kbm.lastKey}`);
}

/**
 * A key sounds the API's pitch: its cents above MIDI note 0 are 100 × `midiNoteDecimal` and its
 * frequency the API's frequency, both within 1e-6 cents; `offset` (cents) allows a known shift.
 */
export function checkKey(cents: number | undefined, pc: ApiPitch, what: string, problems: Problems, offset = 0) {
  if (cents === undefined) return void problems.push(`${what}: unmapped`);
  if (!(Math.abs(cents - offset - 100 * pc.midiNoteDecimal) < CENTS)) problems.push(`${what}: ${cents} cents, want MIDI ${pc.midiNoteDecimal}`);
  if (!(Math.abs(cents - offset - centsOfFrequency(pc.frequency)) < CENTS)) problems.push(`${what}: ${cents} cents, want ${pc.frequency} Hz`);
}

/** The .tun gives every key what the .scl with the .kbm gives it, the [Tuning] section rounded. */
export function checkTun(tun: Tun, scl: Scl, kbm: Kbm, path: string, problems: Problems) {
  if (tun.baseFrequency !== 440 * 2 ** (-69 / 12)) problems.push(`${path}: base frequency ${tun.baseFrequency}`);
  for (let key = 0; key < 128; key++) {
    const cents = keyCentsOf(scl, kbm, key) ?? 100 * key;
    if (!(Math.abs(tun.exact[key] - cents) < CENTS)) problems.push(`${path} key ${key}: ${tun.exact[key]}, the .scl with the .kbm give ${cents}`);
    if (tun.tuning[key] !== Math.round(tun.exact[key]) + 0) problems.push(`${path} key ${key}: [Tuning] ${tun.tuning[key]}`);
  }
}

const ENTITY_FILE = /^\/exports\/(maqamat|ajnas)\/(.+)\/([^/]+)\/([^/]+?)(-descending\.scl|-names\.kbm|\.scl|\.kbm|\.tun)$/;

export interface Rendering {
  collection: "maqamat" | "ajnas";
  idName: string;
  tuningSystem: string;
  startingNote: string;
  files: string[];
}

/** The maqām or jins renderings of a list of export paths, each with its files. */
export function renderingsOf(paths: readonly string[]): Rendering[] {
  const byKey = new Map<string, Rendering>();
  for (const path of paths) {
    const m = ENTITY_FILE.exec(path);
    if (!m) continue;
    const [, collection, idName, tuningSystem, startingNote] = m;
    const key = `${collection}/${idName}/${tuningSystem}/${startingNote}`;
    const r = byKey.get(key) ?? { collection: collection as Rendering["collection"], idName, tuningSystem, startingNote, files: [] };
    r.files.push(path);
    byKey.set(key, r);
  }
  return [...byKey.values()];
}

interface ApiCell extends ApiPitch {
  noteName: string;
  octave: number;
  englishName: string;
}

/**
 * The key a cell's pitch names: its English name's letter and accidental (`A2` → A, `Eb3` → Eb,
 * `E-b3` → E) when that key is within 0.75 semitone of the pitch, else the nearest key's name.
 */
function keyNameOf({ englishName, midiNoteDecimal }: ApiCell): string {
  const named = /^[A-G][b#]?/.exec(englishName)?.[0] ?? "C";
  const key = keyOfPitch({ key: named, midiNoteDecimal } as ApiPitch);
  if (Math.abs(key - midiNoteDecimal) <= 0.75) return named;
  return ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"][((Math.round(midiNoteDecimal) % 12) + 12) % 12];
}

const withKey = (cells: ApiCell[]): ApiCell[] => cells.map((c) => ({ ...c, key: keyNameOf(c) }));

/** Cents above degree 0 of a direction's cells, with the octave added when they stay within it. */
function scaleCents(cells: readonly ApiCell[]): number[] {
  const above = cells.slice(1).map((c) => c.cents - cells[0].cents);
  return above.length && above[above.length - 1] >= 1200 ? above : [...above, 1200];
}

/**
 * A maqām or jins rendering's files against its detail answer: the ascending scale (and the
 * descending one, present exactly when it differs), the .kbm on the tonic's key, and each cell
 * of the rendering on consecutive keys from the tonic at the API's pitch; the .ascl of each
 * direction the same (instrumentChecks.ts); the .syx of each direction by note name, as the .tun.
 */
export function checkRendering(r: Rendering, ratios: boolean, problems: Problems) {
  const base = `/exports/${r.collection}/${r.idName}/${r.tuningSystem}/${r.startingNote}`;
  const detail = ask(`/${r.collection}/${r.idName}`, `pitchClassDataType=all&startingNote=${r.startingNote}&tuningSystem=${r.tuningSystem}`);
  if (detail.status !== 200) return void problems.push(`${base}: detail answers ${detail.status}`);
  const maqam = r.collection === "maqamat";
  const ascending = withKey(maqam ? detail.body.pitchData.ascending : detail.body.pitchData);
  const descending = maqam ? withKey([...detail.body.pitchData.descending].reverse()) : [];
  const same = (a: ApiCell, b: ApiCell) => a.noteName === b.noteName && a.octave === b.octave;
  const differs = maqam && (descending.length !== ascending.length || descending.some((c, i) => !same(c, ascending[i])));
  const files = [`${base}.kbm`, `${base}.scl`, `${base}-names.kbm`, `${base}.tun`, ...(differs ? [`${base}-descending.scl`] : [])].sort();
  if (JSON.stringify([...r.files].sort()) !== JSON.stringify(files)) problems.push(`${base}: files ${r.files.join(", ")}, want ${files.join(", ")}`);
  const kbm = read(parseKbm, `${base}.kbm`, problems);
  if (!kbm) return;
  checkHeader(kbm.comments, `${base}.kbm`, r.tuningSystem, problems);
  checkReference(kbm, ascending[0], `${base}.kbm`, problems);
  // docs/exports.md: degree 0 within 0.75 semitone of its key (a set's keys follow the set's names instead).
  if (!(Math.abs(kbm.middleKey - ascending[0].midiNoteDecimal) <= 0.75))
    problems.push(`${base}.kbm: degree 0 (MIDI ${ascending[0].midiNoteDecimal}) on key ${kbm.middleKey}, off its pitch`);
  // An explicit linear map: one key per degree, repeating at the scale's last degree.
  const degrees = scaleCents(ascending).length;
  if (kbm.size !== degrees || kbm.octaveDegree !== degrees || kbm.mapping.some((d, i) => d !== i))
    problems.push(`${base}.kbm: not an explicit linear map of ${degrees} keys`);
  for (const [suffix, cells] of [[".scl", ascending], ...(differs ? [["-descending.scl", descending] as const] : [])] as const) {
    const path = `${base}${suffix}`;
    const scl = read(parseScl, path, problems);
    if (!scl) continue;
    checkHeader(scl.comments, path, r.tuningSystem, problems);
    if (!scl.comments.some((c) => c.startsWith(maqam ? "Maqam source: " : "Jins source: ")))
      problems.push(`${path}: no source line of the ${maqam ? "maqam" : "jins"}`);
    checkPitches(scl, scaleCents(cells), path, ratios, problems);
    cells.forEach((cell, j) => {
      checkKey(keyCentsOf(scl, kbm, kbm.middleKey + j), cell, `${path} with .kbm, degree ${j}`, problems);
    });
    // The same scale as an Ableton Live tuning, on the same keys.
    const keyed = cells.map((pc, j) => ({ key: kbm.middleKey + j, pc })).filter(({ key }) => key <= 127);
    checkAscl(path.replace(/\.scl$/, ""), scl, kbm, keyed, problems);
    if (suffix === ".scl") checkByNoteName(base, r.tuningSystem, scl, ascending, problems);
    else checkDescendingDump(`${base}-descending.syx`, cells, problems);
  }
}

/**
 * The named key of each cell (keyNameOf), on the keyboard nearest its pitch. Two cells whose
 * names give one key, or a name out of order, leave one of them a key away (docs/exports.md).
 */
const namedKeys = (cells: readonly ApiCell[]): number[] => cells.map(keyOfPitch);

/** Degrees the note-name mappings put a key away from their names' key (every such move is checked to be forced). */
export const movedDegrees = { count: 0, degrees: 0 };

/** A scale within its octave repeats every twelve keys by note name; one past it is mapped once. */
const isWithinOctave = (cells: readonly ApiCell[]): boolean => scaleCents(cells).length === cells.length;

/**
 * Degrees in order on the keys by note name (`keyOfDegree`, degree 0 on its name's key): each on
 * its name's key or, where that key is another degree's or out of order with a neighbour's, one
 * key away (docs/exports.md). Returns how many sit a key away.
 */
function checkNamedKeys(keyOfDegree: readonly number[], cells: readonly ApiCell[], path: string, problems: Problems): number {
  const named = namedKeys(cells);
  const tonicKey = named[0];
  if (keyOfDegree[0] !== tonicKey || keyOfDegree.some((k, j) => j > 0 && k <= keyOfDegree[j - 1]))
    problems.push(`${path}: degrees 0…${cells.length - 1} not in order from key ${tonicKey} (${keyOfDegree.join(" ")})`);
  let moved = 0;
  keyOfDegree.forEach((key, j) => {
    if (key === named[j]) return;
    moved++;
    // Forced: its name's key is another degree's (in the file or by name), or out of order with a neighbour's.
    const upper = named[j + 1] ?? (isWithinOctave(cells) ? tonicKey + 12 : Infinity);
    const forced = (j > 0 && named[j] <= named[j - 1]) || named[j] >= upper || keyOfDegree.includes(named[j]);
    if (Math.abs(key - named[j]) !== 1 || !forced) problems.push(`${path}: degree ${j} (${cells[j].englishName}) on key ${key}, its name's key is ${named[j]}`);
  });
  return moved;
}

/**
 * What each MIDI key sounds by note name: degree j on `keyOfDegree[j]` at the API's pitch and,
 * within the octave, every twelve keys an octave higher or lower; past its octave only those keys
 * (the tonic to the highest note). Every other key sounds 12-TET, as the .tun gives it.
 */
function noteNameKeyCents(cells: readonly ApiCell[], keyOfDegree: readonly number[]): number[] {
  const withinOctave = isWithinOctave(cells);
  return Array.from({ length: 128 }, (_, key) => {
    const octaves = withinOctave ? Math.floor((key - keyOfDegree[0]) / 12) : 0;
    const degree = keyOfDegree.indexOf(key - 12 * octaves);
    return degree < 0 ? 100 * key : 100 * cells[degree].midiNoteDecimal + 1200 * octaves;
  });
}

/**
 * The keys a dump gives the degrees: each degree's name's key, else the key beside it that sounds
 * the degree's pitch (an octave's keys lower where the name's key is above MIDI's range).
 */
function dumpKeysOfDegrees(dump: BulkDump, cells: readonly ApiCell[]): number[] {
  const withinOctave = isWithinOctave(cells);
  return namedKeys(cells).map((named, j) => {
    const sounds = (key: number) => {
      const octaves = withinOctave && key > 127 ? Math.ceil((key - 127) / 12) : 0;
      const cents = dump.keys[key - 12 * octaves];
      return cents !== undefined && Math.abs(cents + 1200 * octaves - 100 * cells[j].midiNoteDecimal) <= MTS_HALF_STEP + 1e-9;
    };
    return [named, named - 1, named + 1].find(sounds) ?? named;
  });
}

/** A descending dump by note name: its degrees on their names' keys, every key at its pitch by them, the rest 12-TET. */
function checkDescendingDump(path: string, cells: readonly ApiCell[], problems: Problems) {
  const dump = readDump(path, problems);
  if (!dump) return;
  const keyOfDegree = dumpKeysOfDegrees(dump, cells);
  checkNamedKeys(keyOfDegree, cells, path, problems);
  problems.push(...dumpKeyProblems(dump, noteNameKeyCents(cells, keyOfDegree), path));
}

/**
 * The ascending scale by note name: the -names.kbm puts degree 0 on the tonic's key and each
 * degree on the key of its name (a key away only where two names share one or a name is out of
 * order), twelve keys to the octave with every other key unmapped (a rendering past its octave:
 * whole octaves, only its own keys retuned); every degree's key sounds the API's pitch with the
 * .scl; the .tun tunes every key as the .scl with the -names.kbm does, and the .syx every key as
 * the -names.kbm maps it (within half its step of the API's pitch, the others 12-TET, as the .tun).
 */
function checkByNoteName(base: string, tuningSystem: string, scl: Scl, cells: readonly ApiCell[], problems: Problems) {
  const path = `${base}-names.kbm`;
  const names = read(parseKbm, path, problems);
  if (!names) return;
  checkHeader(names.comments, path, tuningSystem, problems);
  const withinOctave = isWithinOctave(cells);
  const tonicKey = namedKeys(cells)[0];
  if (names.middleKey !== tonicKey || names.referenceKey !== tonicKey) problems.push(`${path}: degree 0 on key ${names.middleKey}, want ${tonicKey}`);
  if (names.referenceFrequency !== cells[0].frequency) problems.push(`${path}: reference ${names.referenceFrequency} Hz, want ${cells[0].frequency}`);
  if (names.octaveDegree !== scl.pitches.length) problems.push(`${path}: formal octave degree ${names.octaveDegree}, want ${scl.pitches.length}`);
  if (names.size === 0 || names.size % 12 !== 0 || (withinOctave && names.size !== 12)) problems.push(`${path}: map size ${names.size}`);
  const keyOfDegree = cells.map((_, j) => names.middleKey + names.mapping.indexOf(j));
  const mappedCount = names.mapping.filter((d) => d !== null).length;
  if (mappedCount !== cells.length || keyOfDegree.some((k) => k < names.middleKey))
    return void problems.push(`${path}: degrees 0…${cells.length - 1} not each on one key (${names.mapping.join(" ")})`);
  const top = keyOfDegree[keyOfDegree.length - 1];
  const range = withinOctave ? [0, 127] : [tonicKey, top];
  if (names.firstKey !== range[0] || names.lastKey !== range[1]) problems.push(`${path}: retunes ${names.firstKey}…${names.lastKey}, want ${range.join("…")}`);
  movedDegrees.count += checkNamedKeys(keyOfDegree, cells, path, problems);
  movedDegrees.degrees += cells.length;
  for (const [j, key] of keyOfDegree.entries()) checkKey(keyCentsOf(scl, names, key), cells[j], `${path} with .scl, degree ${j}`, problems);
  const tun = read(parseTun, `${base}.tun`, problems);
  if (tun) {
    checkHeader(tun.comments, `${base}.tun`, tuningSystem, problems);
    checkTun(tun, scl, names, `${base}.tun`, problems);
    for (const [j, key] of keyOfDegree.entries()) checkKey(tun.exact[key], cells[j], `${base}.tun degree ${j}`, problems);
  }
  const dump = readDump(`${base}.syx`, problems);
  if (dump) {
    problems.push(...dumpKeyProblems(dump, noteNameKeyCents(cells, keyOfDegree), `${base}.syx`));
    // The .tun's keys, one by one (its six decimals aside).
    if (tun) problems.push(...dumpKeyProblems(dump, tun.exact, `${base}.syx against the .tun`, 1e-6));
  }
}

/** Every pre-rendered rendering of one kind, checked tuning system by tuning system. */
export function renderingSuite(kind: "maqam" | "jins", listed: readonly string[], atLeast: number) {
  const renderings = renderingsOf(listed);
  describe(`${kind} exports`, () => {
    it(`cover every pre-rendered ${kind} detail`, () => expect(renderings.length).toBeGreaterThan(atLeast));
    // One test per tuning system and starting note: short enough for the test runner to report between them.
    const contexts = catalog.tuningSystems.flatMap((ts) =>
      [...new Set(renderings.filter((x) => x.tuningSystem === ts.id).map((x) => x.startingNote))].map((note) => [`${ts.id}/${note}`, ts, note] as const),
    );
    it.each(contexts)("%s: every rendering", async (_, ts, note) => {
      const problems: Problems = [];
      for (const r of renderings.filter((x) => x.tuningSystem === ts.id && x.startingNote === note)) {
        checkRendering(r, ts.valueType === "fraction", problems);
        // A turn of the event loop after each rendering: on a loaded machine one context can outlast the runner's 60 s wait for its replies (eventLoopTurn.ts).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      expect(problems.slice(0, 10)).toEqual([]);
    });
  });
}

export { parseKbm, parseScl, parseTun, keyCentsOf };
export type { Kbm, Scl, Tun };
