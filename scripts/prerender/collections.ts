/**
 * The requests a build pre-renders for the tuning systems, note names, sources and pitch-class
 * sets (canonical form: parameters sorted by name, values as idNames).
 */
import { PITCH_CLASS_DATA_TYPES } from "../../src/api/shared/pitchClassValues.js";
import { queryString } from "../../src/api/links.js";
import { NOTE_NAME_SORT_OPTIONS, NOTE_NAMES_PATH } from "../../src/api/noteNames.js";
import { MAQAM_SETS_PATH, TWELVE_TONE_PATH } from "../../src/api/pitchClassSetViews.js";
import { OCTAVE_OPTIONS } from "../../src/api/tuningSystems.js";
import type { Catalog } from "../../src/theory/catalog.js";
import { toIdName } from "../../src/theory/idName.js";
import { findStartingNote } from "../../src/theory/tuningSystem.js";
import { alKindiOf } from "../../src/theory/twelveToneSets.js";
import { tuningQuery } from "./renderings.js";

/** Every list variant, each tuning system with and without Arabic, and each tuning system × starting note's pitch classes per data type and octave. */
export function* tuningSystemsRequests(cat: Catalog): Generator<string> {
  for (const q of ["", "?includeArabic=true", "?includeSources=true", "?includeArabic=true&includeSources=true"]) yield `/tuning-systems${q}`;
  for (const ts of cat.tuningSystems) for (const q of ["", "?includeArabic=true"]) yield `/tuning-systems/${ts.id}${q}`;
  for (const ts of cat.tuningSystems)
    for (const note of ts.startingNotes) {
      const base = `/tuning-systems/${ts.id}/${toIdName(note)}/pitch-classes`;
      yield base;
      for (const type of PITCH_CLASS_DATA_TYPES) for (const octave of OCTAVE_OPTIONS) yield `${base}?octave=${octave}&pitchClassDataType=${type}`;
    }
}

/**
 * The maqāmāt of a tuning system × starting note in the default form and single-feature variants.
 * Transpositions with degree details reach 14 MB a file (110 MB in all), so that combination is
 * left to the fallback.
 */
const TUNING_SYSTEM_MAQAMAT_VARIANTS = [
  "",
  "?includeArabic=true",
  "?sortBy=alphabetical",
  "?includeMaqamDegrees=true",
  "?includeDegreeDetails=true&includeMaqamDegrees=true",
  "?includeTranspositions=true",
];

export function* tuningSystemMaqamatRequests(cat: Catalog): Generator<string> {
  for (const ts of cat.tuningSystems)
    for (const startingNote of ts.startingNotes)
      for (const q of TUNING_SYSTEM_MAQAMAT_VARIANTS) yield `/tuning-systems/${ts.id}/${toIdName(startingNote)}/maqamat${q}`;
}

/** Every list variant, and each note name's detail over all tuning systems and its availability. */
export function* noteNamesRequests(cat: Catalog): Generator<string> {
  for (const filter of [undefined, ...cat.tuningSystems.map((ts) => ts.id)])
    for (const arabic of [undefined, "true"])
      for (const sortBy of [undefined, ...NOTE_NAME_SORT_OPTIONS])
        yield NOTE_NAMES_PATH + queryString([["filterByTuningSystem", filter], ["includeArabic", arabic], ["sortBy", sortBy]]);
  for (const { idName } of cat.notes.allNoteNames)
    for (const q of ["", "?includeArabic=true"]) {
      yield `${NOTE_NAMES_PATH}/${idName}${q}`;
      yield `${NOTE_NAMES_PATH}/${idName}/availability${q}`;
    }
}

/** Every source answer, with and without Arabic. */
export function* sourcesRequests(cat: Catalog): Generator<string> {
  for (const q of ["", "?includeArabic=true"]) {
    yield `/sources${q}`;
    for (const { id } of cat.sources) for (const sub of ["", "/tuning-systems", "/maqamat", "/ajnas"]) yield `/sources/${id}${sub}${q}`;
  }
}

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
