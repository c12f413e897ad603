/**
 * The one table of pitch-class value formats. Each `pitchClassDataType` names the field it adds to
 * a pitch class, that field's schema, how the value is read from the theory record (numbers
 * formatted here, at the edge) and its place in `pitchClassDataType=all`. The enumeration, the
 * `all` object, the single-field objects, the response schemas and the docs derive from it; a new
 * value format is one row here and the code in src/theory that computes it.
 */
import * as z from "zod";
import type { PitchClass } from "../../theory/pitchClass.js";

/** JSON of a float the way the archive prints it (NaN → null). */
export const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** An exact ratio `numerator/denominator`. */
export const fraction = z
  .string()
  .regex(/^\d+\/\d+$/)
  .describe("numerator/denominator");

interface ValueFormat<F extends string, S extends z.ZodType> {
  /** The field the type adds to a pitch class. */
  field: F;
  schema: S;
  value: (pc: PitchClass) => z.output<S>;
  /** Position of the field in `pitchClassDataType=all` (the archive's order, not the enumeration's). */
  column: number;
  /** The unit the value is in, where it is a measure. */
  unit?: string;
  /** What the value is: with the unit, the description of the field in the response schemas. */
  about: string;
}

/** A row, its field's schema described by it: what the value is and, for a measure, its unit. */
const row = <F extends string, S extends z.ZodType>(format: ValueFormat<F, S>): ValueFormat<F, S> => ({
  ...format,
  schema: format.schema.describe(format.unit ? `${format.about} (unit: ${format.unit}).` : `${format.about}.`),
});

/** Every single `pitchClassDataType`, in the order of the enumeration. */
export const PITCH_CLASS_VALUES = {
  englishName: row({
    field: "englishName",
    schema: z.string(),
    value: (pc) => pc.englishName,
    column: 1,
    about: "English note name with its octave (C4, E-b4)",
  }),
  solfege: row({ field: "solfege", schema: z.string(), value: (pc) => pc.solfege, column: 2, about: "Solfège name of the English name (do, mi-b)" }),
  fraction: row({
    field: "fraction",
    unit: "ratio to the starting note",
    schema: fraction,
    value: (pc) => pc.fraction,
    column: 4,
    about: "Frequency ratio to the starting note, exact or approximated below denominator 100",
  }),
  cents: row({ field: "cents", unit: "cents", schema: z.number(), value: (pc) => pc.cents, column: 5, about: "Distance above the starting note" }),
  decimalRatio: row({
    field: "decimalRatio",
    unit: "ratio to the starting note",
    schema: z.number(),
    value: (pc) => pc.decimalRatio,
    column: 6,
    about: "Frequency ratio to the starting note as a decimal",
  }),
  stringLength: row({
    field: "stringLength",
    unit: "the tuning system's string-length units",
    schema: z.number(),
    value: (pc) => pc.stringLength,
    column: 7,
    about: "Length of the sounding string",
  }),
  frequency: row({
    field: "frequency",
    unit: "Hz",
    schema: z.number(),
    value: (pc) => pc.frequency,
    column: 8,
    about: "Frequency from the tuning system's reference frequency",
  }),
  abjadName: row({
    field: "abjadName",
    schema: z.string(),
    value: (pc) => pc.abjadName,
    column: 3,
    about: "Abjad (letter-numeral) name, empty where the tuning system has none",
  }),
  fretDivision: row({
    field: "fretDivision",
    unit: "the tuning system's string-length units",
    schema: z.string(),
    value: (pc) => pc.fretDivision.toFixed(3),
    column: 9,
    about: "Distance from the open string, three decimals",
  }),
  midiNoteNumber: row({
    field: "midiNoteDecimal",
    unit: "MIDI note numbers (semitones)",
    schema: z.number(),
    value: (pc) => pc.midiNoteDecimal,
    column: 10,
    about: "MIDI note number with its decimal fraction",
  }),
  midiNoteDeviation: row({
    field: "midiNotePlusCentsDeviation",
    unit: "MIDI note number, cents",
    schema: z.string(),
    value: (pc) => pc.midiNotePlusCentsDeviation,
    column: 11,
    about: "MIDI note number of the 12-tone key and the signed deviation from it in cents",
  }),
  centsDeviation: row({
    field: "centsDeviation",
    unit: "cents",
    schema: z.number().nullable(),
    value: (pc) => num(pc.centsDeviation),
    column: 12,
    about: "Deviation from the 12-tone key the pitch is spelled against; null on a cell the tuning system leaves unnamed",
  }),
  referenceNoteName: row({
    field: "ipnReferenceNoteName",
    schema: z.string(),
    value: (pc) => pc.ipnReferenceNoteName,
    column: 13,
    about: "The 12-tone key (scientific pitch notation) the pitch is spelled against",
  }),
};

type Values = typeof PITCH_CLASS_VALUES;
export type SinglePitchClassDataType = keyof Values;
const SINGLE_TYPES = Object.keys(PITCH_CLASS_VALUES) as SinglePitchClassDataType[];

/** The 14-value enumeration of the jins, compare, tuning-system and pitch-class endpoints. */
export const PITCH_CLASS_DATA_TYPES = ["all", ...SINGLE_TYPES] as ["all", ...SinglePitchClassDataType[]];
export type PitchClassDataType = "all" | SinglePitchClassDataType;

/** The field of each single type, with its schema, in the order of `pitchClassDataType=all`. */
type FieldOf<T extends SinglePitchClassDataType> = Values[T]["field"];
export type PitchClassDataField = FieldOf<SinglePitchClassDataType>;
type DataShape = { [T in SinglePitchClassDataType as FieldOf<T>]: Values[T]["schema"] };
export type PitchClassData = { [T in SinglePitchClassDataType as FieldOf<T>]: z.output<Values[T]["schema"]> };

const BY_COLUMN = [...SINGLE_TYPES].sort((a, b) => PITCH_CLASS_VALUES[a].column - PITCH_CLASS_VALUES[b].column);

/** Field → schema of every data field, in the order of `pitchClassDataType=all`. */
export const PITCH_CLASS_DATA = Object.fromEntries(BY_COLUMN.map((type) => [PITCH_CLASS_VALUES[type].field, PITCH_CLASS_VALUES[type].schema])) as DataShape;

/** The fields of `pitchClassDataType=all`, in output order; the deviation is NaN (null) on an unnamed cell. */
export const pitchClassData = (pc: PitchClass): PitchClassData =>
  Object.fromEntries(BY_COLUMN.map((type) => [PITCH_CLASS_VALUES[type].field, PITCH_CLASS_VALUES[type].value(pc)])) as PitchClassData;

/** The one field a single data type shows, as an object of its own (typed by the field's name). */
export const singleField = <T extends SinglePitchClassDataType>(type: T, pc: PitchClass) =>
  ({ [PITCH_CLASS_VALUES[type].field]: PITCH_CLASS_VALUES[type].value(pc) }) as SingleField<T>;
/** One field object per type (a union over the types, not one object with all their fields). */
type SingleField<T extends SinglePitchClassDataType> = T extends SinglePitchClassDataType ? Pick<PitchClassData, FieldOf<T>> : never;

export const isSingleType = (type: string): type is SinglePitchClassDataType => Object.hasOwn(PITCH_CLASS_VALUES, type);
