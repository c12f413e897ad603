/**
 * The ajnās group: GET /ajnas, /ajnas/{idName} (data and discovery mode), its /availability,
 * /transpositions and /compare (built by ../entities/, as for maqāmāt) and GET
 * /tuning-systems/{id}/{startingNote}/ajnas. A transposed idName may name a tonic containing `/`
 * (`…_al_buselik/ushshaq`), so the path parameter is greedy and the sub-routes are matched before
 * the detail route.
 */
import { ok, isAnswer } from "../errors.js";
import { defineRoute } from "../route.js";
import { centsTolerance, flag, includeArabic, includeSources, oneOf, optionalPitchClassDataType, optionalText, strictBoolean } from "../declare.js";
import type { ParsedParams } from "../params.js";
import { apiUrl, selfUrl } from "../links.js";
import { entityObject, noteRef, sourcesOf, type EntityObject } from "../shared/format.js";
import { PITCH_CLASS_DATA_TYPES } from "../shared/pitchClassValues.js";
import { requestedTonic, resolveEntity, resolveTuning, resolveTuningPath, transpositionSummary } from "../resolve.js";
import { COMPARE_NUMERALS, compareSpec, type CompareCell, type CompareParameters } from "../entities/compare.js";
import {
  DISCOVERY_DESCRIPTIONS,
  detailRendering,
  flatTuningContext,
  discoveryOffer,
  optionsConflict,
  discoveryEntry,
  transposeToParameter,
} from "../entities/detail.js";
import {
  SORT_OPTIONS,
  availabilityHint,
  availabilitySummary,
  commentsOf,
  consecutiveIntervals,
  degreePitchClass,
  INTERVAL_FIELD,
  perTuningSystemAnswer,
  perTuningSystemParams,
  entityPath,
  selectionObject,
  sortByNameOrTonic,
  transpositionBlock,
} from "../entities/views.js";
import { startingNoteNameSet } from "../../theory/availableMaqamat.js";
import { availabilitySpec } from "../entities/availability.js";
import { contextQuery, transpositionsSpec } from "../entities/transpositions.js";
import { entityNameToArabic } from "../../theory/arabic.js";
import { firstNoteOf, type Jins } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import { romanNumeral } from "../../theory/degrees.js";
import type { PitchClass } from "../../theory/pitchClass.js";
import { isPossible, isPossibleInSomeSet } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { transpositionsOf, transposedOnly, type Transposition } from "../../theory/transposition.js";
import { jinsSchemas } from "./schemas.js";
import { tuningSystemSchemas } from "../tuning-systems/schemas.js";

const COLLECTION = "/ajnas";

/** Sort key of the alphabetical and tonic orders. */
const jinsSortKey = (jins: Jins) => ({ idName: jins.idName, tonicIdName: toIdName(firstNoteOf(jins)) });

// ---------------------------------------------------------------------------------------------
// GET /ajnas

const listRoute = defineRoute({
  path: COLLECTION,
  summary: "Every jins with its tonic and the tuning systems that realise it.",
  response: () => jinsSchemas().ajnasList,
  exampleQuery: { filterByTonic: "segah" },
  params: {
    filterByTonic: optionalText({
      blank: "error",
      description: "Only the ajnās on this tonic (note name).",
      example: "rast",
      hint: "Leave filterByTonic out, or give a tonic note name such as filterByTonic=rast.",
    }),
    sortBy: oneOf(SORT_OPTIONS, { fallback: "alphabetical", description: "`alphabetical` or `tonic` (by tonic, then name).", example: "tonic" }),
    includeSources: includeSources(),
    includeArabic: includeArabic(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const wanted = p.filterByTonic === undefined ? undefined : toIdName(p.filterByTonic);
    const selected = cat.ajnas.filter((j) => wanted === undefined || toIdName(firstNoteOf(j)) === wanted);
    const data = sortByNameOrTonic(cat, selected, p.sortBy, jinsSortKey).map((j) => {
      const { count, availability } = availabilitySummary(cat, j, p.includeArabic);
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
});

// ---------------------------------------------------------------------------------------------
// GET /tuning-systems/{id}/{startingNote}/ajnas (not in the reference; see docs/api-notes.md)

const perTuningSystemRoute = defineRoute({
  path: "/tuning-systems/{id}/{startingNote}/ajnas",
  summary: "The ajnās that can be built in one tuning system from one starting note.",
  response: () => tuningSystemSchemas().tuningSystemAjnas,
  params: perTuningSystemParams({
    includeJinsDegrees: strictBoolean("Include each jins's degrees (note idNames)."),
    includeTranspositions: strictBoolean("Include the transpositions of each jins available here."),
  }),
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const tuning = resolveTuningPath(cat, p.id, p.startingNote);
    if (isAnswer(tuning)) return tuning;
    const { ts, startingNote } = tuning;
    const names = startingNoteNameSet(cat, tuning.ts, tuning.startingNote);
    // As for maqāmāt: the adjacent-octave set of this starting note holds the notes, and the
    // jins can be built on its own modal degree.
    const available = cat.ajnas
      .filter((j) => isPossible(j, names))
      .map((j) => ({ jins: j, list: transpositionsOf(cat, j, ts, startingNote, p.centsTolerance) }))
      .filter(({ list }) => list.some((t) => !t.isTransposed));
    const detailQuery = contextQuery(ctx, tuning, p.centsTolerance);
    const data = sortByNameOrTonic(cat, available, p.sortBy, ({ jins }) => jinsSortKey(jins)).map(({ jins, list }) => ({
      jins: entityObject(jins, p.includeArabic),
      tonic: noteRef(firstNoteOf(jins), p.includeArabic),
      stats: { numberOfPitchClasses: jins.notes.length },
      links: { detail: apiUrl(ctx, `${COLLECTION}/${jins.idName}${detailQuery}`) },
      ...(p.includeJinsDegrees ? { jinsDegrees: jins.notes.map(toIdName) } : {}),
      ...(p.includeTranspositions
        ? {
            transpositions: transposedOnly(list).map((t) => ({
              ...transpositionSummary(t, p.includeArabic, entityNameToArabic),
              jinsDegrees: t.ascending.map((pc) => toIdName(pc.noteName)),
            })),
          }
        : {}),
    }));
    const stats = {
      totalAjnasForStartingNote: data.length,
      totalAjnasInLibrary: cat.ajnas.length,
      uniqueTonicCount: new Set(available.map(({ jins }) => toIdName(firstNoteOf(jins)))).size,
    };
    return perTuningSystemAnswer(ctx, "jins", p, tuning, p.includeArabic, stats, data);
  },
});

// ---------------------------------------------------------------------------------------------
// GET /ajnas/{idName}/compare (availability and transpositions: ../entities/)

/** The jins's parts of a compare cell: the rendering, its ascending cells and, on request, the steps in cents. */
const compareParts = (t: Transposition, p: CompareParameters, { entity }: CompareCell<Jins>) => ({
  selection: { jins: selectionObject(entity, t, p.includeArabic, {}) },
  stats: { jins: { numberOfPitchClasses: t.ascending.length } },
  data: { pitchData: t.ascending.map((pc, k) => degreePitchClass(pc, romanNumeral(k, COMPARE_NUMERALS), p.pitchClassDataType, p.includeArabic, true)) },
  intervals: () => consecutiveIntervals(t.ascending).map(({ cents }) => ({ cents })),
});

/** The jins under its key in the answers the maqām and jins groups share. */
const withJins = (jins: EntityObject) => ({ jins });

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
        return INTERVAL_FIELD[type](interval);
      case "frequency":
        // A ratio has no frequency; the reference emits NaN, i.e. null.
        return { frequency: null };
      default:
        return interval;
    }
  });
}

const detailParams = {
  idName: entityPath("jins"),
  tuningSystem: optionalText({
    blank: "error",
    description: "Tuning-system id (see /api/tuning-systems); required for data.",
    neededForData: true,
    example: "ibnsina_1037",
    hint: "Give a tuning system id such as tuningSystem=ibnsina_1037 (see /api/tuning-systems).",
  }),
  startingNote: optionalText({
    blank: "error",
    description: "Starting note of the tuning system; required for data, optional with options=true.",
    neededForData: true,
    example: "yegah",
    hint: "Give a starting note such as startingNote=yegah.",
  }),
  options: flag("Parameter discovery: what this jins accepts in the tuning system, instead of its data."),
  // Absent means `all` (the handler applies it, since discovery mode must see it absent); empty or unknown is a 400.
  pitchClassDataType: optionalPitchClassDataType(PITCH_CLASS_DATA_TYPES, "all"),
  transposeTo: transposeToParameter(),
  includeIntervals: flag("Include the steps between consecutive pitch classes."),
  includeSources: includeSources(),
  includeArabic: includeArabic(),
  centsTolerance: centsTolerance(),
};
type DetailParameters = ParsedParams<typeof detailParams>;

const DESCRIPTIONS = {
  ...DISCOVERY_DESCRIPTIONS,
  pitchClassDataType: "Output format for pitch data. Optional — defaults to 'all' (complete pitch class information) when omitted.",
  centsTolerance: "Tolerance in cents for pitch matching in transposition calculations (non-negative number)",
};

/** `options=true`: which parameters this jins accepts in a tuning system (and starting note). */
function discovery(cat: Catalog, p: DetailParameters, jins: Jins, transposed: boolean) {
  const conflicting = [
    ...(p.transposeTo !== undefined || transposed ? ["transposeTo"] : []),
    ...(p.pitchClassDataType !== undefined && p.pitchClassDataType !== "cents" ? ["pitchClassDataType"] : []),
    ...(p.includeIntervals ? ["includeIntervals"] : []),
  ];
  if (conflicting.length) return optionsConflict(conflicting, ["tuningSystem", "startingNote", "pitchClassDataType"]);
  const offer = discoveryOffer(cat, jins, p.idName, p.tuningSystem, p.startingNote, p.centsTolerance);
  if (isAnswer(offer)) return offer;
  const { tuningSystem, startingNotes, tonics, example } = offer;
  return ok({
    jins: jins.name,
    tuningSystem,
    availableParameters: {
      tuningSystem: { required: true as const, description: DESCRIPTIONS.tuningSystem },
      startingNote: { options: startingNotes, required: true as const, description: DESCRIPTIONS.startingNote },
      pitchClassDataType: {
        options: [...PITCH_CLASS_DATA_TYPES],
        required: false as const,
        default: "all" as const,
        description: DESCRIPTIONS.pitchClassDataType,
      },
      includeIntervals: discoveryEntry(detailParams.includeIntervals, DESCRIPTIONS.includeIntervals),
      transposeTo: { options: tonics, description: DESCRIPTIONS.transposeTo },
      centsTolerance: discoveryEntry(detailParams.centsTolerance, DESCRIPTIONS.centsTolerance),
    },
    notes: { formatOptions: DESCRIPTIONS.formatOptions },
    examples: [
      `${example}&pitchClassDataType=cents&includeIntervals=true`,
      ...(tonics !== null && tonics.length > 1 ? [`${example}&pitchClassDataType=cents&transposeTo=${tonics[1]}`] : []),
      `${example}&pitchClassDataType=all`,
    ],
  });
}

const detailRoute = defineRoute({
  path: `${COLLECTION}/{idName}`,
  summary: "One jins realised in a tuning system and starting note (optionally transposed), or its parameter discovery.",
  response: () => jinsSchemas().jinsDetail,
  params: detailParams,
  unprocessable: true,
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const ref = resolveEntity(cat, "jins", p.idName);
    if (isAnswer(ref)) return ref;
    const jins = ref.entity;
    if (p.options) return discovery(cat, p, jins, ref.tonic !== undefined);
    const tonic = requestedTonic(cat, ref, "transposeTo", p.transposeTo);
    if (isAnswer(tonic)) return tonic;
    const tuning = resolveTuning(cat, p.tuningSystem, p.startingNote, availabilityHint(jins));
    if (isAnswer(tuning)) return tuning;
    const rendering = detailRendering(cat, jins, tuning, isPossibleInSomeSet(cat, jins, tuning.ts), tonic, p.centsTolerance, p.includeArabic);
    if (isAnswer(rendering)) return rendering;
    const { list, t } = rendering;
    const type = p.pitchClassDataType ?? "all";
    return ok({
      jins: selectionObject(jins, t, p.includeArabic, { isBaseForm: t.isBaseForm }),
      tonic: noteRef(t.tonic, p.includeArabic),
      ...transpositionBlock(jins, t, p.includeArabic),
      stats: { numberOfTranspositions: transposedOnly(list).length, numberOfPitchClasses: t.ascending.length },
      comments: commentsOf(jins),
      ...(p.includeSources ? { sources: sourcesOf(jins) } : {}),
      parameters: { pitchClassDataType: type, includeIntervals: p.includeIntervals, centsTolerance: p.centsTolerance },
      context: { tuningSystem: flatTuningContext(cat, tuning, p.includeArabic) },
      links: {
        self: selfUrl(ctx),
        detail: apiUrl(ctx, `${COLLECTION}/${jins.idName}`),
        availability: apiUrl(ctx, `${COLLECTION}/${jins.idName}/availability`),
      },
      pitchData: t.ascending.map((pc, k) => degreePitchClass(pc, romanNumeral(k), type, p.includeArabic)),
      ...(p.includeIntervals ? { intervals: intervalFields(t.ascending, type) } : {}),
    });
  },
});

export const routes = [
  perTuningSystemRoute,
  defineRoute({ ...availabilitySpec("jins", withJins), response: () => jinsSchemas().jinsAvailability }),
  defineRoute({ ...transpositionsSpec("jins", withJins, () => ({})), response: () => jinsSchemas().jinsTranspositions }),
  defineRoute({ ...compareSpec("jins", withJins, compareParts), response: () => jinsSchemas().jinsCompare }),
  detailRoute,
  listRoute,
];
