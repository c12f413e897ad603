/** The pitch-class-set requests a build pre-renders (canonical form: parameters sorted by name, values as idNames). */
import { MAQAM_SETS_PATH, TWELVE_TONE_PATH } from "./views.js";
import type { Catalog } from "../../theory/catalog.js";
import { findStartingNote } from "../../theory/tuningSystem.js";
import { alKindiOf } from "../../theory/twelveToneSets.js";
import { tuningQuery } from "../shared/prerender.js";

/**
 * Each tuning system × starting note: both classifications in default form and with the
 * incompatible transpositions, the maqām sets also with their pitch classes; and the bare 12-tone
 * request, which answers for the default tuning.
 */
export function* classificationRequests(cat: Catalog): Generator<string> {
  yield TWELVE_TONE_PATH;
  const alKindi = alKindiOf(cat);
  for (const ts of cat.tuningSystems)
    for (const note of ts.startingNotes) {
      const tuning = tuningQuery(ts, note);
      if (findStartingNote(alKindi, note)) for (const extra of ["", "includeIncompatible=true&"]) yield `${TWELVE_TONE_PATH}?${extra}${tuning}`;
      for (const extra of ["", "includeIncompatible=true&", "includePitchClassData=true&"]) yield `${MAQAM_SETS_PATH}?${extra}${tuning}`;
    }
}
