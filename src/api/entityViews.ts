/**
 * What the maqām and jins endpoint groups share, parameterised by entity kind: the routes that
 * differ only in kind (`/availability`, `/transpositions`, `/compare`, the last with the kind's own
 * cell parts) and response pieces — entity headers, list sorting, the rendering a detail answer
 * shows and its 4xx, pitch classes with scale degrees, discovery mode and the compare grid.
 */
import { apiError, ok, type ApiResponse } from "./errors.js";
import { apiUrl, queryString, selfUrl } from "./links.js";
import { KIND, PITCH_CLASS_DATA_TYPES, dataFields, entityObject, noteNameArray, noteRef, tuningSystemEntity } from "./format.js";
import { MAX_COMPARE_CELLS, tooMany, tuningSystemIds, type ParamDeclaration, type ParamDeclarations, type ParsedParams } from "./params.js";
import {
  centsTolerance,
  includeArabic,
  list,
  oneOf,
  optionalText,
  pathParam,
  pitchClassDataType,
  startingNotePath,
  strictBoolean,
  tuningSystemIdPath,
  tuningContextParams,
  tuningSystemList,
} from "./declare.js";
import {
  isResponse,
  requestedTonic,
  resolveEntity,
  resolveTuning,
  selectedTransposition,
  transpositionSummary,
  type TuningContext,
} from "./resolve.js";
import { defineRoute, type PrerenderOptions, type RequestContext } from "./route.js";
import { entityNameToArabic, noteNameToArabic } from "../theory/arabic.js";
import { type Entity, firstNoteOf } from "../theory/entity.js";
import type { Catalog } from "../theory/catalog.js";
import { pitchClassesOf, type PitchClass } from "../theory/pitchClass.js";
import { adjacentOctaveNames, availabilityOf, isPossibleIn } from "../theory/realisation.js";
import { std } from "../theory/std.js";
import { transpositionsOf, transposedOnly, type Transposition } from "../theory/transposition.js";
import { findStartingNote, pitchClassesPerOctave, referenceFrequencyOf, type TuningSystem } from "../theory/tuningSystem.js";
import { midiPlusCentsDeviation } from "../theory/ipn.js";
import { intervalBetween, type Interval } from "../theory/interval.js";
import { descendingNumeral, romanNumeral } from "../theory/degrees.js";

type Kind = Entity["kind"];
type EntityOf<K extends Kind> = Extract<Entity, { kind: K }>;

/** Where a request without a tuning context can find the systems that realise the entity. */
export const availabilityHint = (e: Entity) =>
  ` or /api${KIND[e.kind].collection}/${e.idName}/availability for the systems that realise this ${KIND[e.kind].word}`;

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
export function sortByNameOrTonic<T>(cat: Catalog, items: readonly T[], sortBy: SortBy, key: (item: T) => { idName: string; tonicIdName: string }): T[] {
  const alphabetical = (a: T, b: T) => collation.compare(key(a).idName, key(b).idName);
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
        tuningSystem: tuningSystemEntity(tuningSystem, includeArabic),
        startingNotes: noteNameArray(startingNotes, includeArabic),
      })),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Per-tuning-system lists

/** The starting note's name set with its neighbours an octave either side: the lists realise entities in it. */
export const startingNoteNameSet = (cat: Catalog, { ts, startingNote }: TuningContext) =>
  adjacentOctaveNames(cat, ts, ts.record.noteNames.findIndex((set) => set[0] === startingNote));

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
  });


/**
 * The answer of GET /tuning-systems/{id}/{startingNote}/{maqamat|ajnas}: the kind's `data` and
 * `stats` framed by the tuning system, its starting notes and links; the reference frequency
 * closes `stats`.
 */
export function perTuningSystemAnswer(ctx: RequestContext, kind: Kind, { ts, startingNote }: TuningContext, includeArabic: boolean, stats: object, data: unknown[]) {
  return ok({
    tuningSystem: tuningSystemEntity(ts, includeArabic, { year: ts.record.year, numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts) }),
    startingNotes: noteNameArray(ts.startingNotes, includeArabic),
    selectedStartingNote: noteRef(startingNote, includeArabic),
    stats: { ...stats, referenceFrequency: referenceFrequencyOf(ts, startingNote) },
    data,
    links: {
      self: apiUrl(ctx, ctx.path),
      tuningSystem: apiUrl(ctx, `/tuning-systems/${ts.id}`),
      collection: apiUrl(ctx, KIND[kind].collection),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Availability

/**
 * `/{kind}/{idName}/availability`: tuning systems and starting notes whose adjacent-octave name
 * sets realise the entity (three registers, so ajnās spanning octaves are found), optionally only
 * those whose transposition list (taḥlīl included) has an entry on `tonic`.
 */
function availabilityAnswer(cat: Catalog, e: Entity, tonic: string | undefined, tolerance: number, includeArabic: boolean) {
  const hasTonic = (ts: TuningSystem, startingNote: string) =>
    tonic === undefined || transpositionsOf(cat, e, ts, startingNote, tolerance).some((t) => std(t.tonic) === std(tonic));
  const tuningSystems = availabilityOf(cat, e)
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

/** GET /{kind}/{idName}/availability; a transposed idName selects its tonic. */
export const availabilityRoute = (kind: Kind) =>
  defineRoute({
    path: `${KIND[kind].collection}/{idName+}/availability`,
    summary: `The tuning systems and starting notes in which a ${KIND[kind].word} can be built.`,
    params: {
      idName: entityPath(kind),
      transpositionNoteName: optionalText({
        blank: "error",
        description: "Only where a transposition to this tonic exists.",
        example: "nawa",
        hint: "Give a tonic note name such as transpositionNoteName=nawa, or leave it out.",
      }),
      includeArabic: includeArabic(),
      centsTolerance: centsTolerance(),
    },
    handle: (p, { catalog: cat }) => {
      const ref = resolveEntity(cat, kind, p.idName);
      if (isResponse(ref)) return ref;
      const tonic = requestedTonic(cat, ref, "transpositionNoteName", p.transpositionNoteName, "/availability");
      if (isResponse(tonic)) return tonic;
      return ok(availabilityAnswer(cat, ref.entity, tonic, p.centsTolerance, p.includeArabic));
    },
  });

// ---------------------------------------------------------------------------------------------
// Transpositions

/** A transposed idName where only a base idName is accepted; the hint names the base. */
const transposedIdNotAccepted = (given: string, base: Entity, route: string) =>
  apiError({
    error: `'${given}' is a transposition; this route takes a base idName`,
    message: `${route} lists the transpositions of a base ${KIND[base.kind].word}, so the path must name the base idName or its numeric id.`,
    hint: `Use ${KIND[base.kind].collection}/${base.idName}${route}`,
  });

/** The requested tonic is not in the transposition list of this tuning system and starting note. */
const unreachableTonic = (raw: string, list: readonly Transposition[], includeArabic: boolean) =>
  apiError({
    error: `Cannot transpose to '${raw}' in this tuning system`,
    message: "The tonic must be one on which the interval pattern can be built in this tuning system and starting note.",
    hint: "Pick one of availableTranspositions, or drop the tonic for the analytical form.",
    extra: { availableTranspositions: transpositionSummaries(transposedOnly(list), includeArabic) },
  });

/** 422: some note name of the entity is missing from the pitch classes of the tuning context. */
const notRealizable = (e: Entity, { ts, startingNote }: TuningContext) =>
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
export function distinctTranspositions(cat: Catalog, list: readonly Transposition[]): Transposition[] {
  if (list.length === 0) return [];
  const reference = list[0].ascending[0].cents;
  const distance = (t: Transposition) => Math.abs(t.ascending[0].cents - reference);
  const bySlot = new Map<number, Transposition>();
  for (const t of transposedOnly(list)) {
    const slot = cat.notes.cellOf(t.tonic).index;
    const kept = bySlot.get(slot);
    if (!kept || distance(t) < distance(kept)) bySlot.set(slot, t);
  }
  return [...bySlot.values()].sort((a, b) => a.ascending[0].cents - b.ascending[0].cents);
}

/**
 * The renderings whose detail answers are pre-rendered: the taḥlīl and one register per
 * transposed degree (the ones `/transpositions` lists). Octave renderings and other registers
 * stay with the fallback, which keeps the static tree within a static host's size limit; the
 * `full` profile takes every rendering (about 4 GB with the Arabic variants).
 */
export function prerenderedRenderings(cat: Catalog, list: readonly Transposition[], { full }: PrerenderOptions): Transposition[] {
  if (full) return list.filter((t, i) => list.findIndex((u) => u.idName === t.idName) === i);
  const base = list[0]?.isBaseForm ? [list[0]] : [];
  return [...base, ...distinctTranspositions(cat, list)];
}

/** Query prefixes of the pre-rendered detail variants (sorted names: `includeArabic` first). */
export const detailQueryPrefixes = ({ full }: PrerenderOptions): readonly string[] => (full ? ["", "includeArabic=true&"] : [""]);

/**
 * `/{kind}/{idName}/transpositions`: the distinct transpositions of a base entity in one tuning
 * system and starting note; 422 when the entity cannot be built there or has no distinct one.
 * `detailed` entries get `extra(t)` between `pitchClass` and `links` (the maqām degree blocks).
 */
function transpositionsAnswer(
  ctx: RequestContext,
  e: Entity,
  tuning: TuningContext,
  tolerance: number,
  includeArabic: boolean,
  extra: (t: Transposition) => Record<string, unknown>,
): ApiResponse {
  const cat = ctx.catalog;
  const { ts, startingNote } = tuning;
  if (!isPossibleIn(cat, e, ts, startingNote)) return notRealizable(e, tuning);
  const distinct = distinctTranspositions(cat, transpositionsOf(cat, e, ts, startingNote, tolerance));
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

/** Fields a kind adds to each detailed transposition (the maqām's named degrees). */
type TranspositionExtra<K extends Kind> = (cat: Catalog, e: EntityOf<K>, t: Transposition, tuning: TuningContext, tolerance: number, includeArabic: boolean) => Record<string, unknown>;

/** GET /{kind}/{idName}/transpositions of a base idName. */
export const transpositionsRoute = <K extends Kind>(kind: K, extra: TranspositionExtra<K> = () => ({})) =>
  defineRoute({
    path: `${KIND[kind].collection}/{idName+}/transpositions`,
    summary: `The distinct transpositions (taṣwīr) of a ${KIND[kind].word} in one tuning system and starting note.`,
    unprocessable: true,
    params: {
      idName: entityPath(kind),
      ...tuningContextParams(),
      includeArabic: includeArabic(),
      centsTolerance: centsTolerance(),
    },
    handle: (p, ctx) => {
      const cat = ctx.catalog;
      const ref = resolveEntity(cat, kind, p.idName);
      if (isResponse(ref)) return ref;
      const e = ref.entity;
      if (ref.tonic !== undefined) return transposedIdNotAccepted(p.idName, e, "/transpositions");
      const tuning = resolveTuning(cat, p.tuningSystem, p.startingNote, availabilityHint(e));
      if (isResponse(tuning)) return tuning;
      return transpositionsAnswer(ctx, e, tuning, p.centsTolerance, p.includeArabic, (t) => extra(cat, e, t, tuning, p.centsTolerance, p.includeArabic));
    },
  });

// ---------------------------------------------------------------------------------------------
// Detail

const TRANSPOSE_TO = "Transpose to this tonic (taṣwīr); absent for the analytical form (taḥlīl).";

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
 * names the system's starting notes.
 */
export function flatTuningContext(cat: Catalog, { ts, startingNote }: TuningContext, includeArabic: boolean, withStartingNotes: boolean) {
  const pcs = pitchClassesOf(cat, ts, startingNote);
  return {
    id: ts.id,
    displayName: ts.displayName,
    ...(includeArabic ? { displayNameAr: ts.displayNameAr } : {}),
    ...(includeArabic && withStartingNotes
      ? { tuningSystemStartingNoteNamesAr: ts.startingNotes.map(noteNameToArabic), startingNoteNameAr: noteNameToArabic(startingNote) }
      : {}),
    version: ts.record.version,
    originalValueType: pcs.length ? ts.valueType : "unknown",
    numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts),
    numberOfPitchClassesAllOctaves: pcs.length,
    ...(withStartingNotes ? { tuningSystemStartingNoteNames: ts.startingNotes, tuningSystemStartingNoteNamesIds: ts.startingNotes.map(std) } : {}),
    startingNoteName: std(startingNote),
    referenceFrequency: referenceFrequencyOf(ts, startingNote),
  };
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
): { list: readonly Transposition[]; t: Transposition } | ApiResponse {
  const list = transpositionsOf(cat, e, tuning.ts, tuning.startingNote, tolerance);
  if (!realisable || list.length === 0) return notRealizable(e, tuning);
  const t = selectedTransposition(list, tonic);
  // The list is not empty, so only a requested tonic can miss.
  return t ? { list, t } : unreachableTonic(tonic ?? "", list, includeArabic);
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

/**
 * A parameter as discovery mode describes it, read off its declaration: enumerations as
 * `{options, required, default}`, switches and numbers as `{type, default}`.
 */
export function discoveryEntry(d: ParamDeclaration, description: string) {
  if (d.accepts.shape === "enum") return { options: [...d.accepts.values], required: d.required, default: d.default, description };
  return { type: d.type, default: d.default, description };
}

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
 * What discovery mode offers in a tuning system: its starting-note idNames, the tonics the entity
 * reaches from the given starting note (null without one) and the stem of the example requests.
 * The starting note is optional here: without one, the first is used only to validate the rest.
 */
export function discoveryOffer(cat: Catalog, e: Entity, idName: string, tuningSystem: string | undefined, startingNote: string | undefined, tolerance: number) {
  const tuning = resolveTuning(cat, tuningSystem, startingNote ?? cat.findTuningSystem(tuningSystem ?? "")?.startingNotes[0], availabilityHint(e));
  if (isResponse(tuning)) return tuning;
  const { ts } = tuning;
  const startingNotes = ts.startingNotes.map(std);
  const tonics = startingNote === undefined ? null : transpositionsOf(cat, e, ts, tuning.startingNote, tolerance).map((t) => std(t.tonic));
  const example = `/api${KIND[e.kind].collection}/${idName}?tuningSystem=${tuningSystem}&startingNote=${startingNote === undefined ? startingNotes[0] : std(tuning.startingNote)}`;
  return { startingNotes, tonics, example };
}

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
function compareGrid(
  cat: Catalog,
  tuningSystemIds: readonly string[],
  startingNoteTokens: readonly string[],
  includeArabic: boolean,
  compute: (tuning: TuningContext) => Record<string, unknown>,
) {
  const data = tuningSystemIds.flatMap((id) => {
    const ts = cat.findTuningSystem(id);
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
const unrealisableCell = (e: Entity, { ts, startingNote }: TuningContext, includeArabic: boolean) => ({
  tuningSystem: tuningSystemEntity(ts, includeArabic),
  startingNote: noteRef(startingNote, includeArabic),
  error: `${KIND[e.kind].Word} '${e.name}' cannot be realized in this tuning system configuration`,
});

/** A cell's failure when `transposeTo` is not reachable there. */
const unreachableCell = ({ ts, startingNote }: TuningContext, raw: string, list: readonly Transposition[], includeArabic: boolean) => ({
  tuningSystem: tuningSystemEntity(ts, includeArabic),
  startingNote: noteRef(startingNote, includeArabic),
  transposeTo: raw,
  error: `Cannot transpose to '${raw}' in this tuning system`,
  availableTranspositions: transpositionSummaries(transposedOnly(list), includeArabic),
});

/** `stats.tuningSystem` of a compare cell. */
const cellTuningStats = ({ ts, startingNote }: TuningContext) => ({
  numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts),
  referenceFrequency: referenceFrequencyOf(ts, startingNote),
});

/** `parameters.tuningSystems` / `parameters.startingNotes` of a compare answer: the tokens as given. */
const compareTokens = (tuningSystemIds: readonly string[], startingNoteTokens: readonly string[], includeArabic: boolean) => ({
  tuningSystems: { idNames: tuningSystemIds.map(std), displayNames: [...tuningSystemIds] },
  startingNotes: noteNameArray(startingNoteTokens, includeArabic),
});

const compareParams = (kind: Kind) => ({
  idName: entityPath(kind),
  tuningSystems: tuningSystemList({ min: 1 }),
  startingNotes: list({
    description: "Comma-separated starting notes, tried in each tuning system.",
    example: "yegah,rast",
    hint: "Use startingNotes=yegah,rast.",
  }),
  pitchClassDataType: pitchClassDataType(PITCH_CLASS_DATA_TYPES, "all"),
  includeIntervals: strictBoolean("Include the steps between consecutive pitch classes.", { exact: true }),
  // An empty transposeTo is the analytical form, as in the reference.
  transposeTo: optionalText({ blank: "absent", description: TRANSPOSE_TO, example: "nawa" }),
  includeArabic: includeArabic(),
  centsTolerance: centsTolerance(),
});
type CompareParameters = ParsedParams<ReturnType<typeof compareParams>>;

/** What a compare cell shows of its rendering besides the fields every kind shares. */
interface CompareCellParts {
  /** Fields of the entity object after its version (the maqām family). */
  selectionExtra?: Record<string, unknown>;
  /** `stats.<kind>`. */
  stats: Record<string, unknown>;
  pitchData: unknown;
  /** The jins on each degree (maqāmāt only), after the pitch data. */
  ajnas?: unknown;
  /** The steps, computed only when includeIntervals asks for them. */
  intervals: () => unknown;
}

/** A kind's parts of the cell showing `t`, taken from `list` in the cell's tuning context. */
export type CompareCellPartsOf<E extends Entity> = (
  t: Transposition,
  p: CompareParameters,
  cell: { cat: Catalog; entity: E; list: readonly Transposition[]; tuning: TuningContext },
) => CompareCellParts;

/** One successful or failed cell of a compare answer. */
function compareCell<E extends Entity>(ctx: RequestContext, e: E, tuning: TuningContext, p: CompareParameters, tonic: string | undefined, partsOf: CompareCellPartsOf<E>) {
  const cat = ctx.catalog;
  const { ts, startingNote } = tuning;
  if (!isPossibleIn(cat, e, ts, startingNote)) return unrealisableCell(e, tuning, p.includeArabic);
  const list = transpositionsOf(cat, e, ts, startingNote, p.centsTolerance);
  const t = selectedTransposition(list, tonic);
  if (!t) return tonic === undefined ? unrealisableCell(e, tuning, p.includeArabic) : unreachableCell(tuning, tonic, list, p.includeArabic);
  const parts = partsOf(t, p, { cat, entity: e, list, tuning });
  const { key, collection } = KIND[e.kind];
  const detailQuery = queryString([
    ["tuningSystem", ts.id],
    ["startingNote", startingNote],
    ["pitchClassDataType", p.pitchClassDataType],
    ["includeIntervals", String(p.includeIntervals)],
    ["transposeTo", tonic],
  ]);
  return {
    tuningSystem: tuningSystemEntity(ts, p.includeArabic),
    startingNote: noteRef(startingNote, p.includeArabic),
    [key]: selectionObject(e, t, p.includeArabic, parts.selectionExtra),
    tonic: noteRef(t.tonic, p.includeArabic),
    ...transpositionBlock(e, t, p.includeArabic),
    stats: { tuningSystem: cellTuningStats(tuning), [key]: parts.stats },
    availableTranspositions: transpositionSummaries(transposedOnly(list), p.includeArabic),
    pitchData: parts.pitchData,
    ...(parts.ajnas === undefined ? {} : { ajnas: parts.ajnas }),
    parameters: { pitchClassDataType: p.pitchClassDataType, includeIntervals: p.includeIntervals, transposeTo: tonic ?? null },
    links: {
      detail: apiUrl(ctx, `${collection}/${e.idName}${detailQuery}`),
      availability: apiUrl(ctx, `${collection}/${e.idName}/availability`),
    },
    ...(p.includeIntervals ? { intervals: parts.intervals() } : {}),
  };
}

/** GET /{kind}/{idName}/compare: one rendering per tuning system × starting note, its kind's parts from `partsOf`. */
export const compareRoute = <K extends Kind>(kind: K, partsOf: CompareCellPartsOf<EntityOf<K>>) =>
  defineRoute({
    path: `${KIND[kind].collection}/{idName+}/compare`,
    summary: `A ${KIND[kind].word} realised in several tuning systems and starting notes, side by side.`,
    params: compareParams(kind),
    computed: true,
    handle: (p, ctx) => {
    const cat = ctx.catalog;
    const ids = tuningSystemIds(cat, p.tuningSystems);
    const cells = ids.length * p.startingNotes.length;
    if (cells > MAX_COMPARE_CELLS)
      return apiError(tooMany("comparisons", cells, MAX_COMPARE_CELLS, "Ask for fewer tuningSystems × startingNotes, or split the request."));
    const ref = resolveEntity(cat, kind, p.idName);
    if (isResponse(ref)) return ref;
    const tonic = requestedTonic(cat, ref, "transposeTo", p.transposeTo, "/compare");
    if (isResponse(tonic)) return tonic;
    const e = ref.entity;
    const { key, collection } = KIND[kind];
    return ok({
      [key]: entityObject(e, p.includeArabic),
      comparisons: compareGrid(cat, ids, p.startingNotes, p.includeArabic, (tuning) => compareCell(ctx, e, tuning, p, tonic, partsOf)),
      parameters: {
        ...compareTokens(ids, p.startingNotes, p.includeArabic),
        pitchClassDataType: p.pitchClassDataType,
        includeIntervals: p.includeIntervals,
        transposeTo: tonic ?? null,
        centsTolerance: p.centsTolerance,
      },
      links: {
        self: selfUrl(ctx),
        detail: apiUrl(ctx, `${collection}/${e.idName}`),
        availability: apiUrl(ctx, `${collection}/${e.idName}/availability`),
      },
    });
  },
  });
