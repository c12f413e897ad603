/**
 * Strict readers of the tuning file formats, written from their published descriptions (the
 * Huygens-Fokker pages on the Scala scale and keyboard mapping files, and the AnaMark tuning
 * file specification V2.00), independent of the writers in src/exports. Each throws on
 * anything the format does not allow, and `keyCentsOf` plays a .scl with its .kbm the way
 * Scala defines it.
 */
import type { KeyboardMapping } from "../../src/exports/scala.js";

const MAX_TERM = 2 ** 31 - 1;

function asciiLines(text: string, format: string): string[] {
  if (!/^[\x20-\x7e\n]*$/.test(text)) throw new Error(`${format}: not printable ASCII`);
  if (!text.endsWith("\n")) throw new Error(`${format}: the last line is not terminated`);
  return text.slice(0, -1).split("\n");
}

export interface SclPitch {
  text: string;
  cents: number;
  /** Numerator and denominator when the pitch is a ratio. */
  ratio?: [bigint, bigint];
}

export interface Scl {
  description: string;
  comments: string[];
  pitches: SclPitch[];
}

/** A pitch line: cents when it has a period, else a ratio (`n/d`, or an integer `n` = `n/1`); text after it is ignored. */
function sclPitch(line: string): SclPitch {
  const value = line.trim().split(/[ \t]/)[0];
  if (/^-?\d*\.\d*$/.test(value) && /\d/.test(value)) return { text: value, cents: Number(value) };
  const m = /^(\d+)(?:\/(\d+))?$/.exec(value);
  if (!m) throw new Error(`scl: '${line}' is not a pitch`);
  const [n, d] = [BigInt(m[1]), BigInt(m[2] ?? "1")];
  if (n === 0n || d === 0n || n > BigInt(MAX_TERM) || d > BigInt(MAX_TERM)) throw new Error(`scl: ratio '${value}' out of range`);
  return { text: value, cents: 1200 * Math.log2(Number(n) / Number(d)), ratio: [n, d] };
}

export function parseScl(text: string): Scl {
  const lines = asciiLines(text, "scl");
  const comments = lines.filter((l) => l.startsWith("!")).map((l) => l.slice(1).trim());
  const data = lines.filter((l) => !l.startsWith("!"));
  if (data.length < 2) throw new Error("scl: description and note count missing");
  const [description, countLine, ...rest] = data;
  if (!/^ *\d+ *$/.test(countLine)) throw new Error(`scl: '${countLine}' is not a note count`);
  const count = Number(countLine);
  const pitchLines = rest.slice(0, count);
  if (pitchLines.length !== count) throw new Error(`scl: ${count} pitches announced, ${pitchLines.length} given`);
  if (rest.slice(count).some((l) => l.trim() !== "")) throw new Error("scl: lines after the last pitch");
  return { description, comments, pitches: pitchLines.map(sclPitch) };
}

/** A keyboard mapping as read (entries left out at the end read as unmapped), with its comment lines. */
export type Kbm = KeyboardMapping & { mapping: (number | null)[]; comments: string[] };

const integer = (line: string, what: string, min: number, max: number): number => {
  if (!/^ *-?\d+ *$/.test(line)) throw new Error(`kbm: ${what} '${line}' is not an integer`);
  const n = Number(line);
  if (n < min || n > max) throw new Error(`kbm: ${what} ${n} outside ${min}…${max}`);
  return n;
};

export function parseKbm(text: string): Kbm {
  const lines = asciiLines(text, "kbm");
  const comments = lines.filter((l) => l.startsWith("!")).map((l) => l.slice(1).trim());
  const data = lines.filter((l) => !l.startsWith("!") && l.trim() !== "");
  if (data.length < 7) throw new Error("kbm: fewer than the seven header values");
  const size = integer(data[0], "map size", 0, 1 << 16);
  const firstKey = integer(data[1], "first note", 0, 127);
  const lastKey = integer(data[2], "last note", firstKey, 127);
  const middleKey = integer(data[3], "middle note", 0, 127);
  const referenceKey = integer(data[4], "reference note", 0, 127);
  if (!/^ *\d+(\.\d*)? *$/.test(data[5])) throw new Error(`kbm: frequency '${data[5]}' is not a decimal`);
  const referenceFrequency = Number(data[5]);
  if (!(referenceFrequency > 0)) throw new Error("kbm: frequency must be positive");
  const octaveDegree = integer(data[6], "formal octave degree", 0, 1 << 16);
  const entries = data.slice(7);
  if (entries.length > size) throw new Error(`kbm: ${entries.length} mapping entries for a map of size ${size}`);
  const mapping = entries.map((l) => (l.trim() === "x" ? null : integer(l, "mapping entry", 0, 1 << 16)));
  while (mapping.length < size) mapping.push(null);
  return { size, firstKey, lastKey, middleKey, referenceKey, referenceFrequency, octaveDegree, mapping, comments };
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

/** The degree a key plays, or undefined when it is unmapped or outside the retuned range. */
function degreeOfKey(kbm: Kbm, key: number): number | undefined {
  if (key < kbm.firstKey || key > kbm.lastKey) return undefined;
  if (kbm.size === 0) return key - kbm.middleKey;
  const steps = key - kbm.middleKey;
  const entry = kbm.mapping[mod(steps, kbm.size)];
  return entry === null ? undefined : entry + Math.floor(steps / kbm.size) * kbm.octaveDegree;
}

/** Cents of any degree: within the scale from its pitches, beyond it by whole repetitions of the last pitch. */
function degreeCents(scl: Scl, degree: number, formalOctave: number): number {
  const n = formalOctave;
  const within = mod(degree, n);
  const octave = scl.pitches[n - 1].cents;
  return (within === 0 ? 0 : scl.pitches[within - 1].cents) + Math.floor(degree / n) * octave;
}

/**
 * The pitch of a key, in cents above MIDI note 0 of equal temperament at A = 440 Hz (so 100 ×
 * its MIDI number in decimal), as Scala tunes it: the reference key sounds the reference
 * frequency, every other key its degree's distance from the reference key's degree.
 */
export function keyCentsOf(scl: Scl, kbm: Kbm, key: number): number | undefined {
  const formalOctave = kbm.size === 0 || kbm.octaveDegree === 0 ? scl.pitches.length : kbm.octaveDegree;
  const degree = degreeOfKey(kbm, key);
  const reference = degreeOfKey(kbm, kbm.referenceKey);
  if (reference === undefined) throw new Error("kbm: the reference key has no degree");
  if (degree === undefined) return undefined;
  const referenceCents = 1200 * Math.log2(kbm.referenceFrequency / 440) + 6900;
  return referenceCents + degreeCents(scl, degree, formalOctave) - degreeCents(scl, reference, formalOctave);
}

export interface Tun {
  info: Record<string, string[]>;
  /** [Tuning]: integer cents above 8.1757989156437073336 Hz, notes 0…127. */
  tuning: number[];
  baseFrequency: number;
  /** [Exact Tuning]: cents above the base frequency, notes 0…127. */
  exact: number[];
  comments: string[];
}

const SECTIONS = ["Scale Begin", "Info", "Editor Specifics", "Tuning", "Exact Tuning", "Functional Tuning", "Mapping", "Assignment", "Scale End"];
const STRING = /^"([^"\\]*)"$/;
const FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Reads a V2.00 file: [Scale Begin] with the format declaration first, [Scale End] last, every note of both tuning sections. */
export function parseTun(text: string): Tun {
  const lines = asciiLines(text, "tun").map((l) => l.trim());
  const comments = lines.filter((l) => l.startsWith(";")).map((l) => l.slice(1).trim());
  const data = lines.filter((l) => l !== "" && !l.startsWith(";"));
  let section = "";
  const seen: string[] = [];
  const values = new Map<string, Map<string, string[]>>();
  for (const line of data) {
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      if (seen.includes("Scale End")) throw new Error("tun: data after [Scale End]");
      section = header[1];
      if (!SECTIONS.includes(section)) throw new Error(`tun: unknown section [${section}]`);
      if (seen.includes(section)) throw new Error(`tun: section [${section}] twice`);
      seen.push(section);
      continue;
    }
    const kv = /^([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (!kv || section === "" || section === "Scale End") throw new Error(`tun: '${line}' is not a key = value line of a section`);
    const entries = values.get(section) ?? new Map<string, string[]>();
    const key = kv[1].toLowerCase();
    entries.set(key, [...(entries.get(key) ?? []), kv[2]]);
    values.set(section, entries);
  }
  if (seen[0] !== "Scale Begin" || seen[seen.length - 1] !== "Scale End") throw new Error("tun: a V2 file begins with [Scale Begin] and ends with [Scale End]");
  const begin = values.get("Scale Begin")!;
  if (begin.get("format")?.[0] !== '"AnaMark-TUN"') throw new Error('tun: Format must be "AnaMark-TUN"');
  if (begin.get("formatversion")?.[0] !== "200") throw new Error("tun: FormatVersion must be the integer 200");
  const info: Record<string, string[]> = {};
  for (const [key, list] of values.get("Info") ?? [])
    info[key] = list.map((v) => {
      const m = STRING.exec(v);
      if (!m) throw new Error(`tun: [Info] ${key} is not a quoted string`);
      return m[1];
    });
  const notes = (sectionName: string, pattern: RegExp): number[] => {
    const entries = values.get(sectionName);
    if (!entries) throw new Error(`tun: [${sectionName}] missing`);
    return Array.from({ length: 128 }, (_, n) => {
      const list = entries.get(`note ${n}`);
      if (list?.length !== 1 || !pattern.test(list[0])) throw new Error(`tun: [${sectionName}] note ${n} missing, repeated or malformed`);
      return Number(list[0]);
    });
  };
  const exactEntries = values.get("Exact Tuning");
  const base = exactEntries?.get("basefreq")?.[0] ?? "8.1757989156437073336";
  if (!FLOAT.test(base)) throw new Error("tun: BaseFreq is not a number");
  return { info, tuning: notes("Tuning", /^-?\d+$/), baseFrequency: Number(base), exact: notes("Exact Tuning", FLOAT), comments };
}
