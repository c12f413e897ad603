/**
 * Shared response pieces: pitch-class objects per `pitchClassDataType`, entity references and
 * string arrays with their optional Arabic twins. Numbers are formatted here, at the edge.
 */
import type { PitchClass } from "../../theory/pitchClass.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import type { Entity } from "../../theory/entity.js";
import { noteNameToArabic, entityNameToArabic } from "../../theory/arabic.js";
import { toIdName } from "../../theory/idName.js";
import { isSingleType, pitchClassData, singleField, type PitchClassData } from "./pitchClassValues.js";

/** How each kind of entity is named in bodies, messages and paths. */
export const KIND = {
  maqam: { key: "maqam", word: "maqām", Word: "Maqām", collection: "/maqamat" },
  jins: { key: "jins", word: "jins", Word: "Jins", collection: "/ajnas" },
} as const;

/** A kind's collection path, its literal type kept for the route names. */
export const collectionOf = <K extends keyof typeof KIND>(kind: K): (typeof KIND)[K]["collection"] => KIND[kind].collection;

/** The data fields a data type adds: all of them, exactly one, or none (for types that add no field, such as `pitchClassIndex`). */
export function dataFields(pc: PitchClass, type: string): Partial<PitchClassData> {
  if (type === "all") return pitchClassData(pc);
  return isSingleType(type) ? singleField(type, pc) : {};
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
