/**
 * Shared response pieces: pitch-class objects per `pitchClassDataType`, entity references and
 * string arrays with their optional Arabic twins. Numbers are formatted here, at the edge.
 */
import type { PitchClass } from "../theory/pitchClass.js";
import type { TuningSystem } from "../theory/tuningSystem.js";
import type { Entity } from "../theory/entity.js";
import { noteNameToArabic, entityNameToArabic } from "../theory/arabic.js";
import { toIdName } from "../theory/idName.js";

/** How each kind of entity is named in bodies, messages and paths. */
export const KIND = {
  maqam: { key: "maqam", word: "maqām", Word: "Maqām", collection: "/maqamat" },
  jins: { key: "jins", word: "jins", Word: "Jins", collection: "/ajnas" },
} as const;

/** The 14-value enumeration of the jins, compare, tuning-system and pitch-class endpoints. */
export const PITCH_CLASS_DATA_TYPES = [
  "all",
  "englishName",
  "solfege",
  "fraction",
  "cents",
  "decimalRatio",
  "stringLength",
  "frequency",
  "abjadName",
  "fretDivision",
  "midiNoteNumber",
  "midiNoteDeviation",
  "centsDeviation",
  "referenceNoteName",
] as const;
export type PitchClassDataType = (typeof PITCH_CLASS_DATA_TYPES)[number];

export type SinglePitchClassDataType = Exclude<PitchClassDataType, "all">;

/** The one table of value formats: the pitch-class field each single data type shows. */
export const FIELD_OF: Record<SinglePitchClassDataType, keyof PitchClass> = {
  englishName: "englishName",
  solfege: "solfege",
  fraction: "fraction",
  cents: "cents",
  decimalRatio: "decimalRatio",
  stringLength: "stringLength",
  frequency: "frequency",
  abjadName: "abjadName",
  fretDivision: "fretDivision",
  midiNoteNumber: "midiNoteDecimal",
  midiNoteDeviation: "midiNotePlusCentsDeviation",
  centsDeviation: "centsDeviation",
  referenceNoteName: "ipnReferenceNoteName",
};

/** Fields of `pitchClassDataType=all`, in output order. */
export const ALL_FIELDS: readonly (keyof PitchClass)[] = [
  "englishName",
  "solfege",
  "abjadName",
  "fraction",
  "cents",
  "decimalRatio",
  "stringLength",
  "frequency",
  "fretDivision",
  "midiNoteDecimal",
  "midiNotePlusCentsDeviation",
  "centsDeviation",
  "ipnReferenceNoteName",
];

/** JSON of a float the way the archive prints it (NaN → null). */
export const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** A pitch class's value of one field, as JSON writes it (NaN → null). */
export function valueOf(pc: PitchClass, field: keyof PitchClass): string | number | null {
  const v = pc[field];
  return typeof v === "number" ? num(v) : (v as string);
}

/** The data fields a data type adds to a pitch class (none for unknown types). */
export function dataFields(pc: PitchClass, type: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (type === "all") {
    for (const field of ALL_FIELDS) out[field] = valueOf(pc, field);
    return out;
  }
  const field = FIELD_OF[type as SinglePitchClassDataType];
  if (field) out[field] = valueOf(pc, field);
  return out;
}

/** `{pitchClassIndex, octave, noteName, noteNameDisplay, [noteNameDisplayAr], ...data}`. */
export function pitchClassObject(pc: PitchClass, type: string, includeArabic: boolean): Record<string, unknown> {
  return {
    pitchClassIndex: pc.index,
    octave: pc.octave,
    noteName: toIdName(pc.noteName),
    noteNameDisplay: pc.noteName,
    ...(includeArabic ? { noteNameDisplayAr: noteNameToArabic(pc.noteName) } : {}),
    ...dataFields(pc, type),
  };
}

/** Entity reference `{idName, displayName, [displayNameAr]}` of a note name. */
export function noteRef(name: string, includeArabic: boolean): Record<string, string> {
  return {
    idName: toIdName(name),
    displayName: name,
    ...(includeArabic ? { displayNameAr: noteNameToArabic(name) } : {}),
  };
}

/** `{idNames, displayNames, [displayNamesAr]}` of note names. */
export function noteNameArray(names: readonly string[], includeArabic: boolean): Record<string, string[]> {
  return {
    idNames: names.map(toIdName),
    displayNames: [...names],
    ...(includeArabic ? { displayNamesAr: names.map(noteNameToArabic) } : {}),
  };
}

/** `{id, idName, displayName, version, ...extra, [displayNameAr]}` of a tuning system. */
export function tuningSystemEntity(ts: TuningSystem, includeArabic: boolean, extra: Record<string, unknown> = {}) {
  return {
    id: ts.id,
    idName: ts.id,
    displayName: ts.displayName,
    version: ts.record.version,
    ...extra,
    ...(includeArabic ? { displayNameAr: ts.displayNameAr } : {}),
  };
}

/** `[{sourceId, page}]` of the page references of a maqām, jins or tuning system. */
export const sourcesOf = ({ record }: { record: { sourcePageReferences: readonly { sourceId: string; page: string }[] } }) =>
  record.sourcePageReferences.map(({ sourceId, page }) => ({ sourceId, page }));

/** `{id, idName, displayName, version, ...extra, [displayNameAr]}` of a maqām or jins. */
export function entityObject(entity: Entity, includeArabic: boolean, extra: Record<string, unknown> = {}) {
  return {
    id: entity.id,
    idName: entity.idName,
    displayName: entity.name,
    version: entity.record.version,
    ...extra,
    ...(includeArabic ? { displayNameAr: entityNameToArabic(entity.name) } : {}),
  };
}
