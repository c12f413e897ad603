/**
 * The maqām requests a build pre-renders (canonical form: parameters sorted by name, values as
 * idNames). Compare stays with the fallback: its lists of tuning systems are free.
 */
import { SORT_OPTIONS } from "../entities/views.js";
import { distinctTranspositions } from "../entities/transpositions.js";
import { listFamilies } from "../../theory/maqamFamilies.js";
import { DEFAULT_CENTS_TOLERANCE } from "../../theory/defaults.js";
import type { Catalog } from "../../theory/catalog.js";
import { FAMILY_ID_NAMES } from "../../theory/family.js";
import { isPossibleIn } from "../../theory/realisation.js";
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

/** The tonics the spec allows for filtering, and every tonic the data has. */
const listTonics = (cat: Catalog) => [
  ...new Set([
    "ajam_ushayran",
    "chahargah",
    "dugah",
    "iraq",
    "nawa",
    "rast",
    "segah",
    "ushayran",
    "yegah",
    ...cat.maqamat.map((m) => toIdName(m.ascending[0])),
  ]),
];

/**
 * Every list variant (each family and tonic filter, alone and combined, each sort, with and
 * without Arabic and sources), the families of every tuning system × starting note, the
 * availability of every maqām through its base idName and every transposed idName, and its
 * transpositions wherever they are a 200.
 */
export function* maqamatRequests(cat: Catalog, options: PrerenderOptions = { full: false }): Generator<string> {
  const families = [...new Set([...FAMILY_ID_NAMES, ...listFamilies(cat, DEFAULT_CENTS_TOLERANCE).map((f) => f.idName)])];
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
  const perTuningSystem = cat.tuningSystems.map((ts) => partOf(cat, ts, options, TRANSPOSITIONS_PART));
  for (const m of cat.maqamat) {
    const transposedIds = new Set<string>();
    for (const listed of perTuningSystem) {
      const [requests, transposed] = listed[m.idName];
      yield* requests;
      for (const id of transposed) transposedIds.add(id);
    }
    for (const id of [m.idName, ...transposedIds]) {
      yield `/maqamat/${id}/availability`;
      yield `/maqamat/${id}/availability?includeArabic=true`;
    }
  }
}

/** Per maqām (by idName), in one tuning system: its transpositions requests, and its transposed idNames in the order first met. */
export const TRANSPOSITIONS_PART: TuningSystemPart<Record<string, [requests: string[], transposed: string[]]>> = {
  name: "maqamat/transpositions",
  list: transpositionRequests,
};

function transpositionRequests(cat: Catalog, ts: TuningSystem): Record<string, [requests: string[], transposed: string[]]> {
  const byMaqam: Record<string, [string[], string[]]> = {};
  for (const m of cat.maqamat) {
    const requests: string[] = [];
    const transposed = new Set<string>();
    for (const startingNote of ts.startingNotes) {
      if (!isPossibleIn(cat, m, ts, startingNote)) continue;
      const list = transpositionsOf(cat, m, ts, startingNote);
      for (const t of list) if (t.idName !== m.idName) transposed.add(t.idName);
      if (distinctTranspositions(cat, list).length) requests.push(`/maqamat/${m.idName}/transpositions?${tuningQuery(ts, startingNote)}`);
    }
    byMaqam[m.idName] = [requests, [...transposed]];
  }
  return byMaqam;
}

/**
 * Per maqām × starting note of a tuning system where it is realisable, the detail of every
 * reachable tonic — the taḥlīl under the base idName, every other entry under its own idName — in
 * default form and with `pitchClassDataType=all`; and `/maqamat/all` per starting note.
 */
export const DETAILS_PART: TuningSystemPart<string[]> = {
  name: "maqamat/details",
  list: (cat, ts, options) => {
    const requests: string[] = [];
    for (const startingNote of ts.startingNotes) {
      const context = tuningQuery(ts, startingNote);
      requests.push(`/maqamat/all?${context}`);
      for (const m of cat.maqamat) {
        if (!isPossibleIn(cat, m, ts, startingNote)) continue;
        for (const { idName } of prerenderedRenderings(cat, transpositionsOf(cat, m, ts, startingNote), options))
          for (const prefix of detailQueryPrefixes(options)) {
            requests.push(`/maqamat/${idName}?${prefix}${context}`);
            requests.push(`/maqamat/${idName}?${prefix}pitchClassDataType=all&${context}`);
          }
      }
    }
    return requests;
  },
};

/** DETAILS_PART of every tuning system. */
export function* maqamDetailRequests(cat: Catalog, options: PrerenderOptions): Generator<string> {
  for (const ts of cat.tuningSystems) yield* partOf(cat, ts, options, DETAILS_PART);
}
