/**
 * Re-spelling of a maqām's pitch classes (docs/algorithms.md §14.3): consecutive degrees get
 * consecutive letters where an enharmonic spelling allows it, and two notes that would share one
 * 12-tone key are told apart by spelling the lower one as a flat. The 12-tone reference, the
 * deviation and the MIDI label are recomputed from the new spelling.
 */
import type { PitchClass } from "./pitchClass.js";
import { recentMemo } from "./memo.js";
import { solfegeOf } from "./noteName.js";
import { referenceOf, referenceMidiOf, ipnReferenceOf, labelMidiOf, deviationCents, midiPlusCentsDeviation, chromaOfReference } from "./ipn.js";

export type Direction = "ascending" | "descending";

const LETTERS = "ABCDEFG";
const letterAfter = (letter: string, steps = 1): string => LETTERS[(LETTERS.indexOf(letter) + steps) % 7];

/** Enharmonic spellings of the plain (no quarter-tone sign) notes. */
const ENHARMONICS: Record<string, string[]> = {
  C: ["B#"],
  "C#": ["Db"],
  Db: ["C#"],
  "D#": ["Eb"],
  Eb: ["D#"],
  E: ["Fb"],
  F: ["E#"],
  "F#": ["Gb"],
  Gb: ["F#"],
  "G#": ["Ab"],
  Ab: ["G#"],
  "A#": ["Bb"],
  Bb: ["A#"],
  B: ["Cb"],
};

const UNNAMED = "--";

/** The letter each degree should carry: upwards from the first note, or for a descending (top-down) scale upwards from its bottom note. */
function expectedLetters(names: readonly string[], direction: Direction): string[] {
  if (direction === "ascending") return names.map((_, i) => letterAfter(names[0][0], i));
  const bottom = names[names.length - 1][0];
  return names.map((_, i) => letterAfter(bottom, names.length - 1 - i));
}

/** The name, or its enharmonic with the expected letter when the name has no quarter-tone sign. */
function respelledName(name: string, expected: string): string {
  const [, note, octave] = /^(.*?)(\d*)$/.exec(name)!;
  if (/[+-]/.test(note)) return name;
  const alternative = ENHARMONICS[note]?.find((a) => a[0] === expected);
  // The octave digits are kept as they are (`C3` → `B#3`), as the archive does.
  return alternative ? alternative + octave : name;
}

/**
 * Step 1: English names with consecutive letters. A name keeps its letter when it is the
 * expected one or follows the previous note's letter; otherwise a plain note takes its
 * enharmonic spelling with the expected letter.
 */
export function sequentialEnglishNames(cells: readonly PitchClass[], direction: Direction): string[] {
  const names = cells.map((pc) => pc.englishName);
  if (names.length <= 1 || names[0] === UNNAMED) return names;
  const expected = expectedLetters(names, direction);
  return names.map((name, i) => {
    if (name === UNNAMED || name[0] === expected[i]) return name;
    const previous = names[i - 1];
    if (i > 0 && previous !== UNNAMED && name[0] === letterAfter(previous[0])) return name;
    return respelledName(name, expected[i]);
  });
}

/** 12-tone key and deviation of one distinct note of the maqām. */
interface KeyAssignment {
  reference: string;
  centsDeviation: number;
}

const PLAIN_KEY = /^[A-G](#|b)?$/;
const PLAIN_NAME = /^[A-G](#|b)?\d+$/;

/**
 * The key the MIDI label counts from (§3.8): a plain English name (`F3`) is its own key even
 * when the note was re-spelled against another one (`Fb`); otherwise the 12-tone reference.
 */
const labelReference = (englishName: string, reference: string): string => (PLAIN_NAME.test(englishName) ? ipnReferenceOf(englishName) : reference);

/** `"<MIDI> <signed deviation>"` of a (re-spelled) pitch class; the deviation is rounded to 0.1 unless `rounded` is false. */
export const midiLabelOf = (pc: PitchClass, rounded: boolean): string =>
  midiPlusCentsDeviation(pc.englishName, labelReference(pc.englishName, pc.ipnReferenceNoteName), pc.midiNoteDecimal, pc.centsDeviation, rounded);

/**
 * Steps 2-3: keys of the distinct notes (first occurrence, by pitch) as `spelled` names them. When two neighbouring
 * notes would share one key, the lower is spelled as a flat of the upper's letter and its
 * deviation is taken against that flat.
 */
function keyAssignments(spelled: readonly { pc: PitchClass; name: string }[]): Map<string, KeyAssignment> {
  const distinct = new Map<string, { pc: PitchClass; name: string }>();
  for (const s of spelled) if (!distinct.has(s.pc.noteName)) distinct.set(s.pc.noteName, s);
  const ordered = [...distinct.values()].sort((a, b) => a.pc.midiNoteDecimal - b.pc.midiNoteDecimal);
  const base = ordered.map(({ pc, name }) => {
    const english = name === UNNAMED ? pc.englishName : name;
    const reference = referenceOf(english);
    const referenceMidi = referenceMidiOf(english, pc.midiNoteDecimal, reference);
    return { reference: reference.name, centsDeviation: referenceMidi === undefined ? NaN : deviationCents(pc.midiNoteDecimal, referenceMidi) };
  });
  const keys = base.map((k) => ({ ...k }));
  for (let i = 1; i < ordered.length; i++) {
    const lower = base[i - 1].reference;
    const upper = base[i].reference;
    if (!PLAIN_KEY.test(lower) || !PLAIN_KEY.test(upper) || chromaOfReference(lower) !== chromaOfReference(upper)) continue;
    const { pc } = ordered[i - 1];
    const reference = `${upper[0]}b`;
    const referenceMidi = labelMidiOf(pc.englishName, labelReference(pc.englishName, reference), pc.midiNoteDecimal);
    keys[i - 1] = { reference, centsDeviation: deviationCents(pc.midiNoteDecimal, referenceMidi) };
  }
  return new Map(ordered.map(({ pc }, i) => [pc.noteName, keys[i]]));
}

/** A pitch class with a new spelling and the 12-tone fields that follow from it. */
function withSpelling(pc: PitchClass, englishName: string, key: KeyAssignment): PitchClass {
  const spelled = { ...pc, englishName, solfege: solfegeOf(englishName), ipnReferenceNoteName: key.reference, centsDeviation: key.centsDeviation };
  return { ...spelled, midiNotePlusCentsDeviation: midiLabelOf(spelled, true) };
}

export interface RespelledScale {
  ascending: PitchClass[];
  /** Top-down, as given. */
  descending: PitchClass[];
}

/**
 * §14.3 for both directions of a maqām (descending given top-down), each spelled on its own: a
 * direction's sequential names decide the keys, read over the notes of both directions in canonical
 * order (a note the direction lacks keeps its own name). So a note of both directions can take one
 * key going up and another coming down, and the 12-tone clash test sees both.
 */
export function respellScale(ascending: readonly PitchClass[], descending: readonly PitchClass[]): RespelledScale {
  return recent(
    ascending,
    () => ({ descending, spelled: respelled(ascending, descending) }),
    (hit) => hit.descending === descending,
  ).spelled;
}

/**
 * The last scales re-spelled, by the identity of their cells (a memo's transposition): the nine
 * export files of one transposition, and its answers, are asked for one after another. A few
 * scales are a few kilobytes, whatever the catalog's scale.
 */
const recent = recentMemo<readonly PitchClass[], { descending: readonly PitchClass[]; spelled: RespelledScale }>(16);

function respelled(ascending: readonly PitchClass[], descending: readonly PitchClass[]): RespelledScale {
  const all = [...ascending, ...descending];
  const up = sequentialEnglishNames(ascending, "ascending");
  const down = sequentialEnglishNames(descending, "descending");
  /** The names the keys are read from: the direction's own, else the tuning system's. */
  const namesFor = (cells: readonly PitchClass[], names: readonly string[]): string[] => {
    const nameOf = new Map<string, string>();
    cells.forEach((pc, i) => {
      if (!nameOf.has(pc.noteName)) nameOf.set(pc.noteName, names[i]);
    });
    return all.map((pc) => nameOf.get(pc.noteName) ?? pc.englishName);
  };
  const keysOf = (names: readonly string[]) => keyAssignments(all.map((pc, i) => ({ pc, name: names[i] })));
  const upNames = namesFor(ascending, up);
  const downNames = namesFor(descending, down);
  const upKeys = keysOf(upNames);
  // Most scales name every note the same both ways: the keys are then the same too.
  const downKeys = downNames.every((name, i) => name === upNames[i]) ? upKeys : keysOf(downNames);
  return {
    ascending: ascending.map((pc, i) => withSpelling(pc, up[i], upKeys.get(pc.noteName)!)),
    descending: descending.map((pc, i) => withSpelling(pc, down[i], downKeys.get(pc.noteName)!)),
  };
}
