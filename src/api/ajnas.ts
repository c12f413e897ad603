/**
 * The ajnās group: GET /ajnas, /ajnas/{idName} (data and discovery mode), its /availability,
 * /transpositions and /compare, and GET /tuning-systems/{id}/{startingNote}/ajnas. A transposed
 * idName may name a tonic containing `/` (`…_al_buselik/ushshaq`), so the path parameter is
 * greedy and the sub-routes are matched before the detail route.
 */
import { z } from "zod";
import { ok, type ApiResponse } from "./errors.js";
import { defineRoute } from "./route.js";
import {
  centsTolerance,
  emptyAsAbsent,
  flag,
  includeArabic,
  oneOf,
  optionalNonBlank,
  pathParameter,
  requiredList,
  strictBoolean,
  tuningSystemList,
} from "./params.js";
import { apiUrl, queryString, selfUrl } from "./links.js";
import { PITCH_CLASS_DATA_TYPES, entityObject, noteNameArray, noteRef, tuningSystemEntity } from "./format.js";
import {
  isResponse,
  requestedTonic,
  resolveEntity,
  resolveTuning,
  resolveTuningPath,
  selectedTransposition,
  transpositionSummary,
  type TuningContext,
} from "./resolve.js";
import {
  COMPARE_NUMERALS,
  SORT_OPTIONS,
  availabilityAnswer,
  availabilitySummary,
  cellTuningStats,
  commentsOf,
  compareGrid,
  compareTokens,
  consecutiveIntervals,
  contextQuery,
  degreePitchClass,
  distinctTranspositions,
  optionsConflict,
  notRealizable,
  selectionObject,
  sortByNameOrTonic,
  sourcesOf,
  transposedIdNotAccepted,
  transpositionBlock,
  transpositionSummaries,
  transpositionsAnswer,
  unreachableTonic,
  unrealisableCell,
  unreachableCell,
} from "./entityViews.js";
import { entityNameToArabic } from "../theory/arabic.js";
import { ajnas, firstNoteOf, type Jins } from "../theory/entity.js";
import { romanNumeral } from "../theory/degrees.js";
import { pitchClassesOf, type PitchClass } from "../theory/pitchClass.js";
import { adjacentOctaveNames, isPossible, isPossibleIn, isPossibleInSomeSet } from "../theory/realisation.js";
import { std } from "../theory/std.js";
import { transpositionsOf, transposedOnly } from "../theory/transposition.js";
import { findTuningSystem, pitchClassesPerOctave, referenceFrequencyOf, tuningSystems } from "../theory/tuningSystem.js";

const COLLECTION = "/ajnas";
const TRANSPOSE_HINT = "Give a tonic note name such as transposeTo=nawa, or leave the parameter out for the analytical form.";

/** A jins by id, idName or transposed idName (any spelling), or the 404. */
const resolveJins = (idName: string) => resolveEntity("jins", idName);

/** Sort key of the alphabetical and tonic orders. */
const jinsSortKey = (jins: Jins) => ({ idName: jins.idName, tonicIdName: std(firstNoteOf(jins)) });

const availabilityHint = (jins: Jins) => ` or /api${COLLECTION}/${jins.idName}/availability for the systems that realise this jins`;

// ---------------------------------------------------------------------------------------------
// GET /ajnas

const listRoute = defineRoute(
  COLLECTION,
  z.object({
    filterByTonic: optionalNonBlank("filterByTonic", "Leave filterByTonic out, or give a tonic note name such as filterByTonic=rast."),
    sortBy: oneOf("sortBy", SORT_OPTIONS, "alphabetical"),
    includeSources: flag(),
    includeArabic: includeArabic(),
  }),
  (p, ctx) => {
    const wanted = p.filterByTonic === undefined ? undefined : std(p.filterByTonic);
    const selected = ajnas.filter((j) => wanted === undefined || std(firstNoteOf(j)) === wanted);
    const data = sortByNameOrTonic(selected, p.sortBy, jinsSortKey).map((j) => {
      const { count, availability } = availabilitySummary(j, p.includeArabic);
      return {
        jins: entityObject(j, p.includeArabic),
        tonic: noteRef(firstNoteOf(j), p.includeArabic),
        stats: { numberOfPitchClasses: j.notes.length, availableInTuningSystems: count },
        availability,
        links: { detail: apiUrl(ctx, `${COLLECTION}/${j.idName}`) },
        ...(p.includeSources ? { sources: sourcesOf(j) } : {}),
      };
    });
    return ok({ count: data.length, data });
  },
);

// ---------------------------------------------------------------------------------------------
// GET /tuning-systems/{id}/{startingNote}/ajnas (not in the reference; see docs/api-notes.md)

const perTuningSystemRoute = defineRoute(
  "/tuning-systems/{id}/{startingNote}/ajnas",
  z.object({
    id: pathParameter("id"),
    startingNote: pathParameter("startingNote"),
    includeJinsDegrees: strictBoolean("includeJinsDegrees"),
    includeTranspositions: strictBoolean("includeTranspositions"),
    sortBy: oneOf("sortBy", SORT_OPTIONS, "tonic"),
    includeArabic: includeArabic(),
    centsTolerance: centsTolerance(),
  }),
  (p, ctx) => {
    const tuning = resolveTuningPath(p.id, p.startingNote);
    if (isResponse(tuning)) return tuning;
    const { ts, startingNote } = tuning;
    const names = adjacentOctaveNames(ts, ts.record.noteNames.findIndex((set) => set[0] === startingNote));
    // As for maqāmāt: the adjacent-octave set of this starting note holds the notes, and the
    // jins can be built on its own modal degree.
    const available = ajnas
      .filter((j) => isPossible(j, names))
      .map((j) => ({ jins: j, list: transpositionsOf(j, ts, startingNote, p.centsTolerance) }))
      .filter(({ list }) => list.some((t) => !t.isTransposed));
    const detailQuery = contextQuery(ctx, tuning, p.centsTolerance);
    const data = sortByNameOrTonic(available, p.sortBy, ({ jins }) => jinsSortKey(jins)).map(
      ({ jins, list }) => ({
        jins: entityObject(jins, p.includeArabic),
        tonic: noteRef(firstNoteOf(jins), p.includeArabic),
        stats: { numberOfPitchClasses: jins.notes.length },
        links: { detail: apiUrl(ctx, `${COLLECTION}/${jins.idName}${detailQuery}`) },
        ...(p.includeJinsDegrees ? { jinsDegrees: jins.notes.map(std) } : {}),
        ...(p.includeTranspositions
          ? {
              transpositions: transposedOnly(list).map((t) => ({
                ...transpositionSummary(t, p.includeArabic, entityNameToArabic),
                jinsDegrees: t.ascending.map((pc) => std(pc.noteName)),
              })),
            }
          : {}),
      }),
    );
    return ok({
      tuningSystem: tuningSystemEntity(ts, p.includeArabic, { year: ts.record.year, numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts) }),
      startingNotes: noteNameArray(ts.startingNotes, p.includeArabic),
      selectedStartingNote: noteRef(startingNote, p.includeArabic),
      stats: {
        totalAjnasForStartingNote: data.length,
        totalAjnasInLibrary: ajnas.length,
        uniqueTonicCount: new Set(available.map(({ jins }) => std(firstNoteOf(jins)))).size,
        referenceFrequency: referenceFrequencyOf(ts, startingNote),
      },
      data,
      links: {
        self: apiUrl(ctx, ctx.path),
        tuningSystem: apiUrl(ctx, `/tuning-systems/${ts.id}`),
        collection: apiUrl(ctx, COLLECTION),
      },
    });
  },
);

// ---------------------------------------------------------------------------------------------
// GET /ajnas/{idName}/availability

const availabilityRoute = defineRoute(
  `${COLLECTION}/{idName+}/availability`,
  z.object({
    idName: pathParameter("idName"),
    transpositionNoteName: optionalNonBlank("transpositionNoteName", "Give a tonic note name such as transpositionNoteName=nawa, or leave it out."),
    includeArabic: includeArabic(),
    centsTolerance: centsTolerance(),
  }),
  (p) => {
    const ref = resolveJins(p.idName);
    if (isResponse(ref)) return ref;
    const tonic = requestedTonic(ref, "transpositionNoteName", p.transpositionNoteName);
    if (isResponse(tonic)) return tonic;
    return ok(availabilityAnswer(ref.entity, tonic, p.centsTolerance, p.includeArabic));
  },
);

// ---------------------------------------------------------------------------------------------
// GET /ajnas/{idName}/transpositions

const transpositionsRoute = defineRoute(
  `${COLLECTION}/{idName+}/transpositions`,
  z.object({
    idName: pathParameter("idName"),
    tuningSystem: z.string().optional(),
    startingNote: z.string().optional(),
    includeArabic: includeArabic(),
    centsTolerance: centsTolerance(),
  }),
  (p, ctx) => {
    const ref = resolveJins(p.idName);
    if (isResponse(ref)) return ref;
    if (ref.tonic !== undefined) return transposedIdNotAccepted(p.idName, ref.entity, "/transpositions");
    const tuning = resolveTuning(p.tuningSystem, p.startingNote, availabilityHint(ref.entity));
    if (isResponse(tuning)) return tuning;
    return transpositionsAnswer(ctx, ref.entity, tuning, p.centsTolerance, p.includeArabic);
  },
);

// ---------------------------------------------------------------------------------------------
// GET /ajnas/{idName}/compare

const compareRoute = defineRoute(
  `${COLLECTION}/{idName+}/compare`,
  z.object({
    idName: pathParameter("idName"),
    tuningSystems: tuningSystemList({ atLeastOne: true }),
    startingNotes: requiredList("startingNotes", "startingNotes=yegah,rast"),
    pitchClassDataType: oneOf("pitchClassDataType", PITCH_CLASS_DATA_TYPES, "all"),
    includeIntervals: strictBoolean("includeIntervals", false, { exact: true }),
    // An empty transposeTo is the analytical form here, as in the reference.
    transposeTo: emptyAsAbsent(z.string().optional()),
    includeArabic: includeArabic(),
    centsTolerance: centsTolerance(),
  }),
  (p, ctx) => {
    const ref = resolveJins(p.idName);
    if (isResponse(ref)) return ref;
    const tonic = requestedTonic(ref, "transposeTo", p.transposeTo);
    if (isResponse(tonic)) return tonic;
    const jins = ref.entity;
    const cell = (tuning: TuningContext): Record<string, unknown> => {
      const { ts, startingNote } = tuning;
      if (!isPossibleIn(jins, ts, startingNote)) return unrealisableCell(jins, tuning, p.includeArabic);
      const list = transpositionsOf(jins, ts, startingNote, p.centsTolerance);
      const t = selectedTransposition(list, tonic);
      if (!t) return tonic === undefined ? unrealisableCell(jins, tuning, p.includeArabic) : unreachableCell(tuning, tonic, list, p.includeArabic);
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
        jins: selectionObject(jins, t, p.includeArabic),
        tonic: noteRef(t.tonic, p.includeArabic),
        ...transpositionBlock(jins, t, p.includeArabic),
        stats: { tuningSystem: cellTuningStats(tuning), jins: { numberOfPitchClasses: t.ascending.length } },
        availableTranspositions: transpositionSummaries(transposedOnly(list), p.includeArabic),
        pitchData: t.ascending.map((pc, k) => degreePitchClass(pc, romanNumeral(k, COMPARE_NUMERALS), p.pitchClassDataType, p.includeArabic, true)),
        parameters: { pitchClassDataType: p.pitchClassDataType, includeIntervals: p.includeIntervals, transposeTo: tonic ?? null },
        links: {
          detail: apiUrl(ctx, `${COLLECTION}/${jins.idName}${detailQuery}`),
          availability: apiUrl(ctx, `${COLLECTION}/${jins.idName}/availability`),
        },
        ...(p.includeIntervals ? { intervals: consecutiveIntervals(t.ascending).map(({ cents }) => ({ cents })) } : {}),
      };
    };
    return ok({
      jins: entityObject(jins, p.includeArabic),
      comparisons: compareGrid(p.tuningSystems, p.startingNotes, p.includeArabic, cell),
      parameters: {
        ...compareTokens(p.tuningSystems, p.startingNotes, p.includeArabic),
        pitchClassDataType: p.pitchClassDataType,
        includeIntervals: p.includeIntervals,
        transposeTo: tonic ?? null,
        centsTolerance: p.centsTolerance,
      },
      links: {
        self: selfUrl(ctx),
        detail: apiUrl(ctx, `${COLLECTION}/${jins.idName}`),
        availability: apiUrl(ctx, `${COLLECTION}/${jins.idName}/availability`),
      },
    });
  },
);

// ---------------------------------------------------------------------------------------------
// GET /ajnas/{idName}

/** §10.5: a single field for the value types that have one, `frequency` as null, else the full interval. */
function intervalFields(cells: readonly PitchClass[], type: string) {
  return consecutiveIntervals(cells).map((interval) => {
    switch (type) {
      case "cents":
      case "fraction":
      case "decimalRatio":
      case "stringLength":
        return { [type]: interval[type] };
      case "frequency":
        // A ratio has no frequency; the reference emits NaN, i.e. null.
        return { frequency: null };
      default:
        return interval;
    }
  });
}

const detailSchema = z.object({
  idName: pathParameter("idName"),
  tuningSystem: optionalNonBlank("tuningSystem", "Give a tuning system id such as tuningSystem=ibnsina_1037 (see /api/tuning-systems)."),
  startingNote: optionalNonBlank("startingNote", "Give a starting note such as startingNote=yegah."),
  options: flag(),
  // Listed as required with a default: absent means `all`, but empty or unknown is a 400.
  pitchClassDataType: oneOf("pitchClassDataType", PITCH_CLASS_DATA_TYPES, undefined),
  transposeTo: optionalNonBlank("transposeTo", TRANSPOSE_HINT),
  includeIntervals: flag(),
  includeSources: flag(),
  includeArabic: includeArabic(),
  centsTolerance: centsTolerance(),
});
type DetailParameters = z.output<typeof detailSchema>;

const DISCOVERY_DESCRIPTIONS = {
  tuningSystem: "ID of tuning system (see /availability for options)",
  startingNote:
    "Theoretical framework for note naming. Required for data retrieval. Optional for discovery mode (options=true). Needed to calculate transposition options.",
  pitchClassDataType: "Output format for pitch data. Optional — defaults to 'all' (complete pitch class information) when omitted.",
  includeIntervals: "Include interval data between pitch classes (?includeIntervals=true)",
  transposeTo:
    "Transpose to specific tonic (taṣwīr) - only valid transpositions shown. Calculated based on the provided tuningSystem and startingNote; null until a startingNote is provided.",
  centsTolerance: "Tolerance in cents for pitch matching in transposition calculations (non-negative number)",
  formatOptions:
    "The 'pitchClassDataType' parameter controls which pitch class properties are returned. Use 'all' for comprehensive data or specific formats like 'cents', 'fraction', etc. for targeted data.",
};

/** `options=true`: which parameters this jins accepts in a tuning system (and starting note). */
function discovery(p: DetailParameters, jins: Jins, transposed: boolean): ApiResponse {
  const conflicting = [
    ...(p.transposeTo !== undefined || transposed ? ["transposeTo"] : []),
    ...(p.pitchClassDataType !== undefined && p.pitchClassDataType !== "cents" ? ["pitchClassDataType"] : []),
    ...(p.includeIntervals ? ["includeIntervals"] : []),
  ];
  if (conflicting.length) return optionsConflict(conflicting, ["tuningSystem", "startingNote", "pitchClassDataType"]);
  // The starting note is optional here: without one, the first is used only to validate the rest.
  const tuning = resolveTuning(p.tuningSystem, p.startingNote ?? findTuningSystem(p.tuningSystem ?? "")?.startingNotes[0], availabilityHint(jins));
  if (isResponse(tuning)) return tuning;
  const { ts } = tuning;
  const startingNote = p.startingNote === undefined ? undefined : tuning.startingNote;
  const startingNoteOptions = ts.startingNotes.map(std);
  const tonics = startingNote === undefined ? null : transpositionsOf(jins, ts, startingNote, p.centsTolerance).map((t) => std(t.tonic));
  const example = `/api${COLLECTION}/${p.idName}?tuningSystem=${p.tuningSystem}&startingNote=${startingNote === undefined ? startingNoteOptions[0] : std(startingNote)}`;
  return ok({
    jins: jins.name,
    tuningSystem: p.tuningSystem,
    availableParameters: {
      tuningSystem: { required: true, description: DISCOVERY_DESCRIPTIONS.tuningSystem },
      startingNote: { options: startingNoteOptions, required: true, description: DISCOVERY_DESCRIPTIONS.startingNote },
      pitchClassDataType: { options: [...PITCH_CLASS_DATA_TYPES], required: false, default: "all", description: DISCOVERY_DESCRIPTIONS.pitchClassDataType },
      includeIntervals: { type: "boolean", default: false, description: DISCOVERY_DESCRIPTIONS.includeIntervals },
      transposeTo: { options: tonics, description: DISCOVERY_DESCRIPTIONS.transposeTo },
      centsTolerance: { type: "number", default: 5, description: DISCOVERY_DESCRIPTIONS.centsTolerance },
    },
    notes: { formatOptions: DISCOVERY_DESCRIPTIONS.formatOptions },
    examples: [
      `${example}&pitchClassDataType=cents&includeIntervals=true`,
      ...(tonics !== null && tonics.length > 1 ? [`${example}&pitchClassDataType=cents&transposeTo=${tonics[1]}`] : []),
      `${example}&pitchClassDataType=all`,
    ],
  });
}

const detailRoute = defineRoute(`${COLLECTION}/{idName+}`, detailSchema, (p, ctx) => {
  const ref = resolveJins(p.idName);
  if (isResponse(ref)) return ref;
  const jins = ref.entity;
  if (p.options) return discovery(p, jins, ref.tonic !== undefined);
  const tonic = requestedTonic(ref, "transposeTo", p.transposeTo);
  if (isResponse(tonic)) return tonic;
  const tuning = resolveTuning(p.tuningSystem, p.startingNote, availabilityHint(jins));
  if (isResponse(tuning)) return tuning;
  const { ts, startingNote } = tuning;
  const list = transpositionsOf(jins, ts, startingNote, p.centsTolerance);
  if (!isPossibleInSomeSet(jins, ts) || list.length === 0) return notRealizable(jins, tuning);
  const t = selectedTransposition(list, tonic);
  // The list is not empty, so only a requested tonic can miss.
  if (!t) return unreachableTonic(tonic ?? "", list, p.includeArabic);
  const type = p.pitchClassDataType ?? "all";
  const pcs = pitchClassesOf(ts, startingNote);
  return ok({
    jins: selectionObject(jins, t, p.includeArabic, { isBaseForm: t.isBaseForm }),
    tonic: noteRef(t.tonic, p.includeArabic),
    ...transpositionBlock(jins, t, p.includeArabic),
    stats: { numberOfTranspositions: transposedOnly(list).length, numberOfPitchClasses: t.ascending.length },
    comments: commentsOf(jins),
    ...(p.includeSources ? { sources: sourcesOf(jins) } : {}),
    parameters: { pitchClassDataType: type, includeIntervals: p.includeIntervals, centsTolerance: p.centsTolerance },
    context: {
      tuningSystem: {
        id: ts.id,
        displayName: ts.displayName,
        ...(p.includeArabic ? { displayNameAr: ts.displayNameAr } : {}),
        version: ts.record.version,
        originalValueType: pcs.length ? ts.valueType : "unknown",
        numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts),
        numberOfPitchClassesAllOctaves: pcs.length,
        startingNoteName: std(startingNote),
        referenceFrequency: referenceFrequencyOf(ts, startingNote),
      },
    },
    links: {
      self: selfUrl(ctx),
      detail: apiUrl(ctx, `${COLLECTION}/${jins.idName}`),
      availability: apiUrl(ctx, `${COLLECTION}/${jins.idName}/availability`),
    },
    pitchData: t.ascending.map((pc, k) => degreePitchClass(pc, romanNumeral(k), type, p.includeArabic)),
    ...(p.includeIntervals ? { intervals: intervalFields(t.ascending, type) } : {}),
  });
});

export const routes = [perTuningSystemRoute, availabilityRoute, transpositionsRoute, compareRoute, detailRoute, listRoute];

// ---------------------------------------------------------------------------------------------
// Pre-rendering (canonical form: parameters sorted by name, values as idNames)

/** Every combination of optional parameters, each either absent or set to one of its values. */
function* variants(options: [string, readonly string[]][]): Generator<string> {
  const [first, ...rest] = options;
  if (!first) {
    yield "";
    return;
  }
  const [name, values] = first;
  for (const tail of variants(rest)) {
    yield tail;
    for (const value of values) yield `${name}=${value}${tail ? `&${tail}` : ""}`;
  }
}

const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);

/**
 * Per-tuning-system lists: the default and each option on its own, as for maqāmāt (with all
 * transpositions a list weighs up to 1 MB, so the full product of options is left to the fallback).
 */
const PER_TUNING_SYSTEM_VARIANTS = [
  "",
  "includeArabic=true",
  "sortBy=alphabetical",
  "includeJinsDegrees=true",
  "includeTranspositions=true",
  "includeJinsDegrees=true&includeTranspositions=true",
];

/**
 * Lists in every variant; per jins × tuning system × starting note the detail of every reachable
 * tonic — the taḥlīl under the base idName, every other entry under its transposed idName, each in
 * default form and with `pitchClassDataType=all` — and the transpositions; availability of every
 * jins through its base idName and every transposed idName; the per-tuning-system lists in their
 * main variants. Compare stays with the fallback server.
 */
export function* prerender(): Generator<string> {
  const tonicIds = [...new Set(ajnas.map((j) => std(firstNoteOf(j))))];
  for (const q of variants([
    ["filterByTonic", tonicIds],
    ["includeArabic", ["true"]],
    ["includeSources", ["true"]],
    ["sortBy", SORT_OPTIONS],
  ]))
    yield withQuery(COLLECTION, q);
  for (const ts of tuningSystems)
    for (const startingNote of ts.startingNotes)
      for (const q of PER_TUNING_SYSTEM_VARIANTS) yield withQuery(`/tuning-systems/${ts.id}/${std(startingNote)}/ajnas`, q);
  for (const jins of ajnas) {
    const transposedIds = new Set<string>();
    for (const ts of tuningSystems) {
      if (!isPossibleInSomeSet(jins, ts)) continue;
      for (const startingNote of ts.startingNotes) {
        const list = transpositionsOf(jins, ts, startingNote);
        const context = `startingNote=${std(startingNote)}&tuningSystem=${ts.id}`;
        for (const { idName } of list) {
          yield `${COLLECTION}/${idName}?${context}`;
          yield `${COLLECTION}/${idName}?pitchClassDataType=all&${context}`;
          if (idName !== jins.idName) transposedIds.add(idName);
        }
        if (isPossibleIn(jins, ts, startingNote) && distinctTranspositions(list).length) yield `${COLLECTION}/${jins.idName}/transpositions?${context}`;
      }
    }
    yield `${COLLECTION}/${jins.idName}/availability`;
    for (const idName of transposedIds) yield `${COLLECTION}/${idName}/availability`;
  }
}
