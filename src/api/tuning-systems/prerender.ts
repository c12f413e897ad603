/**
 * The requests a build pre-renders for the tuning systems, their pitch classes and the maqāmāt of
 * each tuning system × starting note (canonical form: parameters sorted by name, values as idNames).
 */
import { PITCH_CLASS_DATA_TYPES } from "../shared/pitchClassValues.js";
import { OCTAVE_OPTIONS } from "./routes.js";
import type { Catalog } from "../../theory/catalog.js";
import { toIdName } from "../../theory/idName.js";

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
