/**
 * What the maqām and jins detail routes share: the rendering a detail answer shows and its 4xx,
 * the flat tuning context, and discovery mode (options=true).
 */
import { apiError, type ErrorAnswer, isAnswer } from "../errors.js";
import { KIND } from "../shared/format.js";
import type { ParamDeclaration } from "../params.js";
import { optionalText } from "../declare.js";
import { resolveTuning, selectedTransposition, type TuningContext } from "../resolve.js";
import { noteNameToArabic } from "../../theory/arabic.js";
import type { Entity } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import { pitchClassesOf } from "../../theory/pitchClass.js";
import { toIdName } from "../../theory/idName.js";
import { transpositionsOf, type Transposition } from "../../theory/transposition.js";
import { pitchClassesPerOctave, referenceFrequencyOf } from "../../theory/tuningSystem.js";
import { availabilityHint } from "./views.js";
import { notRealizable, unreachableTonic } from "./transpositions.js";

// ---------------------------------------------------------------------------------------------
// Detail

export const TRANSPOSE_TO = "Transpose to this tonic (taṣwīr); absent for the analytical form (taḥlīl).";

/** `transposeTo` of the detail routes: a tonic, or absent for the analytical form (blank is a 400). */
export const transposeToParameter = () =>
  optionalText({
    blank: "error",
    description: TRANSPOSE_TO,
    example: "nawa",
    hint: "Give a tonic note name such as transposeTo=nawa, or leave the parameter out for the analytical form.",
  });

/**
 * `context.tuningSystem` in the flat form of the jins detail and of `/maqamat/all`, which also
 * names the system's starting notes (`names`, and their Arabic `arabicNames` after the display names).
 */
function flatContext<A extends object, N extends object>(cat: Catalog, { ts, startingNote }: TuningContext, includeArabic: boolean, arabicNames: A, names: N) {
  const pcs = pitchClassesOf(cat, ts, startingNote);
  return {
    id: ts.id,
    displayName: ts.displayName,
    ...(includeArabic ? { displayNameAr: ts.displayNameAr } : {}),
    ...arabicNames,
    version: ts.record.version,
    originalValueType: pcs.length ? ts.valueType : "unknown",
    numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts),
    numberOfPitchClassesAllOctaves: pcs.length,
    ...names,
    startingNoteName: toIdName(startingNote),
    referenceFrequency: referenceFrequencyOf(ts, startingNote),
  };
}

/** The flat context of the jins detail. */
export const flatTuningContext = (cat: Catalog, tuning: TuningContext, includeArabic: boolean) => flatContext(cat, tuning, includeArabic, {}, {});

/** The flat context of `/maqamat/all`, with the system's starting notes. */
export function flatTuningContextWithStartingNotes(cat: Catalog, tuning: TuningContext, includeArabic: boolean) {
  const { ts, startingNote } = tuning;
  const arabicNames = includeArabic
    ? { tuningSystemStartingNoteNamesAr: ts.startingNotes.map(noteNameToArabic), startingNoteNameAr: noteNameToArabic(startingNote) }
    : {};
  return flatContext(cat, tuning, includeArabic, arabicNames, {
    tuningSystemStartingNoteNames: ts.startingNotes,
    tuningSystemStartingNoteNamesIds: ts.startingNotes.map(toIdName),
  });
}

/**
 * The rendering a detail answer shows — the entry on the requested tonic, else the first (the
 * taḥlīl when it is reachable) — with its list; 422 when the entity is not `realisable` in the
 * tuning context or has no entry there, 400 when the requested tonic is not reachable.
 */
export function detailRendering(
  cat: Catalog,
  e: Entity,
  tuning: TuningContext,
  realisable: boolean,
  tonic: string | undefined,
  tolerance: number,
  includeArabic: boolean,
): { list: readonly Transposition[]; t: Transposition } | ErrorAnswer {
  const list = transpositionsOf(cat, e, tuning.ts, tuning.startingNote, tolerance);
  if (!realisable || list.length === 0) return notRealizable(e, tuning);
  const t = selectedTransposition(list, tonic);
  // The list is not empty, so only a requested tonic can miss.
  return t ? { list, t } : unreachableTonic(tonic ?? "", list, includeArabic);
}

// ---------------------------------------------------------------------------------------------
// Discovery mode

/** 400 for data-returning parameters given together with `options=true`. */
export const optionsConflict = (conflicting: string[], allowed: string[]) =>
  apiError({
    error: "Conflicting parameters with options=true",
    message: `The following data-returning parameters cannot be used with options=true (parameter discovery mode): ${conflicting.join(", ")}`,
    hint: `Remove ${conflicting.join(", ")} to discover the options, or drop options=true to get data.`,
    extra: { conflictingParameters: conflicting, contextualParametersAllowed: allowed },
  });

/** A switch or number as discovery mode describes it, read off its declaration: `{type, default}`. */
export const discoveryEntry = <D extends Pick<ParamDeclaration, "type" | "default">>(
  d: D,
  description: string,
): { type: D["type"]; default: D["default"]; description: string } => ({
  type: d.type,
  default: d.default,
  description,
});

/** Descriptions of the parameters both kinds' discovery answers describe alike. */
export const DISCOVERY_DESCRIPTIONS = {
  tuningSystem: "ID of tuning system (see /availability for options)",
  startingNote:
    "Theoretical framework for note naming. Required for data retrieval. Optional for discovery mode (options=true). Needed to calculate transposition options.",
  includeIntervals: "Include interval data between pitch classes (?includeIntervals=true)",
  transposeTo:
    "Transpose to specific tonic (taṣwīr) - only valid transpositions shown. Calculated based on the provided tuningSystem and startingNote; null until a startingNote is provided.",
  formatOptions:
    "The 'pitchClassDataType' parameter controls which pitch class properties are returned. Use 'all' for comprehensive data or specific formats like 'cents', 'fraction', etc. for targeted data.",
};

/**
 * What discovery mode offers in a tuning system: its id, its starting-note idNames, the tonics the entity
 * reaches from the given starting note (null without one) and the stem of the example requests.
 * The starting note is optional here: without one, the first is used only to validate the rest.
 */
export function discoveryOffer(cat: Catalog, e: Entity, idName: string, tuningSystem: string | undefined, startingNote: string | undefined, tolerance: number) {
  const tuning = resolveTuning(cat, tuningSystem, startingNote ?? cat.findTuningSystem(tuningSystem ?? "")?.startingNotes[0], availabilityHint(e));
  if (isAnswer(tuning)) return tuning;
  const { ts } = tuning;
  const startingNotes = ts.startingNotes.map(toIdName);
  const tonics = startingNote === undefined ? null : transpositionsOf(cat, e, ts, tuning.startingNote, tolerance).map((t) => toIdName(t.tonic));
  const example = `/api${KIND[e.kind].collection}/${idName}?tuningSystem=${tuningSystem}&startingNote=${startingNote === undefined ? startingNotes[0] : toIdName(tuning.startingNote)}`;
  // The id found is the id given (ids are matched exactly).
  return { tuningSystem: ts.id, startingNotes, tonics, example };
}
