/**
 * What the maqām and jins endpoint groups share, parameterised by entity kind: entity headers,
 * list sorting and availability summaries, the per-tuning-system lists, and pitch classes with
 * scale degrees.
 */
import { ok } from "../errors.js";
import { apiUrl } from "../links.js";
import { KIND, dataFields, entityHeader, noteNameArray, noteRef, tuningSystemEntity, tuningSystemRef } from "../shared/format.js";
import type { ParamDeclarations } from "../params.js";
import { centsTolerance, includeArabic, oneOf, pathParam, startingNotePath, tuningSystemIdPath } from "../declare.js";
import { transpositionSummary, type TuningContext } from "../resolve.js";
import type { RequestContext } from "../route.js";
import { entityNameToArabic, noteNameToArabic } from "../../theory/arabic.js";
import { type Entity, firstNoteOf } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import type { PitchClass } from "../../theory/pitchClass.js";
import { availabilityOf } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { compareNames } from "../../theory/collation.js";
import type { Transposition } from "../../theory/transposition.js";
import { pitchClassesPerOctave, referenceFrequencyOf } from "../../theory/tuningSystem.js";
import { midiPlusCentsDeviation } from "../../theory/ipn.js";
import { intervalBetween, type Interval } from "../../theory/interval.js";
import { descendingNumeral, romanNumeral } from "../../theory/degrees.js";

export type Kind = Entity["kind"];
export type EntityOf<K extends Kind> = Extract<Entity, { kind: K }>;

/** Where a request without a tuning context can find the systems that realise the entity. */
export const availabilityHint = (e: Entity) =>
  ` or /api${KIND[e.kind].collection}/${e.idName}/availability for the systems that realise this ${KIND[e.kind].word}`;

/** `entityObject` of the selected transposition: its idName and display name in the entity's key order. */
export const selectionObject = <X extends object>(e: Entity, t: Transposition, includeArabic: boolean, extra: X) => ({
  ...entityHeader(e, false, extra),
  idName: t.idName,
  displayName: t.name,
  ...(includeArabic ? { displayNameAr: entityNameToArabic(t.name) } : {}),
});

/** `{english, arabic}`: the stored commentary of a maqām, jins or tuning system, trimmed, `null` when empty. */
export const commentsOf = (e: { record: { commentsEnglish: string; commentsArabic: string } }) => ({
  english: e.record.commentsEnglish.trim() || null,
  arabic: e.record.commentsArabic.trim() || null,
});

/** The listed transpositions with their Arabic names (`availableTranspositions` entries). */
export const transpositionSummaries = (list: readonly Transposition[], includeArabic: boolean) =>
  list.map((t) => transpositionSummary(t, includeArabic, entityNameToArabic));

/** `{original, resolved}` tonics of a transposed selection, or nothing for the taḥlīl and its octave renderings. */
export const transpositionBlock = (e: Entity, t: Transposition, includeArabic: boolean) =>
  t.isTransposed ? { transposition: { original: noteRef(firstNoteOf(e), includeArabic), resolved: noteRef(t.tonic, includeArabic) } } : {};

// ---------------------------------------------------------------------------------------------
// Lists

export const SORT_OPTIONS = ["alphabetical", "tonic"] as const;
type SortBy = (typeof SORT_OPTIONS)[number];

/** Sorts `{idName, tonicIdName}` keyed items alphabetically, or by tonic priority with the alphabetical tie-break. */
export function sortByNameOrTonic<T>(cat: Catalog, items: readonly T[], sortBy: SortBy, key: (item: T) => { idName: string; tonicIdName: string }): T[] {
  const alphabetical = (a: T, b: T) => compareNames(key(a).idName, key(b).idName);
  const byTonic = (a: T, b: T) => cat.notes.tonicPriority(key(a).tonicIdName) - cat.notes.tonicPriority(key(b).tonicIdName) || alphabetical(a, b);
  return [...items].sort(sortBy === "tonic" ? byTonic : alphabetical);
}

/** `{tuningSystems: [{tuningSystem, startingNotes}]}` of a list item, and the number of systems. */
export function availabilitySummary(cat: Catalog, e: Entity, includeArabic: boolean) {
  const availability = availabilityOf(cat, e);
  return {
    count: availability.length,
    availability: {
      tuningSystems: availability.map(({ tuningSystem, startingNotes }) => ({
        tuningSystem: tuningSystemRef(tuningSystem, includeArabic),
        startingNotes: noteNameArray(startingNotes, includeArabic),
      })),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Per-tuning-system lists

/** Parameters of a per-tuning-system list in check order: the path, the list's own flags, then sorting, Arabic and tolerance. */
export const perTuningSystemParams = <F extends ParamDeclarations>(flags: F) => ({
  id: tuningSystemIdPath(),
  startingNote: startingNotePath(),
  ...flags,
  sortBy: oneOf(SORT_OPTIONS, { fallback: "tonic", description: "`tonic` (by tonic, then name) or `alphabetical`.", example: "alphabetical" }),
  includeArabic: includeArabic(),
  centsTolerance: centsTolerance(),
});

/** The entity of an entity route's path: a base idName, a numeric id, or a transposition's idName. */
export const entityPath = (kind: Kind) =>
  pathParam({
    description: `${KIND[kind].Word} idName (or numeric id); a transposition's \`${kind === "maqam" ? "maqam_rast_al_nawa" : "jins_rast_al_nawa"}\`-style idName selects its tonic.`,
    example: kind === "maqam" ? "maqam_rast" : "jins_rast",
    slashes: true,
  });

/**
 * The answer of GET /tuning-systems/{id}/{startingNote}/{maqamat|ajnas}: the kind's `data` and
 * `stats` framed by the tuning system, its starting notes and links; the reference frequency
 * closes `stats`. `links.self` echoes the path segments decoded, as the pitch-classes route does.
 */
export function perTuningSystemAnswer<S extends object, T>(
  ctx: RequestContext,
  kind: Kind,
  segments: { id: string; startingNote: string },
  { ts, startingNote }: TuningContext,
  includeArabic: boolean,
  stats: S,
  data: T[],
) {
  return ok({
    tuningSystem: tuningSystemEntity(ts, includeArabic, { year: ts.record.year, numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts) }),
    startingNotes: noteNameArray(ts.startingNotes, includeArabic),
    selectedStartingNote: noteRef(startingNote, includeArabic),
    stats: { ...stats, referenceFrequency: referenceFrequencyOf(ts, startingNote) },
    data,
    links: {
      self: apiUrl(ctx, `/tuning-systems/${segments.id}/${segments.startingNote}${KIND[kind].collection}`),
      tuningSystem: apiUrl(ctx, `/tuning-systems/${ts.id}`),
      collection: apiUrl(ctx, KIND[kind].collection),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Pitch data

/**
 * `{pitchClassIndex, octave, scaleDegree, noteName, noteNameDisplay, [noteNameDisplayAr], ...data}`.
 * `exactDeviation` writes the `midiNoteDeviation` label with the unrounded deviation, as the
 * compare routes do.
 */
export function degreePitchClass(pc: PitchClass, scaleDegree: string, type: string, includeArabic: boolean, exactDeviation = false) {
  return {
    pitchClassIndex: pc.index,
    octave: pc.octave,
    scaleDegree,
    noteName: toIdName(pc.noteName),
    noteNameDisplay: pc.noteName,
    ...(includeArabic ? { noteNameDisplayAr: noteNameToArabic(pc.noteName) } : {}),
    ...(exactDeviation && type === "midiNoteDeviation"
      ? {
          midiNotePlusCentsDeviation: midiPlusCentsDeviation(pc.englishName, pc.ipnReferenceNoteName, pc.midiNoteDecimal, pc.centsDeviation, false),
        }
      : dataFields(pc, type)),
  };
}

/** One value field of an interval, as its own object (a computed key would lose the field's name in the type). */
export const INTERVAL_FIELD = {
  fraction: ({ fraction }: Interval) => ({ fraction }),
  cents: ({ cents }: Interval) => ({ cents }),
  decimalRatio: ({ decimalRatio }: Interval) => ({ decimalRatio }),
  stringLength: ({ stringLength }: Interval) => ({ stringLength }),
  fretDivision: ({ fretDivision }: Interval) => ({ fretDivision }),
};

export const isIntervalField = (type: string): type is keyof typeof INTERVAL_FIELD => Object.hasOwn(INTERVAL_FIELD, type);

/** Intervals between consecutive cells (0 → 1, 1 → 2, …). */
export const consecutiveIntervals = (cells: readonly PitchClass[]): Interval[] => cells.slice(1).map((pc, i) => intervalBetween(cells[i], pc));

/**
 * `{ascending, descending}` pitch data of a scale: ascending cells numbered I, II, …; descending
 * ones (top-down) with the bottom note as I; numerals stop after `last` (see romanNumeral).
 */
export const scalePitchData = <T>(
  ascending: readonly PitchClass[],
  descending: readonly PitchClass[],
  cell: (pc: PitchClass, numeral: string) => T,
  last?: number,
) => ({
  ascending: ascending.map((pc, k) => cell(pc, romanNumeral(k, last))),
  descending: descending.map((pc, j) => cell(pc, descendingNumeral(j, descending.length, last))),
});

/**
 * `{ascending, descending}` steps of a scale. Descending steps are measured upwards between the
 * adjacent cells and listed top-down (positive cents), as the reference lists them (Q13).
 */
export const scaleSteps = <T>(t: Transposition, fields: (interval: Interval) => T) => ({
  ascending: consecutiveIntervals(t.ascending).map(fields),
  descending: consecutiveIntervals([...t.descending].reverse())
    .reverse()
    .map(fields),
});
