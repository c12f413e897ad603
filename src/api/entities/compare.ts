/**
 * GET /{maqamat|ajnas}/{idName}/compare: one rendering per tuning system × starting note, side by
 * side.
 */
import { apiError, ok, isAnswer } from "../errors.js";
import { apiUrl, queryString, selfUrl } from "../links.js";
import { KIND, collectionOf, entityObject, noteNameArray, noteRef, tuningSystemRef, type EntityObject } from "../shared/format.js";
import { PITCH_CLASS_DATA_TYPES } from "../shared/pitchClassValues.js";
import { MAX_COMPARE_CELLS, tooMany, tuningSystemIds, type ParsedParams } from "../params.js";
import { centsTolerance, includeArabic, list, optionalText, pitchClassDataType, strictBoolean, tuningSystemList } from "../declare.js";
import { requestedTonic, resolveEntity, selectedTransposition, type TuningContext } from "../resolve.js";
import { routeSpec, type RequestContext } from "../route.js";
import type { Entity } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import { isPossibleIn } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { transpositionsOf, transposedOnly, type Transposition } from "../../theory/transposition.js";
import { findStartingNote, pitchClassesPerOctave, referenceFrequencyOf } from "../../theory/tuningSystem.js";
import { type EntityOf, type Kind, entityPath, transpositionBlock, transpositionSummaries } from "./views.js";
import { TRANSPOSE_TO } from "./detail.js";

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
function compareGrid<C extends object>(
  cat: Catalog,
  tuningSystemIds: readonly string[],
  startingNoteTokens: readonly string[],
  includeArabic: boolean,
  compute: (tuning: TuningContext) => C,
) {
  const data = tuningSystemIds.flatMap((id) => {
    const ts = cat.findTuningSystem(id);
    return startingNoteTokens.map((token) => {
      if (!ts)
        return {
          tuningSystem: { id, idName: toIdName(id), displayName: id },
          startingNote: noteRef(token, includeArabic),
          error: `Tuning system '${id}' not found`,
        };
      const startingNote = findStartingNote(ts, token);
      if (startingNote) return compute({ ts, startingNote });
      return {
        tuningSystem: tuningSystemRef(ts, includeArabic),
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
  tuningSystem: tuningSystemRef(ts, includeArabic),
  startingNote: noteRef(startingNote, includeArabic),
  error: `${KIND[e.kind].Word} '${e.name}' cannot be realized in this tuning system configuration`,
});

/** A cell's failure when `transposeTo` is not reachable there. */
const unreachableCell = ({ ts, startingNote }: TuningContext, raw: string, list: readonly Transposition[], includeArabic: boolean) => ({
  tuningSystem: tuningSystemRef(ts, includeArabic),
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
  tuningSystems: { idNames: tuningSystemIds.map(toIdName), displayNames: [...tuningSystemIds] },
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
  // Blank means the default here, as the archive answers (docs/algorithms.md §10).
  pitchClassDataType: pitchClassDataType(PITCH_CLASS_DATA_TYPES, "all", { blank: "default" }),
  includeIntervals: strictBoolean("Include the steps between consecutive pitch classes.", { exact: true }),
  // An empty transposeTo is the analytical form, as in the reference.
  transposeTo: optionalText({ blank: "absent", description: TRANSPOSE_TO, example: "nawa" }),
  includeArabic: includeArabic(),
  centsTolerance: centsTolerance(),
});
export type CompareParameters = ParsedParams<ReturnType<typeof compareParams>>;

/**
 * What a compare cell shows of its rendering besides the fields every kind shares, the entity's
 * parts keyed by its kind (`{maqam: …}`, `{jins: …}`).
 */
interface CompareCellParts<S, T, D, I> {
  /** `{<kind>: the selected transposition}`. */
  selection: S;
  /** `{<kind>: its stats}`, after those of the tuning system. */
  stats: T;
  /** `pitchData` and, of a maqām, the jins on each degree. */
  data: D;
  /** The steps, computed only when includeIntervals asks for them. */
  intervals: () => I;
}

/** The tuning context of a cell, with the entity's transpositions there. */
export interface CompareCell<E extends Entity> {
  cat: Catalog;
  entity: E;
  list: readonly Transposition[];
  tuning: TuningContext;
}

/** A kind's parts of the cell showing `t`, taken from `list` in the cell's tuning context. */
type CompareCellPartsOf<E extends Entity, S, T, D, I> = (t: Transposition, p: CompareParameters, cell: CompareCell<E>) => CompareCellParts<S, T, D, I>;

/** One successful or failed cell of a compare answer. */
function compareCell<E extends Entity, S, T, D, I>(
  ctx: RequestContext,
  e: E,
  tuning: TuningContext,
  p: CompareParameters,
  tonic: string | undefined,
  partsOf: CompareCellPartsOf<E, S, T, D, I>,
) {
  const cat = ctx.catalog;
  const { ts, startingNote } = tuning;
  if (!isPossibleIn(cat, e, ts, startingNote)) return unrealisableCell(e, tuning, p.includeArabic);
  const list = transpositionsOf(cat, e, ts, startingNote, p.centsTolerance);
  const t = selectedTransposition(list, tonic);
  if (!t) return tonic === undefined ? unrealisableCell(e, tuning, p.includeArabic) : unreachableCell(tuning, tonic, list, p.includeArabic);
  const parts = partsOf(t, p, { cat, entity: e, list, tuning });
  const { collection } = KIND[e.kind];
  const detailQuery = queryString([
    ["tuningSystem", ts.id],
    ["startingNote", startingNote],
    ["pitchClassDataType", p.pitchClassDataType],
    ["includeIntervals", String(p.includeIntervals)],
    ["transposeTo", tonic],
  ]);
  return {
    tuningSystem: tuningSystemRef(ts, p.includeArabic),
    startingNote: noteRef(startingNote, p.includeArabic),
    ...parts.selection,
    tonic: noteRef(t.tonic, p.includeArabic),
    ...transpositionBlock(e, t, p.includeArabic),
    stats: { tuningSystem: cellTuningStats(tuning), ...parts.stats },
    availableTranspositions: transpositionSummaries(transposedOnly(list), p.includeArabic),
    ...parts.data,
    parameters: { pitchClassDataType: p.pitchClassDataType, includeIntervals: p.includeIntervals, transposeTo: tonic ?? null },
    links: {
      detail: apiUrl(ctx, `${collection}/${e.idName}${detailQuery}`),
      availability: apiUrl(ctx, `${collection}/${e.idName}/availability`),
    },
    ...(p.includeIntervals ? { intervals: parts.intervals() } : {}),
  };
}

/**
 * GET /{kind}/{idName}/compare, less its response schema (the kind adds it): one rendering per
 * tuning system × starting note; `head` keys the entity, `partsOf` gives the kind's parts of a cell.
 */
export const compareSpec = <K extends Kind, H, S, T, D, I>(kind: K, head: (entity: EntityObject) => H, partsOf: CompareCellPartsOf<EntityOf<K>, S, T, D, I>) =>
  routeSpec({
    path: `${collectionOf(kind)}/{idName}/compare`,
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
      if (isAnswer(ref)) return ref;
      const tonic = requestedTonic(cat, ref, "transposeTo", p.transposeTo, "/compare");
      if (isAnswer(tonic)) return tonic;
      const e = ref.entity;
      const { collection } = KIND[kind];
      return ok({
        ...head(entityObject(e, p.includeArabic)),
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
