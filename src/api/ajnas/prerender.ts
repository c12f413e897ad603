/**
 * The jins requests a build pre-renders (canonical form: parameters sorted by name, values as
 * idNames). Compare stays with the fallback: its lists of tuning systems are free.
 */
import { SORT_OPTIONS } from "../entities/views.js";
import { distinctTranspositions } from "../entities/transpositions.js";
import type { Catalog } from "../../theory/catalog.js";
import { firstNoteOf } from "../../theory/entity.js";
import { isPossibleIn, isPossibleInSomeSet } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { transpositionsOf } from "../../theory/transposition.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import {
  detailQueryPrefixes,
  partOf,
  prerenderedRenderings,
  tuningQuery,
  variants,
  withQuery,
  type PrerenderOptions,
  type TuningSystemPart,
} from "../shared/prerender.js";

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
 * tonic (the taḥlīl under the base idName, every other entry under its transposed idName) and the
 * transpositions; availability of every jins through its base idName and every transposed idName;
 * the per-tuning-system lists in their main variants.
 */
export function* ajnasRequests(cat: Catalog, options: PrerenderOptions): Generator<string> {
  const tonicIds = [...new Set(cat.ajnas.map((j) => toIdName(firstNoteOf(j))))];
  for (const q of variants([
    ["filterByTonic", tonicIds],
    ["includeArabic", ["true"]],
    ["includeSources", ["true"]],
    ["sortBy", SORT_OPTIONS],
  ]))
    yield withQuery("/ajnas", q);
  for (const ts of cat.tuningSystems)
    for (const startingNote of ts.startingNotes)
      for (const q of PER_TUNING_SYSTEM_VARIANTS) yield withQuery(`/tuning-systems/${ts.id}/${toIdName(startingNote)}/ajnas`, q);
  const perTuningSystem = cat.tuningSystems.map((ts) => partOf(cat, ts, options, REALISATIONS_PART));
  for (const jins of cat.ajnas) {
    const transposedIds = new Set<string>();
    for (const listed of perTuningSystem) {
      const [requests, transposed] = listed[jins.idName];
      yield* requests;
      for (const id of transposed) transposedIds.add(id);
    }
    yield `/ajnas/${jins.idName}/availability`;
    for (const idName of transposedIds) yield `/ajnas/${idName}/availability`;
  }
}

/** Per jins (by idName), in one tuning system: its detail and transpositions requests, and its transposed idNames in the order first met. */
export const REALISATIONS_PART: TuningSystemPart<Record<string, [requests: string[], transposed: string[]]>> = {
  name: "ajnas/realisations",
  list: realisationRequests,
};

function realisationRequests(cat: Catalog, ts: TuningSystem, options: PrerenderOptions): Record<string, [requests: string[], transposed: string[]]> {
  const byJins: Record<string, [string[], string[]]> = {};
  for (const jins of cat.ajnas) {
    const requests: string[] = [];
    const transposed = new Set<string>();
    if (isPossibleInSomeSet(cat, jins, ts))
      for (const startingNote of ts.startingNotes) {
        const list = transpositionsOf(cat, jins, ts, startingNote);
        const context = tuningQuery(ts, startingNote);
        // The default data type of a jins detail is already `all`: one file per rendering.
        for (const { idName } of prerenderedRenderings(cat, list, options))
          for (const prefix of detailQueryPrefixes(options)) requests.push(`/ajnas/${idName}?${prefix}${context}`);
        for (const { idName } of list) if (idName !== jins.idName) transposed.add(idName);
        if (isPossibleIn(cat, jins, ts, startingNote) && distinctTranspositions(cat, list).length)
          requests.push(`/ajnas/${jins.idName}/transpositions?${context}`);
      }
    byJins[jins.idName] = [requests, [...transposed]];
  }
  return byJins;
}
