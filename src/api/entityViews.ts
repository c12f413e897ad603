/**
 * Response pieces the maqām and jins endpoint groups share, parameterised by entity kind: entity
 * headers, list sorting, availability answers, the `/transpositions` answer and its 4xx, the
 * unreachable-tonic 400, pitch classes with scale degrees, discovery-mode conflicts and the
 * compare grid (cells, their counts and the top-level `parameters`).
 */
import { apiError, type ApiResponse } from "./errors.js";
import { apiUrl, queryString } from "./links.js";
import { dataFields, entityObject, noteNameArray, noteRef, tuningSystemEntity } from "./format.js";
import { transpositionSummary, type TuningContext } from "./resolve.js";
import type { RequestContext } from "./route.js";
import { entityNameToArabic, noteNameToArabic } from "../theory/arabic.js";
import { type Entity, firstNoteOf } from "../theory/entity.js";
import { cellOf, tonicPriority } from "../theory/noteName.js";
import type { PitchClass } from "../theory/pitchClass.js";
import { availabilityOf, isPossibleIn } from "../theory/realisation.js";
import { std } from "../theory/std.js";
import { transpositionsOf, transposedOnly, type Transposition } from "../theory/transposition.js";
import { findStartingNote, findTuningSystem, pitchClassesPerOctave, referenceFrequencyOf, type TuningSystem } from "../theory/tuningSystem.js";
import { midiPlusCentsDeviation } from "../theory/ipn.js";
import { intervalBetween, type Interval } from "../theory/interval.js";
import { descendingNumeral, romanNumeral } from "../theory/degrees.js";

/** How each kind is named in bodies, messages and paths. */
export const KIND = {
  maqam: { key: "maqam", word: "maqām", Word: "Maqām", collection: "/maqamat" },
  jins: { key: "jins", word: "jins", Word: "Jins", collection: "/ajnas" },
} as const;

/** `entityObject` of the selected transposition: its idName and display name in the entity's key order. */
export const selectionObject = (e: Entity, t: Transposition, includeArabic: boolean, extra: Record<string, unknown> = {}) => ({
  ...entityObject(e, false, extra),
  idName: t.idName,
  displayName: t.name,
  ...(includeArabic ? { displayNameAr: entityNameToArabic(t.name) } : {}),
});

/** `{english, arabic}`: the stored commentary, trimmed, `null` when empty. */
export const commentsOf = (e: Entity) => ({
  english: e.record.commentsEnglish.trim() || null,
  arabic: e.record.commentsArabic.trim() || null,
});

/** `[{sourceId, page}]` of an entity's page references. */
export const sourcesOf = (e: Entity) => e.record.sourcePageReferences.map(({ sourceId, page }) => ({ sourceId, page }));

/** The listed transpositions with their Arabic names (`availableTranspositions` entries). */
export const transpositionSummaries = (list: readonly Transposition[], includeArabic: boolean) =>
  list.map((t) => transpositionSummary(t, includeArabic, entityNameToArabic));

/** `{original, resolved}` tonics of a transposed selection, or nothing for the taḥlīl and its octave renderings. */
export const transpositionBlock = (e: Entity, t: Transposition, includeArabic: boolean) =>
  t.isTransposed ? { transposition: { original: noteRef(firstNoteOf(e), includeArabic), resolved: noteRef(t.tonic, includeArabic) } } : {};

// ---------------------------------------------------------------------------------------------
// Lists

/** ICU root collation as the reference compares idNames (`_` < `-` < `(` < `/` < digits < letters). */
const collation = new Intl.Collator("en-US");

export const SORT_OPTIONS = ["alphabetical", "tonic"] as const;
export type SortBy = (typeof SORT_OPTIONS)[number];

/** Sorts `{idName, tonicIdName}` keyed items alphabetically, or by tonic priority with the alphabetical tie-break. */
export function sortByNameOrTonic<T>(items: readonly T[], sortBy: SortBy, key: (item: T) => { idName: string; tonicIdName: string }): T[] {
  const alphabetical = (a: T, b: T) => collation.compare(key(a).idName, key(b).idName);
  const byTonic = (a: T, b: T) => tonicPriority(key(a).tonicIdName) - tonicPriority(key(b).tonicIdName) || alphabetical(a, b);
  return [...items].sort(sortBy === "tonic" ? byTonic : alphabetical);
}

/** `{tuningSystems: [{tuningSystem, startingNotes}]}` of a list item, and the number of systems. */
export function availabilitySummary(e: Entity, includeArabic: boolean) {
  const availability = availabilityOf(e);
  return {
    count: availability.length,
    availability: {
      tuningSystems: availability.map(({ tuningSystem, startingNotes }) => ({
        tuningSystem: tuningSystemEntity(tuningSystem, includeArabic),
        startingNotes: noteNameArray(startingNotes, includeArabic),
      })),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Availability

/**
 * `/{kind}/{idName}/availability`: tuning systems and starting notes whose adjacent-octave name
 * sets realise the entity (three registers, so ajnās spanning octaves are found), optionally only
 * those whose transposition list (taḥlīl included) has an entry on `tonic`.
 */
export function availabilityAnswer(e: Entity, tonic: string | undefined, tolerance: number, includeArabic: boolean) {
  const hasTonic = (ts: TuningSystem, startingNote: string) =>
    tonic === undefined || transpositionsOf(e, ts, startingNote, tolerance).some((t) => std(t.tonic) === std(tonic));
  const tuningSystems = availabilityOf(e)
    .map(({ tuningSystem, startingNotes }) => ({ ts: tuningSystem, startingNotes: startingNotes.filter((s) => hasTonic(tuningSystem, s)) }))
    .filter(({ startingNotes }) => startingNotes.length > 0)
    .map(({ ts, startingNotes }) => ({
      tuningSystemId: ts.id,
      tuningSystemDisplayName: ts.displayName,
      ...(includeArabic ? { tuningSystemDisplayNameAr: ts.displayNameAr } : {}),
      tuningSystemStartingNoteNames: startingNotes,
      ...(includeArabic ? { tuningSystemStartingNoteNamesAr: startingNotes.map(noteNameToArabic) } : {}),
      tuningSystemStartingNoteNamesIds: startingNotes.map(std),
    }));
  return { [KIND[e.kind].key]: entityObject(e, includeArabic), availability: { count: tuningSystems.length, tuningSystems } };
}

// ---------------------------------------------------------------------------------------------
// Transpositions

/** A transposed idName where only a base idName is accepted; the hint names the base. */
export const transposedIdNotAccepted = (given: string, base: Entity, route: string) =>
  apiError({
    error: `'${given}' is a transposition; this route takes a base idName`,
    message: `${route} lists the transpositions of a base ${KIND[base.kind].word}, so the path must name the base idName or its numeric id.`,
    hint: `Use ${KIND[base.kind].collection}/${base.idName}${route}`,
  });

/** The requested tonic is not in the transposition list of this tuning system and starting note. */
export const unreachableTonic = (raw: string, list: readonly Transposition[], includeArabic: boolean) =>
  apiError({
    error: `Cannot transpose to '${raw}' in this tuning system`,
    message: "The tonic must be one on which the interval pattern can be built in this tuning system and starting note.",
    hint: "Pick one of availableTranspositions, or drop the tonic for the analytical form.",
    extra: { availableTranspositions: transpositionSummaries(transposedOnly(list), includeArabic) },
  });

/** 422: some note name of the entity is missing from the pitch classes of the tuning context. */
export const notRealizable = (e: Entity, { ts, startingNote }: TuningContext) =>
  apiError({
    status: 422,
    error: `${KIND[e.kind].Word} '${e.name}' cannot be realized in tuning system '${ts.id}' with starting note '${startingNote}'`,
    message: `Not every note name of this ${KIND[e.kind].word} is among the pitch classes of that tuning system and starting note.`,
    hint: `Use /api${KIND[e.kind].collection}/${e.idName}/availability to see compatible tuning systems`,
  });

const noDistinctTranspositions = (e: Entity, { ts, startingNote }: TuningContext) =>
  apiError({
    status: 422,
    error: `No distinct transpositions (taswīr) are available for ${KIND[e.kind].word} '${e.name}' in tuning system '${ts.id}' with starting note '${startingNote}'`,
    message: `This ${KIND[e.kind].word} can be built here only in its original modal position (and its octave equivalents).`,
    hint: `Use /api${KIND[e.kind].collection}/${e.idName} for the detail response, or /api${KIND[e.kind].collection}/${e.idName}/availability to explore other tuning systems and starting notes.`,
  });

/**
 * Canonical query (sorted, so a pre-rendered file answers it) of a detail link in a tuning
 * context; a tolerance the request gave is passed on, since it decides which tonics exist.
 */
export const contextQuery = (ctx: RequestContext, { ts, startingNote }: TuningContext, tolerance: number) =>
  queryString([
    ["centsTolerance", ctx.query.has("centsTolerance") ? String(tolerance) : undefined],
    ["startingNote", std(startingNote)],
    ["tuningSystem", ts.id],
  ]);

/**
 * The distinct transpositions: one entry per modal degree other than the taḥlīl's. Register
 * variants of a degree are not distinct (spec); the register nearest the taḥlīl is kept (the
 * lower one on a tie), and the degrees are listed in pitch order.
 */
export function distinctTranspositions(list: readonly Transposition[]): Transposition[] {
  if (list.length === 0) return [];
  const reference = list[0].ascending[0].cents;
  const distance = (t: Transposition) => Math.abs(t.ascending[0].cents - reference);
  const bySlot = new Map<number, Transposition>();
  for (const t of transposedOnly(list)) {
    const slot = cellOf(t.tonic).index;
    const kept = bySlot.get(slot);
    if (!kept || distance(t) < distance(kept)) bySlot.set(slot, t);
  }
  return [...bySlot.values()].sort((a, b) => a.ascending[0].cents - b.ascending[0].cents);
}

/**
 * `/{kind}/{idName}/transpositions`: the distinct transpositions of a base entity in one tuning
 * system and starting note; 422 when the entity cannot be built there or has no distinct one.
 * `detailed` entries get `extra(t)` between `pitchClass` and `links` (the maqām degree blocks).
 */
export function transpositionsAnswer(
  ctx: RequestContext,
  e: Entity,
  tuning: TuningContext,
  tolerance: number,
  includeArabic: boolean,
  extra: (t: Transposition) => Record<string, unknown> = () => ({}),
): ApiResponse {
  const { ts, startingNote } = tuning;
  if (!isPossibleIn(e, ts, startingNote)) return notRealizable(e, tuning);
  const distinct = distinctTranspositions(transpositionsOf(e, ts, startingNote, tolerance));
  if (distinct.length === 0) return noDistinctTranspositions(e, tuning);
  const collection = KIND[e.kind].collection;
  const startingNoteId = std(startingNote);
  const detailQuery = contextQuery(ctx, tuning, tolerance);
  return {
    status: 200,
    body: {
      [KIND[e.kind].key]: entityObject(e, includeArabic),
      tuningSystem: tuningSystemEntity(ts, includeArabic, { numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts) }),
      startingNote: noteRef(startingNote, includeArabic),
      transpositions: {
        total: distinct.length,
        options: {
          idNames: distinct.map((t) => t.idName),
          displayNames: distinct.map((t) => t.name),
          ...(includeArabic ? { displayNamesAr: distinct.map((t) => entityNameToArabic(t.name)) } : {}),
        },
        detailed: distinct.map((t) => ({
          ...transpositionSummary(t, includeArabic, entityNameToArabic),
          pitchClass: { pitchClassIndex: t.ascending[0].index, octave: t.ascending[0].octave },
          ...extra(t),
          links: { detail: apiUrl(ctx, `${collection}/${t.idName}${detailQuery}`) },
        })),
      },
      links: {
        self: apiUrl(ctx, `${collection}/${e.idName}/transpositions${queryString([["tuningSystem", ts.id], ["startingNote", startingNoteId]])}`),
        availability: apiUrl(ctx, `${collection}/${e.idName}/availability`),
        detail: apiUrl(ctx, `${collection}/${e.idName}`),
      },
    },
  };
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
    noteName: std(pc.noteName),
    noteNameDisplay: pc.noteName,
    ...(includeArabic ? { noteNameDisplayAr: noteNameToArabic(pc.noteName) } : {}),
    ...(exactDeviation && type === "midiNoteDeviation"
      ? {
          midiNotePlusCentsDeviation: midiPlusCentsDeviation(pc.englishName, pc.ipnReferenceNoteName, pc.midiNoteDecimal, pc.centsDeviation, false),
        }
      : dataFields(pc, type)),
  };
}

/** Intervals between consecutive cells (0 → 1, 1 → 2, …). */
export const consecutiveIntervals = (cells: readonly PitchClass[]): Interval[] => cells.slice(1).map((pc, i) => intervalBetween(cells[i], pc));

/**
 * `{ascending, descending}` pitch data of a scale: ascending cells numbered I, II, …; descending
 * ones (top-down) with the bottom note as I; numerals stop after `last` (see romanNumeral).
 */
export const scalePitchData = <T>(ascending: readonly PitchClass[], descending: readonly PitchClass[], cell: (pc: PitchClass, numeral: string) => T, last?: number) => ({
  ascending: ascending.map((pc, k) => cell(pc, romanNumeral(k, last))),
  descending: descending.map((pc, j) => cell(pc, descendingNumeral(j, descending.length, last))),
});

/**
 * `{ascending, descending}` steps of a scale. Descending steps are measured upwards between the
 * adjacent cells and listed top-down (positive cents), as the reference lists them (Q13).
 */
export const scaleSteps = <T>(t: Transposition, fields: (interval: Interval) => T) => ({
  ascending: consecutiveIntervals(t.ascending).map(fields),
  descending: consecutiveIntervals([...t.descending].reverse()).reverse().map(fields),
});

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

// ---------------------------------------------------------------------------------------------
// Compare

/** Numerals stop at XIII in the compare routes (§6.6). */
export const COMPARE_NUMERALS = 13;

/**
 * The N × M grid of a compare answer, tuning systems outside, starting notes inside, in the order
 * given. An unknown tuning system and an unrealisable cell carry `error`; a starting note the
 * system lacks carries the informational `note`; `compute` builds every other cell (a failure it
 * reports has `error`). So successful + unavailable + failed === total by construction.
 */
export function compareGrid(
  tuningSystemIds: readonly string[],
  startingNoteTokens: readonly string[],
  includeArabic: boolean,
  compute: (tuning: TuningContext) => Record<string, unknown>,
) {
  const data = tuningSystemIds.flatMap((id) => {
    const ts = findTuningSystem(id);
    return startingNoteTokens.map((token): Record<string, unknown> => {
      if (!ts)
        return { tuningSystem: { id, idName: std(id), displayName: id }, startingNote: noteRef(token, includeArabic), error: `Tuning system '${id}' not found` };
      const startingNote = findStartingNote(ts, token);
      if (startingNote) return compute({ ts, startingNote });
      return {
        tuningSystem: tuningSystemEntity(ts, includeArabic),
        startingNote: noteRef(token, includeArabic),
        note: `Starting note '${token}' is not available in tuning system '${ts.displayName}'`,
        validStartingNotes: noteNameArray(ts.startingNotes, includeArabic),
      };
    });
  });
  const unavailable = data.filter((c) => "note" in c).length;
  const failed = data.filter((c) => "error" in c).length;
  return {
    count: data.length,
    totalComparisons: data.length,
    successfulComparisons: data.length - unavailable - failed,
    unavailableStartingNotes: unavailable,
    failedComparisons: failed,
    data,
  };
}

/** A cell's failure when the entity is not realisable in its tuning system and starting note. */
export const unrealisableCell = (e: Entity, { ts, startingNote }: TuningContext, includeArabic: boolean) => ({
  tuningSystem: tuningSystemEntity(ts, includeArabic),
  startingNote: noteRef(startingNote, includeArabic),
  error: `${KIND[e.kind].Word} '${e.name}' cannot be realized in this tuning system configuration`,
});

/** A cell's failure when `transposeTo` is not reachable there. */
export const unreachableCell = ({ ts, startingNote }: TuningContext, raw: string, list: readonly Transposition[], includeArabic: boolean) => ({
  tuningSystem: tuningSystemEntity(ts, includeArabic),
  startingNote: noteRef(startingNote, includeArabic),
  transposeTo: raw,
  error: `Cannot transpose to '${raw}' in this tuning system`,
  availableTranspositions: transpositionSummaries(transposedOnly(list), includeArabic),
});

/** `stats.tuningSystem` of a compare cell. */
export const cellTuningStats = ({ ts, startingNote }: TuningContext) => ({
  numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts),
  referenceFrequency: referenceFrequencyOf(ts, startingNote),
});

/** `parameters.tuningSystems` / `parameters.startingNotes` of a compare answer: the tokens as given. */
export const compareTokens = (tuningSystemIds: readonly string[], startingNoteTokens: readonly string[], includeArabic: boolean) => ({
  tuningSystems: { idNames: tuningSystemIds.map(std), displayNames: [...tuningSystemIds] },
  startingNotes: noteNameArray(startingNoteTokens, includeArabic),
});
