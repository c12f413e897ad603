/**
 * Writer of Ableton Live tuning files (.ascl, Live 12): a Scala scale followed by Live's `@ABL`
 * directives in comment lines, which any Scala reader ignores — the note names, the reference
 * pitch (an octave number, a note index and its frequency), the range of notes Live lays on the
 * 128 MIDI keys (its first note on key 0), the source and a link. Arguments are separated by
 * spaces; an argument with a space is put in double quotes. The text is ASCII, which is UTF-8.
 */
import { ascii } from "./ascii.js";
import { decimalText, writeScl, type ScalaScale } from "./scala.js";

/** A note of the tuning: its octave number and its index within the octave (0 = degree 0). */
export interface AbletonNote {
  octave: number;
  index: number;
}

export interface AbletonTuning {
  scale: ScalaScale;
  /** One name per note of the octave, degree 0 first. */
  noteNames: readonly string[];
  reference: AbletonNote & { frequency: number };
  /** The notes on MIDI keys 0 and 127. */
  range: { first: AbletonNote; last: AbletonNote };
  source: string;
  link: string;
}

/** An argument: ASCII, double quotes in it made single, quoted when it holds a space. */
function argument(text: string): string {
  const a = ascii(text).replace(/"/g, "'");
  return a === "" || /\s/.test(a) ? `"${a}"` : a;
}

/** The note `steps` notes above `note` in a tuning of `size` notes per octave. */
export function noteAbove(note: AbletonNote, steps: number, size: number): AbletonNote {
  const n = note.index + steps;
  const index = ((n % size) + size) % size;
  return { octave: note.octave + (n - index) / size, index };
}

export function writeAscl(t: AbletonTuning): string {
  const size = t.scale.pitches.length;
  if (t.noteNames.length !== size) throw new Error(`an Ableton tuning of ${size} notes needs ${size} names, not ${t.noteNames.length}`);
  const note = ({ octave, index }: AbletonNote) => `${octave} ${index}`;
  return (
    writeScl(t.scale) +
    [
      "!",
      `! @ABL NOTE_NAMES ${t.noteNames.map(argument).join(" ")}`,
      `! @ABL REFERENCE_PITCH ${note(t.reference)} ${decimalText(t.reference.frequency)}`,
      `! @ABL NOTE_RANGE_BY_INDEX ${note(t.range.first)} ${note(t.range.last)}`,
      `! @ABL SOURCE ${argument(t.source)}`,
      `! @ABL LINK ${argument(t.link)}`,
    ].join("\n") +
    "\n"
  );
}
