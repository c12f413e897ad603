/**
 * The tables of the datasets declared as data: each table names its rows (computed over the
 * catalog by the same theory functions the JSON answers use) and its columns once — name, type,
 * unit, meaning and how the value is read from a row. The CSV and Parquet writers, the SQLite
 * schema, the data dictionary and docs/datasets.md all derive from these declarations.
 */
import type { Catalog } from "../../theory/catalog.js";
import type { PitchClass } from "../../theory/pitchClass.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import { noteNameToArabic } from "../../theory/arabic.js";
import { toIdName } from "../../theory/idName.js";
import { PITCH_CLASS_VALUES } from "../shared/pitchClassValues.js";

/** SQL-like column types: exact ratios and names are text, counts integers, measures reals. */
export type ColumnType = "text" | "integer" | "real";
/** One value of a cell: numbers stay numbers, an absent value is null (an empty CSV field). */
export type Cell = string | number | null;

export interface Column<R> {
  /** snake_case, stable. */
  name: string;
  type: ColumnType;
  /** The unit of a measure. */
  unit?: string;
  /** What the value is. */
  about: string;
  value: (row: R) => Cell;
  /**
   * Columns whose values go together (a pitch's value formats): the database stores each distinct
   * combination once, in a table of that name, and the row its id (src/api/datasets/coded.ts).
   */
  group?: string;
}

export interface Table<R> {
  name: string;
  about: string;
  /** What one row is. */
  row: string;
  columns: readonly Column<R>[];
  /** Column lists the SQLite database indexes (the common joins). */
  indexes: readonly (readonly string[])[];
  rows: (cat: Catalog) => Iterable<R>;
  /**
   * For a table whose rows go tuning system by tuning system (catalog order): the rows of one, so
   * that a build computes (and keeps) them one tuning system at a time; `rows` is then all of them in turn.
   */
  rowsOf?: (cat: Catalog, ts: TuningSystem) => Iterable<R>;
}

/** The rows of a table made tuning system by tuning system, in catalog order. */
export const perTuningSystem = <R>(rowsOf: (cat: Catalog, ts: TuningSystem) => Iterable<R>): Pick<Table<R>, "rows" | "rowsOf"> => ({
  rowsOf,
  rows: function* (cat) {
    for (const ts of cat.tuningSystems) yield* rowsOf(cat, ts);
  },
});

/** A table with its row type erased, as the writers take it. */
export type AnyTable = Table<never>;

/** Declares a table, typing its columns by its rows. */
export const defineTable = <R>(table: Table<R>): AnyTable => table as unknown as AnyTable;

export const text = <R>(name: string, about: string, value: (row: R) => string | null): Column<R> => ({ name, type: "text", about, value });
export const integer = <R>(name: string, about: string, value: (row: R) => number | null): Column<R> => ({ name, type: "integer", about, value });
export const real = <R>(name: string, about: string, unit: string | undefined, value: (row: R) => number | null): Column<R> => ({
  name,
  type: "real",
  ...(unit ? { unit } : {}),
  about,
  value,
});

/** `midiNoteDecimal` → `midi_note_decimal`. */
export const snakeCase = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A float as a cell: NaN (an unnamed cell's deviation) is null, as in the JSON answers. */
const numberCell = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * The columns of every pitch-class value format, from the value table (field, unit, meaning) in
 * the order of `pitchClassDataType=all`, each read from the theory record unformatted (the JSON
 * answer writes the fret division with three decimals; the table keeps the number).
 */
export function pitchValueColumns<R>(pcOf: (row: R) => PitchClass): Column<R>[] {
  return Object.values(PITCH_CLASS_VALUES)
    .sort((a, b) => a.column - b.column)
    .map(({ field, unit, about }) => {
      const read = (row: R) => pcOf(row)[field];
      const column = PITCH_CLASS_NUMERIC[field]
        ? real<R>(snakeCase(field), about, unit, (row) => numberCell(read(row) as number))
        : text<R>(snakeCase(field), about, (row) => read(row) as string);
      return { ...column, group: PITCH_VALUES_GROUP };
    });
}

/** The group of the value formats of a pitch class: one row per distinct pitch in the database. */
export const PITCH_VALUES_GROUP = "pitch_values";

/** Which value fields are numbers in the theory record (the type the value table reads them from). */
const PITCH_CLASS_NUMERIC: Record<(typeof PITCH_CLASS_VALUES)[keyof typeof PITCH_CLASS_VALUES]["field"], boolean> = {
  englishName: false,
  solfege: false,
  fraction: false,
  cents: true,
  decimalRatio: true,
  stringLength: true,
  frequency: true,
  abjadName: false,
  fretDivision: true,
  midiNoteDecimal: true,
  midiNotePlusCentsDeviation: false,
  centsDeviation: true,
  ipnReferenceNoteName: false,
};

/** The note-name columns of a pitch class: transliterated (display and idName) and Arabic. */
export function noteNameColumns<R>(pcOf: (row: R) => PitchClass): Column<R>[] {
  return [
    integer<R>("pitch_class_index", "Index of the pitch class in the tuning system's octave (0 …)", (r) => pcOf(r).index),
    integer<R>("octave", "Octave of the pitch class (0–3; 1 holds the starting note)", (r) => pcOf(r).octave),
    text<R>("note_name", "Note name, transliterated (as the API displays it)", (r) => pcOf(r).noteName),
    text<R>("note_name_id", "Note name as an idName", (r) => toIdName(pcOf(r).noteName)),
    text<R>("note_name_arabic", "Note name in Arabic script", (r) => noteNameToArabic(pcOf(r).noteName)),
  ];
}
