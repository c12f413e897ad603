/**
 * Resolution of the parameters most routes share — tuning system, starting note, maqām or jins
 * (with the transposition-identifier rules of the spec) and the selected transposition — into
 * theory values, or the spec's 4xx answer.
 */
import { apiError, type ErrorAnswer, type ErrorSpec, notFound } from "./errors.js";
import { findStartingNote, type TuningSystem } from "../theory/tuningSystem.js";
import type { Entity, EntityReference } from "../theory/entity.js";
import type { Catalog } from "../theory/catalog.js";
import { toIdName } from "../theory/idName.js";
import type { Transposition } from "../theory/transposition.js";
import { KIND, noteRef } from "./shared/format.js";

export interface TuningContext {
  ts: TuningSystem;
  /** Display name of the resolved starting note. */
  startingNote: string;
}

/** Tuning system (exact id, 404 when unknown) and starting note (diacritics-insensitive, 400 when invalid). */
export function resolveTuning(cat: Catalog, tuningSystem: string | undefined, startingNote: string | undefined, entityHint = ""): TuningContext | ErrorAnswer {
  if (tuningSystem === undefined || tuningSystem.trim() === "")
    return apiError({
      error: "tuningSystem parameter is required",
      message: "Pitch data is computed for one tuning system: give its id in 'tuningSystem'.",
      hint: `Add tuningSystem=<id> with a startingNote, e.g. tuningSystem=${cat.tuningSystems[0]?.id}; /api/tuning-systems lists the ids${entityHint}.`,
    });
  const ts = cat.findTuningSystem(tuningSystem);
  if (!ts)
    return notFound({
      error: `Tuning system '${tuningSystem}' not found`,
      message: `No tuning system has the id '${tuningSystem}'.`,
      hint: "Use /api/tuning-systems to see all available tuning systems and their ids.",
    });
  const validOptions = ts.startingNotes.map(toIdName);
  if (startingNote === undefined || startingNote.trim() === "")
    return apiError({
      error: "startingNote parameter is required",
      message: `Pitch data depends on the starting note; '${ts.id}' has: ${validOptions.join(", ")}.`,
      hint: `Add startingNote=${validOptions[0]}.`,
      extra: { validOptions },
    });
  const resolved = findStartingNote(ts, startingNote);
  if (!resolved)
    return apiError({
      error: `Invalid starting note '${startingNote}'`,
      message: `'${startingNote}' is not a starting note of tuning system '${ts.id}'.`,
      hint: `Use one of: ${validOptions.join(", ")}.`,
      extra: { validOptions },
    });
  return { ts, startingNote: resolved };
}

export const tuningSystemNotFound = (id: string) =>
  notFound({
    error: "Tuning system not found",
    message: `No tuning system has the id '${id}'.`,
    hint: "Use /api/tuning-systems to see all available tuning systems and their ids.",
    extra: { tuningSystemId: id },
  });

/** The error of a starting note the tuning system does not have: a 400 as a rule, a 404 where the spec says so. */
export const unknownStartingNote = (ts: TuningSystem, given: string): ErrorSpec => ({
  error: "Invalid starting note",
  message: `'${given}' is not a starting note of tuning system '${ts.id}'.`,
  hint: `Use one of: ${ts.startingNotes.map(toIdName).join(", ")}.`,
  extra: { validOptions: ts.startingNotes.map(toIdName), availableTuningSystemStartingNotes: ts.startingNotes },
});

const invalidStartingNote = (ts: TuningSystem, given: string) => apiError(unknownStartingNote(ts, given));

/** The `{id}/{startingNote}` path segments of the per-tuning-system routes (404 unknown system, 400 bad starting note). */
export function resolveTuningPath(cat: Catalog, id: string, startingNote: string): TuningContext | ErrorAnswer {
  const ts = cat.findTuningSystem(id);
  if (!ts) return tuningSystemNotFound(id);
  const resolved = findStartingNote(ts, startingNote);
  return resolved ? { ts, startingNote: resolved } : invalidStartingNote(ts, startingNote);
}

/** A maqām or jins by numeric id, idName or transposition idName (any spelling); 404 otherwise. */
export function resolveEntity<K extends Entity["kind"]>(cat: Catalog, kind: K, idName: string): EntityReference<Extract<Entity, { kind: K }>> | ErrorAnswer {
  const found = (kind === "maqam" ? cat.findMaqam(idName) : cat.findJins(idName)) as EntityReference<Extract<Entity, { kind: K }>> | undefined;
  if (found) return found;
  return notFound({
    error: `${KIND[kind].Word} '${idName}' not found`,
    message: `No ${KIND[kind].word} has the id or idName '${idName}'.`,
    hint: `Use /api${KIND[kind].collection} to see all available ids and idNames.`,
  });
}

/**
 * The requested tonic from a transposed idName and/or an explicit parameter (`transposeTo`,
 * `transpositionNoteName`): the same tonic both ways is fine, different ones are a 400.
 */
export function requestedTonic(
  cat: Catalog,
  ref: EntityReference<Entity>,
  parameterName: string,
  parameter: string | undefined,
  /** The route's suffix after the idName (`/availability`, `/compare`), so the hint names the same route. */
  routeSuffix = "",
): string | undefined | ErrorAnswer {
  if (parameter === undefined || ref.tonic === undefined) return parameter ?? (ref.tonic !== undefined ? toIdName(ref.tonic) : undefined);
  if (cat.notes.findNoteName(parameter)?.name === ref.tonic) return parameter;
  return apiError({
    error: `Conflicting tonic: the idName names '${toIdName(ref.tonic)}' but ${parameterName} is '${parameter}'`,
    message: `A transposed idName already selects its tonic; ${parameterName} must name the same note or be left out.`,
    hint: `Use ${KIND[ref.entity.kind].collection}/${ref.entity.idName}${routeSuffix}?${parameterName}=${parameter}, or drop ${parameterName}.`,
  });
}

/** `{idName, displayName, tonic}` of a transposition, as listed in `availableTranspositions`. */
export function transpositionSummary(t: Transposition, includeArabic: boolean, displayNameAr?: (name: string) => string) {
  return {
    idName: t.idName,
    displayName: t.name,
    ...(includeArabic && displayNameAr ? { displayNameAr: displayNameAr(t.name) } : {}),
    tonic: noteRef(t.tonic, includeArabic),
  };
}

/** The list entry whose tonic the parameter names (first match), or undefined. */
export function findTransposition(list: readonly Transposition[], tonic: string): Transposition | undefined {
  const wanted = toIdName(tonic);
  return list.find((t) => toIdName(t.tonic) === wanted);
}

/** The entry on the requested tonic, else the first entry (the taḥlīl when it is reachable). */
export const selectedTransposition = (list: readonly Transposition[], tonic: string | undefined): Transposition | undefined =>
  tonic === undefined ? list[0] : findTransposition(list, tonic);
