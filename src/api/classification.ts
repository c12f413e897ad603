/**
 * The classification group: both pitch-class-set endpoints and the requests they pre-render.
 */
import type { Route } from "./route.js";
import { toIdName } from "../theory/idName.js";
import type { Catalog } from "../theory/catalog.js";
import { findStartingNote } from "../theory/tuningSystem.js";
import { alKindiOf } from "../theory/twelveToneSets.js";
import { MAQAM_SETS_PATH, TWELVE_TONE_PATH } from "./pitchClassSetViews.js";
import { maqamSetsRoute } from "./maqamPitchClassSets.js";
import { twelveToneRoute } from "./twelvePitchClassSets.js";

export const routes: readonly Route[] = [twelveToneRoute, maqamSetsRoute];

/**
 * Each tuning system × starting note: both endpoints in default form and with the incompatible
 * transpositions, the maqām sets also with their pitch classes; and the bare 12-tone request,
 * which answers for the default tuning (canonical queries: parameters sorted by name).
 */
export function* prerender(cat: Catalog): Generator<string> {
  yield TWELVE_TONE_PATH;
  const alKindi = alKindiOf(cat);
  for (const ts of cat.tuningSystems)
    for (const note of ts.startingNotes) {
      const tuning = `startingNote=${toIdName(note)}&tuningSystem=${ts.id}`;
      if (findStartingNote(alKindi, note)) for (const extra of ["", "includeIncompatible=true&"]) yield `${TWELVE_TONE_PATH}?${extra}${tuning}`;
      for (const extra of ["", "includeIncompatible=true&", "includePitchClassData=true&"]) yield `${MAQAM_SETS_PATH}?${extra}${tuning}`;
    }
}
