/**
 * Strict readers of MIDI Tuning Standard system-exclusive files (.syx), written from the MMA's
 * MIDI Tuning specification and its scale/octave extension, independent of the writer in
 * src/exports: the non-real-time bulk tuning dump (F0 7E dd 08 01 tt, a 16-character name, 128
 * frequency words xx yy zz, the checksum, F7) and the scale/octave tuning messages (F0 7E dd 08
 * 08|09 ff gg hh, 12 offsets of 1 or 2 bytes, F7). Each refuses a wrong length, header, data
 * byte with its top bit set, name character or checksum. `dumpKeyProblems` then holds a dump's
 * keys, one by one, to the pitches they should sound.
 */

export interface BulkDump {
  device: number;
  program: number;
  name: string;
  /** Cents above MIDI note 0 of 12-TET at A = 440 Hz, per key; undefined for "no change" (7F 7F 7F). */
  keys: (number | undefined)[];
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

function expectFraming(bytes: Uint8Array, length: number, what: string) {
  if (bytes.length !== length) throw new Error(`${what}: ${bytes.length} bytes, not ${length}`);
  if (bytes[0] !== 0xf0 || bytes[length - 1] !== 0xf7) throw new Error(`${what}: not one message from F0 to F7`);
  if (bytes.subarray(1, length - 1).some((b) => b > 0x7f)) throw new Error(`${what}: a data byte over 7F`);
}

export function parseBulkDump(bytes: Uint8Array): BulkDump {
  expectFraming(bytes, 408, "bulk dump");
  if (hex(bytes.subarray(1, 2)) !== "7e" || hex(bytes.subarray(3, 5)) !== "0801")
    throw new Error("bulk dump: not a non-real-time MIDI tuning bulk dump (7E … 08 01)");
  const name = String.fromCharCode(...bytes.subarray(6, 22));
  if (!/^[\x20-\x7e]{16}$/.test(name)) throw new Error(`bulk dump: name '${name}' is not 16 printable ASCII characters`);
  let xor = 0;
  for (const b of bytes.subarray(1, 406)) xor ^= b;
  if ((xor & 0x7f) !== bytes[406]) throw new Error(`bulk dump: checksum ${bytes[406]}, want ${xor & 0x7f}`);
  const keys = Array.from({ length: 128 }, (_, key) => {
    const [xx, yy, zz] = bytes.subarray(22 + 3 * key, 25 + 3 * key);
    return xx === 0x7f && yy === 0x7f && zz === 0x7f ? undefined : 100 * (xx + (yy * 128 + zz) / 16384);
  });
  return { device: bytes[2], program: bytes[5], name, keys };
}

/** Half a step of a frequency word's 14-bit fraction of a semitone (≈ 0.0031 cents). */
export const MTS_HALF_STEP = 100 / 16384 / 2;
/** The highest pitch a frequency word holds: 7F 7F 7E. */
const MTS_TOP = 100 * (127 + 16382 / 16384);

/**
 * Every key of a dump against the pitch it should sound (`want`, cents above MIDI note 0): within
 * half a step (plus `slack`, what the source of `want` may add), and "no change" exactly where a
 * frequency word cannot hold the pitch (below MIDI note 0, above 7F 7F 7E).
 */
export function dumpKeyProblems(dump: BulkDump, want: readonly number[], what: string, slack = 1e-9): string[] {
  if (want.length !== 128) return [`${what}: ${want.length} keys wanted, not 128`];
  return want.flatMap((cents, key) => {
    const got = dump.keys[key];
    const holds = cents >= -MTS_HALF_STEP && cents <= MTS_TOP + MTS_HALF_STEP;
    const ok = holds ? got !== undefined && Math.abs(got - cents) <= MTS_HALF_STEP + slack : got === undefined;
    return ok ? [] : [`${what} key ${key}: ${got ?? "no change"}, want ${cents}`];
  });
}

export interface ScaleOctave {
  form: 1 | 2;
  device: number;
  /** Channels 1…16 the message retunes. */
  channels: number[];
  /** Offsets of C … B from 12-TET, in cents. */
  offsets: number[];
}

export function parseScaleOctave(bytes: Uint8Array): ScaleOctave {
  const form = bytes[4] === 0x08 ? 1 : bytes[4] === 0x09 ? 2 : undefined;
  if (bytes[1] !== 0x7e || bytes[3] !== 0x08 || form === undefined) throw new Error("scale/octave: not a non-real-time 08 08 or 08 09 message");
  expectFraming(bytes, form === 1 ? 21 : 33, "scale/octave");
  const [ff, gg, hh] = bytes.subarray(5, 8);
  if (ff > 0x03) throw new Error("scale/octave: reserved channel bits set");
  const channels = Array.from({ length: 16 }, (_, c) => c + 1).filter((c) =>
    c <= 7 ? hh & (1 << (c - 1)) : c <= 14 ? gg & (1 << (c - 8)) : ff & (1 << (c - 15)),
  );
  const data = bytes.subarray(8, -1);
  const offsets = Array.from({ length: 12 }, (_, i) => (form === 1 ? data[i] - 64 : (((data[2 * i] << 7) | data[2 * i + 1]) - 8192) * (100 / 8192)));
  return { form, device: bytes[2], channels, offsets };
}
