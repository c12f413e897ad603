/**
 * Shared response pieces: pitch-class objects per `pitchClassDataType`, entity references and
 * string arrays with their optional Arabic twins. Numbers are formatted here, at the edge.
 */
import type { PitchClass } from "../theory/pitchClass.js";
import type { TuningSystem } from "../theory/tuningSystem.js";
import type { Entity } from "../theory/entity.js";
import { noteNameToArabic, entityNameToArabic } from "../theory/arabic.js";
import { toIdName } from "../theory/idName.js";
import type { PitchClassData } from "./responses/shared.js";

/** How each kind of entity is named in bodies, messages and paths. */
export const KIND = {
  maqam: { key: "maqam", word: "maqām", Word: "Maqām", collection: "/maqamat" },
  jins: { key: "jins", word: "jins", Word: "Jins", collection: "/ajnas" },
} as const;

/** A kind's collection path, its literal type kept for the route names. */
export const collectionOf = <K extends keyof typeof KIND>(kind: K): (typeof KIND)[K]["collection"] => KIND[kind].collection;

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

/** JSON of a float the way the archive prints it (NaN → null). */
export const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** The fields of `pitchClassDataType=all`, in output order; the deviation is NaN (null) on an unnamed cell. */
export const pitchClassData = (pc: PitchClass): PitchClassData => ({
  englishName: pc.englishName,
  solfege: pc.solfege,
  abjadName: pc.abjadName,
  fraction: pc.fraction,
  cents: pc.cents,
  decimalRatio: pc.decimalRatio,
  stringLength: pc.stringLength,
  frequency: pc.frequency,
  fretDivision: pc.fretDivision,
  midiNoteDecimal: pc.midiNoteDecimal,
  midiNotePlusCentsDeviation: pc.midiNotePlusCentsDeviation,
  centsDeviation: num(pc.centsDeviation),
  ipnReferenceNoteName: pc.ipnReferenceNoteName,
});

/**
 * The one table of value formats: the field each single data type shows, as an object of its own
 * (a computed key would lose the field's name in the type).
 */
export const SINGLE_FIELD = {
  englishName: (pc: PitchClass) => ({ englishName: pc.englishName }),
  solfege: (pc: PitchClass) => ({ solfege: pc.solfege }),
  fraction: (pc: PitchClass) => ({ fraction: pc.fraction }),
  cents: (pc: PitchClass) => ({ cents: pc.cents }),
  decimalRatio: (pc: PitchClass) => ({ decimalRatio: pc.decimalRatio }),
  stringLength: (pc: PitchClass) => ({ stringLength: pc.stringLength }),
  frequency: (pc: PitchClass) => ({ frequency: pc.frequency }),
  abjadName: (pc: PitchClass) => ({ abjadName: pc.abjadName }),
  fretDivision: (pc: PitchClass) => ({ fretDivision: pc.fretDivision }),
  midiNoteNumber: (pc: PitchClass) => ({ midiNoteDecimal: pc.midiNoteDecimal }),
  midiNoteDeviation: (pc: PitchClass) => ({ midiNotePlusCentsDeviation: pc.midiNotePlusCentsDeviation }),
  centsDeviation: (pc: PitchClass) => ({ centsDeviation: num(pc.centsDeviation) }),
  referenceNoteName: (pc: PitchClass) => ({ ipnReferenceNoteName: pc.ipnReferenceNoteName }),
} satisfies Record<SinglePitchClassDataType, (pc: PitchClass) => Partial<PitchClassData>>;

/** The data fields of one data type: all of them, exactly one, or none (a type that adds no field). */
type DataFields = PitchClassData | ReturnType<(typeof SINGLE_FIELD)[SinglePitchClassDataType]> | { [F in keyof PitchClassData]?: never };

const isSingleType = (type: string): type is SinglePitchClassDataType => Object.hasOwn(SINGLE_FIELD, type);

/** The data fields a data type adds (none for types that add no field, such as `pitchClassIndex`). */
export function dataFields(pc: PitchClass, type: string): DataFields {
  if (type === "all") return pitchClassData(pc);
  return isSingleType(type) ? SINGLE_FIELD[type](pc) : {};
}

/** `{pitchClassIndex, octave, noteName, noteNameDisplay, [noteNameDisplayAr]}`. */
export const pitchClassBase = (pc: PitchClass, includeArabic: boolean) => ({
  pitchClassIndex: pc.index,
  octave: pc.octave,
  noteName: toIdName(pc.noteName),
  noteNameDisplay: pc.noteName,
  ...(includeArabic ? { noteNameDisplayAr: noteNameToArabic(pc.noteName) } : {}),
});

/** `{pitchClassIndex, octave, noteName, noteNameDisplay, [noteNameDisplayAr], ...data}`. */
export const pitchClassObject = (pc: PitchClass, type: string, includeArabic: boolean) => ({ ...pitchClassBase(pc, includeArabic), ...dataFields(pc, type) });

/** Entity reference `{idName, displayName, [displayNameAr]}` of a note name. */
export function noteRef(name: string, includeArabic: boolean) {
  return {
    idName: toIdName(name),
    displayName: name,
    ...(includeArabic ? { displayNameAr: noteNameToArabic(name) } : {}),
  };
}

/** `{idNames, displayNames, [displayNamesAr]}` of note names. */
export function noteNameArray(names: readonly string[], includeArabic: boolean) {
  return {
    idNames: names.map(toIdName),
    displayNames: [...names],
    ...(includeArabic ? { displayNamesAr: names.map(noteNameToArabic) } : {}),
  };
}

/** `{id, idName, displayName, version, ...extra, [displayNameAr]}` of a tuning system. */
export function tuningSystemEntity<X extends object>(ts: TuningSystem, includeArabic: boolean, extra: X) {
  return {
    id: ts.id,
    idName: ts.id,
    displayName: ts.displayName,
    version: ts.record.version,
    ...extra,
    ...(includeArabic ? { displayNameAr: ts.displayNameAr } : {}),
  };
}

/** `{id, idName, displayName, version, [displayNameAr]}` of a tuning system. */
export const tuningSystemRef = (ts: TuningSystem, includeArabic: boolean) => tuningSystemEntity(ts, includeArabic, {});

/** `[{sourceId, page}]` of the page references of a maqām, jins or tuning system. */
export const sourcesOf = ({ record }: { record: { sourcePageReferences: readonly { sourceId: string; page: string }[] } }) =>
  record.sourcePageReferences.map(({ sourceId, page }) => ({ sourceId, page }));

/** `{id, idName, displayName, version, ...extra, [displayNameAr]}` of a maqām or jins. */
export function entityHeader<X extends object>(entity: Entity, includeArabic: boolean, extra: X) {
  return {
    id: entity.id,
    idName: entity.idName,
    displayName: entity.name,
    version: entity.record.version,
    ...extra,
    ...(includeArabic ? { displayNameAr: entityNameToArabic(entity.name) } : {}),
  };
}

/** `{id, idName, displayName, version, [displayNameAr]}` of a maqām or jins. */
export const entityObject = (entity: Entity, includeArabic: boolean) => entityHeader(entity, includeArabic, {});
export type EntityObject = ReturnType<typeof entityObject>;
