/**
 * The maqām and jins requests a build pre-renders (canonical form: parameters sorted by name,
 * values as idNames). Compare stays with the fallback: its lists of tuning systems are free.
 */
import { SORT_OPTIONS } from "../../src/api/entityViews.js";
import { distinctTranspositions } from "../../src/api/entityTranspositions.js";
import { listFamilies } from "../../src/theory/maqamFamilies.js";
import type { Catalog } from "../../src/theory/catalog.js";
import { firstNoteOf } from "../../src/theory/entity.js";
import { FAMILY_ID_NAMES } from "../../src/theory/family.js";
import { isPossibleIn, isPossibleInSomeSet } from "../../src/theory/realisation.js";
import { toIdName } from "../../src/theory/idName.js";
import { transpositionsOf } from "../../src/theory/transposition.js";
import { detailQueryPrefixes, prerenderedRenderings, tuningQuery, type PrerenderOptions } from "./renderings.js";

/** Every combination of optional parameters, each either absent or set to one of its values. */
function* variants(options: [string, readonly string[]][]): Generator<string> {
  const [first, ...rest] = options;
  if (!first) {
    yield "";
    return;
  }
  const [name, values] = first;
  for (const tail of variants(rest)) {
    yield tail;
    for (const value of values) yield `${name}=${value}${tail ? `&${tail}` : ""}`;
  }
}

const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);

/** The tonics the spec allows for filtering, and every tonic the data has. */
const listTonics = (cat: Catalog) => [
  ...new Set(["ajam_ushayran", "chahargah", "dugah", "iraq", "nawa", "rast", "segah", "ushayran", "yegah", ...cat.maqamat.map((m) => toIdName(m.ascending[0]))]),
];

/**
 * Every list variant (each family and tonic filter, alone and combined, each sort, with and
 * without Arabic and sources), the families of every tuning system × starting note, the
 * availability of every maqām through its base idName and every transposed idName, and its
 * transpositions wherever they are a 200.
 */
export function* maqamatRequests(cat: Catalog): Generator<string> {
  const families = [...new Set([...FAMILY_ID_NAMES, ...listFamilies(cat, 5).map((f) => f.idName)])];
  for (const q of variants([
    ["filterByFamily", families],
    ["filterByTonic", listTonics(cat)],
    ["includeArabic", ["true"]],
    ["includeSources", ["true"]],
    ["sortBy", SORT_OPTIONS],
  ]))
    yield withQuery("/maqamat", q);
  for (const ts of cat.tuningSystems)
    for (const startingNote of ts.startingNotes)
      for (const arabic of ["", "includeArabic=true&"]) yield `/maqamat/families?${arabic}${tuningQuery(ts, startingNote)}`;
  for (const m of cat.maqamat) {
    const transposedIds = new Set<string>();
    for (const ts of cat.tuningSystems)
      for (const startingNote of ts.startingNotes) {
        if (!isPossibleIn(cat, m, ts, startingNote)) continue;
        const list = transpositionsOf(cat, m, ts, startingNote);
        for (const t of list) if (t.idName !== m.idName) transposedIds.add(t.idName);
        if (distinctTranspositions(cat, list).length) yield `/maqamat/${m.idName}/transpositions?${tuningQuery(ts, startingNote)}`;
      }
    for (const id of [m.idName, ...transposedIds]) {
      yield `/maqamat/${id}/availability`;
      yield `/maqamat/${id}/availability?includeArabic=true`;
    }
  }
}

/**
 * Per maqām × tuning system × starting note where it is realisable, the detail of every reachable
 * tonic — the taḥlīl under the base idName, every other entry under its own idName — in default
 * form and with `pitchClassDataType=all`; and `/maqamat/all` per tuning system × starting note.
 */
export function* maqamDetailRequests(cat: Catalog, options: PrerenderOptions): Generator<string> {
  for (const ts of cat.tuningSystems)
    for (const startingNote of ts.startingNotes) {
      const context = tuningQuery(ts, startingNote);
      yield `/maqamat/all?${context}`;
      for (const m of cat.maqamat) {
        if (!isPossibleIn(cat, m, ts, startingNote)) continue;
        for (const { idName } of prerenderedRenderings(cat, transpositionsOf(cat, m, ts, startingNote), options))
          for (const prefix of detailQueryPrefixes(options)) {
            yield `/maqamat/${idName}?${prefix}${context}`;
            yield `/maqamat/${idName}?${prefix}pitchClassDataType=all&${context}`;
          }
      }
    }
}

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
  for (const jins of cat.ajnas) {
    const transposedIds = new Set<string>();
    for (const ts of cat.tuningSystems) {
      if (!isPossibleInSomeSet(cat, jins, ts)) continue;
      for (const startingNote of ts.startingNotes) {
        const list = transpositionsOf(cat, jins, ts, startingNote);
        const context = tuningQuery(ts, startingNote);
        // The default data type of a jins detail is already `all`: one file per rendering.
        for (const { idName } of prerenderedRenderings(cat, list, options))
          for (const prefix of detailQueryPrefixes(options)) yield `/ajnas/${idName}?${prefix}${context}`;
        for (const { idName } of list) if (idName !== jins.idName) transposedIds.add(idName);
        if (isPossibleIn(cat, jins, ts, startingNote) && distinctTranspositions(cat, list).length) yield `/ajnas/${jins.idName}/transpositions?${context}`;
      }
    }
    yield `/ajnas/${jins.idName}/availability`;
    for (const idName of transposedIds) yield `/ajnas/${idName}/availability`;
  }
}
