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
import { availabilityOf } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { transpositionsOf } from "../../theory/transposition.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import { type Kind, entityPath } from "./views.js";

// ---------------------------------------------------------------------------------------------
// Availability

/**
 * `/{kind}/{idName}/availability`: tuning systems and starting notes whose adjacent-octave name
 * sets realise the entity (three registers, so ajnās spanning octaves are found), optionally only
 * those whose transposition list (taḥlīl included) has an entry on `tonic`.
 */
function availabilityBlock(cat: Catalog, e: Entity, tonic: string | undefined, tolerance: number, includeArabic: boolean) {
  const hasTonic = (ts: TuningSystem, startingNote: string) =>
    tonic === undefined || transpositionsOf(cat, e, ts, startingNote, tolerance).some((t) => toIdName(t.tonic) === toIdName(tonic));
  const tuningSystems = availabilityOf(cat, e)
    .map(({ tuningSystem, startingNotes }) => ({ ts: tuningSystem, startingNotes: startingNotes.filter((s) => hasTonic(tuningSystem, s)) }))
    .filter(({ startingNotes }) => startingNotes.length > 0)
    .map(({ ts, startingNotes }) => ({
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
