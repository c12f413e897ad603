/**
 * GET /{maqamat|ajnas}/{idName}/transpositions: the distinct transpositions of a maqām or jins.
 */
import { apiError, isAnswer, ok } from "../errors.js";
import { apiUrl, queryString } from "../links.js";
import { KIND, collectionOf, entityObject, noteRef, tuningSystemEntity, type EntityObject } from "../shared/format.js";
import { centsTolerance, includeArabic, tuningContextParams } from "../declare.js";
import { resolveEntity, resolveTuning, transpositionSummary, type TuningContext } from "../resolve.js";
import { routeSpec, type RequestContext } from "../route.js";
import { entityNameToArabic } from "../../theory/arabic.js";
import type { Entity } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import { isPossibleIn } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { transpositionsOf, transposedOnly, type Transposition } from "../../theory/transposition.js";
import { pitchClassesPerOctave } from "../../theory/tuningSystem.js";
import { type EntityOf, type Kind, availabilityHint, entityPath, transpositionSummaries } from "./views.js";

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
    ["startingNote", toIdName(startingNote)],
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
 * `/{kind}/{idName}/transpositions`: the distinct transpositions of a base entity in one tuning
 * system and starting note; 422 when the entity cannot be built there or has no distinct one.
 * The entity comes under the kind's key (`head`); `detailed` entries get `extra(t)` between
 * `pitchClass` and `links` (the maqām degree blocks).
 */
function transpositionsAnswer<H, X extends object>(
  ctx: RequestContext,
  e: Entity,
  tuning: TuningContext,
  tolerance: number,
  includeArabic: boolean,
  head: (entity: EntityObject) => H,
  extra: (t: Transposition) => X,
) {
  const cat = ctx.catalog;
  const { ts, startingNote } = tuning;
  if (!isPossibleIn(cat, e, ts, startingNote)) return notRealizable(e, tuning);
  const distinct = distinctTranspositions(cat, transpositionsOf(cat, e, ts, startingNote, tolerance));
  if (distinct.length === 0) return noDistinctTranspositions(e, tuning);
  const collection = KIND[e.kind].collection;
  const startingNoteId = toIdName(startingNote);
  const detailQuery = contextQuery(ctx, tuning, tolerance);
  return ok({
    ...head(entityObject(e, includeArabic)),
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
      self: apiUrl(
        ctx,
        `${collection}/${e.idName}/transpositions${queryString([
          ["tuningSystem", ts.id],
          ["startingNote", startingNoteId],
        ])}`,
      ),
      availability: apiUrl(ctx, `${collection}/${e.idName}/availability`),
      detail: apiUrl(ctx, `${collection}/${e.idName}`),
    },
  });
}

/** Fields a kind adds to each detailed transposition (the maqām's named degrees). */
type TranspositionExtra<K extends Kind, X> = (
  cat: Catalog,
  e: EntityOf<K>,
  t: Transposition,
  tuning: TuningContext,
  tolerance: number,
  includeArabic: boolean,
) => X;

/**
 * GET /{kind}/{idName}/transpositions of a base idName, less its response schema (the kind adds
 * it); `head` keys the entity, `extra` adds the kind's fields to each detailed transposition.
 */
export const transpositionsSpec = <K extends Kind, H, X extends object>(kind: K, head: (entity: EntityObject) => H, extra: TranspositionExtra<K, X>) =>
  routeSpec({
    path: `${collectionOf(kind)}/{idName}/transpositions`,
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
      if (isAnswer(ref)) return ref;
      const e = ref.entity;
      if (ref.tonic !== undefined) return transposedIdNotAccepted(p.idName, e, "/transpositions");
      const tuning = resolveTuning(cat, p.tuningSystem, p.startingNote, availabilityHint(e));
      if (isAnswer(tuning)) return tuning;
      return transpositionsAnswer(ctx, e, tuning, p.centsTolerance, p.includeArabic, head, (t) => extra(cat, e, t, tuning, p.centsTolerance, p.includeArabic));
    },
  });
