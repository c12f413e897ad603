/**
 * A strict reader of Ableton Live tuning files (.ascl), written from Ableton's published ASCL
 * specification, independent of the writer in src/exports: the Scala scale (read by parseScl),
 * then `@ABL` directives in comment lines after the pitch list, arguments separated by spaces and
 * double-quoted where they hold one. It refuses unknown or repeated directives, a directive
 * before the last pitch, a reference octave outside -2…8 or an index outside the octave, a count
 * of note names other than the notes per octave, and a note range without a reference pitch.
 * `abletonKeyCents` plays a key the way Live lays the tuning on the keyboard: the first note of
 * the range on MIDI key 0 and each further key one note higher.
 */
import { parseScl, type Scl } from "./tuningFiles.js";

export interface AbletonNote {
  octave: number;
  index: number;
}

export interface Ascl {
  scl: Scl;
  noteNames?: string[];
  reference?: AbletonNote & { frequency: number };
  range?: { first: AbletonNote; last?: AbletonNote };
  source?: string;
  link?: string;
}

/** The arguments of a directive: space-separated, a double-quoted one may hold spaces. */
export function abletonArguments(text: string): string[] {
  const args: string[] = [];
  const pattern = /\s*(?:"([^"]*)"|([^\s"]+))/gy;
  let read = 0;
  let m = pattern.exec(text);
  while (m) {
    args.push(m[1] ?? m[2]);
    read = pattern.lastIndex;
    m = pattern.exec(text);
  }
  if (text.slice(read).trim() !== "") throw new Error(`ascl: unbalanced quotes in '${text}'`);
  return args;
}

const int = (s: string, what: string): number => {
  if (!/^-?\d+$/.test(s)) throw new Error(`ascl: ${what} '${s}' is not an integer`);
  return Number(s);
};

const DIRECTIVES = ["NOTE_NAMES", "REFERENCE_PITCH", "NOTE_RANGE_BY_INDEX", "NOTE_RANGE_BY_FREQUENCY", "SOURCE", "LINK"];

export function parseAscl(text: string): Ascl {
  const scl = parseScl(text);
  const size = scl.pitches.length;
  const lines = text.slice(0, -1).split("\n");
  // The last pitch line: data lines are the description, the count and the pitches.
  const lastPitch = lines.flatMap((l, i) => (l.startsWith("!") ? [] : [i]))[size + 1];
  const ascl: Ascl = { scl };
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    const m = /^!\s*@ABL\s+(\S+)\s*(.*)$/.exec(line);
    if (!m) return;
    const [, name, rest] = m;
    if (!DIRECTIVES.includes(name)) throw new Error(`ascl: unknown directive ${name}`);
    if (seen.has(name)) throw new Error(`ascl: ${name} twice`);
    if (i < lastPitch) throw new Error(`ascl: ${name} before the pitch list ends`);
    seen.add(name);
    const args = abletonArguments(rest);
    const note = (o: string, x: string): AbletonNote => {
      const index = int(x, "note index");
      if (index < 0 || index >= size) throw new Error(`ascl: note index ${index} outside 0…${size - 1}`);
      return { octave: int(o, "octave"), index };
    };
    if (name === "NOTE_NAMES") {
      if (args.length !== size) throw new Error(`ascl: ${args.length} note names for ${size} notes`);
      ascl.noteNames = args;
    } else if (name === "REFERENCE_PITCH") {
      if (args.length !== 3) throw new Error("ascl: REFERENCE_PITCH takes octave, index and frequency");
      const reference = note(args[0], args[1]);
      if (reference.octave < -2 || reference.octave > 8) throw new Error(`ascl: reference octave ${reference.octave} outside -2…8`);
      if (!/^\d+(\.\d*)?$/.test(args[2]) || !(Number(args[2]) > 0)) throw new Error(`ascl: frequency '${args[2]}'`);
      ascl.reference = { ...reference, frequency: Number(args[2]) };
    } else if (name === "NOTE_RANGE_BY_INDEX") {
      if (!ascl.reference) throw new Error("ascl: NOTE_RANGE_BY_INDEX needs REFERENCE_PITCH first");
      if (seen.has("NOTE_RANGE_BY_FREQUENCY")) throw new Error("ascl: two note ranges");
      if (args.length !== 2 && args.length !== 4) throw new Error("ascl: NOTE_RANGE_BY_INDEX takes 2 or 4 integers");
      const first = note(args[0], args[1]);
      const last = args.length === 4 ? note(args[2], args[3]) : undefined;
      if (last && last.octave * size + last.index < first.octave * size + first.index) throw new Error("ascl: note range ends before it starts");
      ascl.range = { first, last };
    } else if (name === "NOTE_RANGE_BY_FREQUENCY") {
      if (seen.has("NOTE_RANGE_BY_INDEX")) throw new Error("ascl: two note ranges");
    } else if (name === "SOURCE") {
      if (args.length === 0) throw new Error("ascl: SOURCE without text");
      ascl.source = args.join(" ");
    } else {
      if (args.length !== 1 || !/^https?:\/\/\S+$/.test(args[0])) throw new Error(`ascl: LINK '${rest}' is not one URL`);
      ascl.link = args[0];
    }
  });
  return ascl;
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

/** Cents of a note above the tuning's degree 0 in octave 0. */
function noteCents(scl: Scl, { octave, index }: AbletonNote): number {
  const period = scl.pitches[scl.pitches.length - 1].cents;
  return octave * period + (index === 0 ? 0 : scl.pitches[index - 1].cents);
}

/**
 * The pitch of a MIDI key, in cents above MIDI note 0 of 12-TET at A = 440 Hz: the note `key`
 * notes above the range's first, tuned from the reference pitch; undefined past the range's end.
 */
export function abletonKeyCents(ascl: Ascl, key: number): number | undefined {
  if (!ascl.reference || !ascl.range) throw new Error("ascl: no reference pitch or note range to lay on keys");
  const size = ascl.scl.pitches.length;
  const n = ascl.range.first.octave * size + ascl.range.first.index + key;
  const note = { octave: Math.floor(n / size), index: mod(n, size) };
  const { last } = ascl.range;
  if (last && n > last.octave * size + last.index) return undefined;
  const referenceCents = 6900 + 1200 * Math.log2(ascl.reference.frequency / 440);
  return referenceCents + noteCents(ascl.scl, note) - noteCents(ascl.scl, ascl.reference);
}
