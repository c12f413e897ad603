/**
 * Writers of MIDI Tuning Standard messages (MMA, MIDI 1.0 Detailed Specification), as the bytes
 * of system-exclusive files (.syx) that hardware synthesizers and sequencers load:
 *
 * - the non-real-time bulk tuning dump, `F0 7E <device> 08 01 <program> <16-character name>
 *   <128 × 3 bytes> <checksum> F7` (408 bytes): every key's pitch as a 12-TET semitone (A = 440 Hz)
 *   and a 14-bit fraction of a semitone (100/16384 ≈ 0.0061 cents); `7F 7F 7F` leaves a key as it is;
 *   the checksum is the XOR of the bytes from 7E to the last data byte, within 7 bits;
 * - the non-real-time scale/octave tuning, one offset from 12-TET for each of the twelve pitch
 *   classes C … B, repeated in every octave, for all 16 channels: 1-byte form `08 08`
 *   (-64 … +63 cents in whole cents, 40 = 0) and 2-byte form `08 09` (-100 … +100 cents in
 *   steps of 100/8192 cents, 40 00 = 0).
 */

import { ascii } from "./ascii.js";

/** Device ID 7F: every device listening ("all call"). */
export const ALL_DEVICES = 0x7f;
export const DUMP_BYTES = 408;
const NAME_LENGTH = 16;
const FRACTION_STEPS = 16384;
/** The channel bitmap ff gg hh with all 16 channels set (ff: 15–16, gg: 8–14, hh: 1–7). */
const ALL_CHANNELS = [0x03, 0x7f, 0x7f];

/** The 16-character name: transliterated to printable ASCII, cut or padded with spaces. */
export const dumpName = (name: string): number[] => [...ascii(name).slice(0, NAME_LENGTH).padEnd(NAME_LENGTH, " ")].map((c) => c.charCodeAt(0));

/**
 * The frequency word of a pitch given in cents above MIDI note 0 of 12-TET at A = 440 Hz:
 * semitone and 14-bit fraction, rounded to the nearest step; "no change" (7F 7F 7F) for a
 * pitch the format cannot hold (below MIDI note 0 or above 127 + 16382/16384).
 */
export function frequencyWord(cents: number): [number, number, number] {
  const steps = Math.round((cents / 100) * FRACTION_STEPS);
  if (steps < 0 || steps > 127 * FRACTION_STEPS + FRACTION_STEPS - 2) return [0x7f, 0x7f, 0x7f];
  const fraction = steps % FRACTION_STEPS;
  return [(steps - fraction) / FRACTION_STEPS, fraction >> 7, fraction & 0x7f];
}

/** The XOR of `bytes`, within 7 bits. */
function checksum(bytes: Uint8Array): number {
  let x = 0;
  for (const b of bytes) x ^= b;
  return x & 0x7f;
}

/** The bulk tuning dump of 128 keys' pitches (cents above MIDI note 0), as tuning program `program`. */
export function bulkTuningDump(name: string, keyCents: readonly number[], program = 0, device = ALL_DEVICES): Uint8Array<ArrayBuffer> {
  if (keyCents.length !== 128) throw new Error(`a bulk tuning dump holds 128 keys, not ${keyCents.length}`);
  const dump = new Uint8Array(DUMP_BYTES);
  const head = [0xf0, 0x7e, device, 0x08, 0x01, program, ...dumpName(name)];
  dump.set(head);
  for (const [key, cents] of keyCents.entries()) dump.set(frequencyWord(cents), head.length + 3 * key);
  // The checksum covers the bytes from 7E to the last data byte.
  dump[DUMP_BYTES - 2] = checksum(dump.subarray(1, DUMP_BYTES - 2));
  dump[DUMP_BYTES - 1] = 0xf7;
  return dump;
}

/** Offsets of the twelve pitch classes C … B from 12-TET, in cents. */
export type OctaveOffsets = readonly number[];

/** The 1-byte value of an offset (whole cents, 40 = 0), or undefined outside -64 … +63 cents. */
export function oneByteOffset(cents: number): number | undefined {
  const v = Math.round(cents) + 64;
  return v >= 0 && v <= 127 ? v : undefined;
}

/** The 14-bit value of an offset (8192 = 0, steps of 100/8192 cents), or undefined outside -100 … +100 cents. */
export function twoByteOffset(cents: number): number | undefined {
  const v = Math.round((cents / 100) * 8192) + 8192;
  return v >= 0 && v <= 16383 ? v : undefined;
}

/** Whether every offset fits the form (1 or 2 bytes). */
export const fitsScaleOctave = (offsets: OctaveOffsets, form: 1 | 2): boolean =>
  offsets.every((c) => (form === 1 ? oneByteOffset(c) : twoByteOffset(c)) !== undefined);

/** The non-real-time scale/octave tuning message of twelve offsets, for all channels. */
export function scaleOctaveTuning(offsets: OctaveOffsets, form: 1 | 2, device = ALL_DEVICES): Uint8Array<ArrayBuffer> {
  const values = offsets.map(form === 1 ? oneByteOffset : twoByteOffset);
  if (values.length !== 12) throw new Error(`a scale/octave tuning holds 12 pitch classes, not ${values.length}`);
  const data = values.flatMap((v, i) => {
    if (v === undefined) throw new Error(`the ${form}-byte scale/octave form cannot hold ${offsets[i]} cents`);
    return form === 1 ? [v] : [v >> 7, v & 0x7f];
  });
  return Uint8Array.from([0xf0, 0x7e, device, 0x08, form === 1 ? 0x08 : 0x09, ...ALL_CHANNELS, ...data, 0xf7]);
}
