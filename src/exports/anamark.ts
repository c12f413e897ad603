/**
 * Writer of AnaMark tuning files, format version 2.00 (.tun): every one of the 128 MIDI notes
 * gets its pitch in cents above the base frequency, in `[Exact Tuning]` and, rounded, in the
 * `[Tuning]` section older readers take (the specification asks writers for both). The base is
 * MIDI note 0 of equal temperament at A = 440 Hz, so a note's cents are 100 × its MIDI number.
 */
import { ascii } from "./ascii.js";
import { centsText } from "./scala.js";

/** Hz of MIDI note 0 at A = 440 Hz, as the specification writes the default base frequency. */
export const BASE_FREQUENCY = "8.1757989156437073336";
export const MIDI_NOTES = 128;

export interface AnaMarkTuning {
  /** Comment lines at the top, without their `;`. */
  comments: readonly string[];
  name: string;
  id: string;
  fileName: string;
  description: string;
  keywords: readonly string[];
  /** Cents of MIDI notes 0…127 above the base frequency. */
  cents: readonly number[];
}

/** A quoted value: the format has no escapes we rely on, so quotes and backslashes are replaced. */
const quoted = (text: string): string => `"${ascii(text).replace(/"/g, "'").replace(/\\/g, "/")}"`;

export function writeTun(t: AnaMarkTuning): string {
  if (t.cents.length !== MIDI_NOTES) throw new Error(`an AnaMark tuning needs ${MIDI_NOTES} notes, not ${t.cents.length}`);
  const notes = (value: (cents: number) => string) => t.cents.map((c, key) => `note ${key} = ${value(c)}`);
  return (
    [
      ...t.comments.map((c) => `; ${ascii(c)}`.trimEnd()),
      "",
      "[Scale Begin]",
      'Format = "AnaMark-TUN"',
      "FormatVersion = 200",
      'FormatSpecs = "http://www.mark-henning.de/eternity/tuningspecs.html"',
      "",
      "[Info]",
      `Name = ${quoted(t.name)}`,
      `ID = ${quoted(t.id)}`,
      `Filename = ${quoted(t.fileName)}`,
      `Description = ${quoted(t.description)}`,
      ...t.keywords.map((k) => `Keyword = ${quoted(k)}`),
      "",
      "; Cents above the base frequency, rounded, for readers of format versions 0 and 1",
      "[Tuning]",
      // Rounding half-cents up; `+ 0` turns a rounded -0 into 0.
      ...notes((c) => String(Math.round(c) + 0)),
      "",
      "[Exact Tuning]",
      `BaseFreq = ${BASE_FREQUENCY}`,
      ...notes(centsText),
      "",
      "[Scale End]",
    ].join("\n") + "\n"
  );
}
