/**
 * GET /{maqamat|ajnas}/{idName}/availability: the tuning systems and starting notes that realise a
 * maqām or jins.
 */
import { ok, isAnswer } from "../errors.js";
import { KIND, collectionOf, entityObject, type EntityObject } from "../shared/format.js";
import { centsTolerance, includeArabic, optionalText } from "../declare.js";
import { requestedTonic, resolveEntity } from "../resolve.js";
import { routeSpec } from "../route.js";
import { noteNameToArabic } from "../../theory/arabic.js";
import type { Entity } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import { availabilityOf, type Availability } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { transpositionsOf, type Transposition } from "../../theory/transposition.js";
import { attachedCache } from "../../theory/memo.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import { type Kind, entityPath } from "./views.js";

// ---------------------------------------------------------------------------------------------
// Availability

/** The tonics (idNames) of a transposition list, kept as long as the list: every transposed idName of an entity asks the same lists. */
const tonicsOf = attachedCache<readonly Transposition[], ReadonlySet<string>>();

/** The tonics (idNames) an entity's transposition list (taḥlīl included) reaches in a tuning system × starting note. */
export type ReachedTonics = (ts: TuningSystem, startingNote: string) => ReadonlySet<string>;

/** ReachedTonics as the transposition lists of `cat` at `tolerance` give them. */
export const reachedTonics =
  (cat: Catalog, e: Entity, tolerance: number): ReachedTonics =>
  (ts, startingNote) => {
    const list = transpositionsOf(cat, e, ts, startingNote, tolerance);
    return tonicsOf(list, () => new Set(list.map((t) => toIdName(t.tonic))));
  };

/**
 * The tuning systems and starting notes whose adjacent-octave name sets realise the entity (three
 * registers, so ajnās spanning octaves are found), optionally only those whose transposition list
 * (taḥlīl included) has an entry on `tonic`: all an availability answer says besides the entity,
 * so an incremental build hashes it (with the tonics it listed before, `reached`) to tell which
 * answers a change of the facts changes; it passes the entity's `availability`, worked out once
 * for all its transposed idNames.
 */
export function availableStartingNotes(
  cat: Catalog,
  e: Entity,
  tonic: string | undefined,
  tolerance: number,
  reached = reachedTonics(cat, e, tolerance),
  availability: readonly Availability[] = availabilityOf(cat, e),
) {
  const wanted = tonic === undefined ? undefined : toIdName(tonic);
  const hasTonic = (ts: TuningSystem, startingNote: string) => wanted === undefined || reached(ts, startingNote).has(wanted);
  return availability
    .map(({ tuningSystem, startingNotes }) => ({ ts: tuningSystem, startingNotes: startingNotes.filter((s) => hasTonic(tuningSystem, s)) }))
    .filter(({ startingNotes }) => startingNotes.length > 0);
}

/** `/{kind}/{idName}/availability`: availableStartingNotes with the tuning systems' and notes' names. */
function availabilityBlock(cat: Catalog, e: Entity, tonic: string | undefined, tolerance: number, includeArabic: boolean) {
  const tuningSystems = availableStartingNotes(cat, e, tonic, tolerance).map(({ ts, startingNotes }) => ({
    tuningSystemId: ts.id,
    tuningSystemDisplayName: ts.displayName,
    ...(includeArabic ? { tuningSystemDisplayNameAr: ts.displayNameAr } : {}),
    tuningSystemStartingNoteNames: startingNotes,
    ...(includeArabic ? { tuningSystemStartingNoteNamesAr: startingNotes.map(noteNameToArabic) } : {}),
    tuningSystemStartingNoteNamesIds: startingNotes.map(toIdName),
  }));
  return { count: tuningSystems.length, tuningSystems };
}

/**
 * GET /{kind}/{idName}/availability, less its response schema (the kind adds it); `head` keys the
 * entity; a transposed idName selects its tonic.
 */
export const availabilitySpec = <K extends Kind, H>(kind: K, head: (entity: EntityObject) => H) =>
  routeSpec({
    path: `${collectionOf(kind)}/{idName}/availability`,
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
      if (isAnswer(ref)) return ref;
      const tonic = requestedTonic(cat, ref, "transpositionNoteName", p.transpositionNoteName, "/availability");
      if (isAnswer(tonic)) return tonic;
      const availability = availabilityBlock(cat, ref.entity, tonic, p.centsTolerance, p.includeArabic);
      return ok({ ...head(entityObject(ref.entity, p.includeArabic)), availability });
    },
  });
