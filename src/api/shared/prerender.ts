/**
 * What a build pre-renders, shared by the groups' enumerators (each group's prerender.ts): which
 * renderings of a maqām or jins (for the detail answers, their exports and their pictures) and
 * the canonical form of a query.
 */
import { distinctTranspositions } from "../entities/transpositions.js";
import type { Catalog } from "../../theory/catalog.js";
import type { Transposition } from "../../theory/transposition.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import { toIdName } from "../../theory/idName.js";

/**
 * What one tuning system adds to a list (`part`: a name of its own per enumerator), as `list`
 * computes it (a value JSON keeps as it is). A build passes one that reads the part back from
 * its previous build when nothing the part reads has changed (scripts/planListing.ts).
 */
export type ListOf = <T>(ts: TuningSystem, part: string, list: () => T) => T;

/** Which answers a build pre-renders: `full` adds every maqām and jins rendering (hosts without a size limit). */
export interface PrerenderOptions {
  full: boolean;
  /** How the per-tuning-system parts are listed; by default computed. */
  listOf?: ListOf;
}

/** The options' ListOf, or one that computes every part. */
export const listOfIn = (options: PrerenderOptions): ListOf => options.listOf ?? ((_, __, list) => list());

/**
 * A part of the listing that one tuning system adds (ListOf): its name, and how it is computed from
 * the catalog alone, so that a build may compute it wherever that tuning system's transpositions
 * already are (scripts/planListing.ts).
 */
export interface TuningSystemPart<T> {
  name: string;
  list: (cat: Catalog, ts: TuningSystem, options: PrerenderOptions) => T;
}

/** `part` of `ts`, as the options' ListOf gives it. */
export const partOf = <T>(cat: Catalog, ts: TuningSystem, options: PrerenderOptions, part: TuningSystemPart<T>): T =>
  listOfIn(options)(ts, part.name, () => part.list(cat, ts, options));

/**
 * The renderings whose detail answers are pre-rendered: the taḥlīl and one register per
 * transposed degree (the ones `/transpositions` lists). Octave renderings and other registers
 * stay with the fallback, which keeps the static tree within a static host's size limit; the
 * `full` profile takes every rendering (about 4 GB with the Arabic variants).
 */
export function prerenderedRenderings(cat: Catalog, list: readonly Transposition[], { full }: PrerenderOptions): Transposition[] {
  if (full) return list.filter((t, i) => list.findIndex((u) => u.idName === t.idName) === i);
  const base = list[0]?.isBaseForm ? [list[0]] : [];
  return [...base, ...distinctTranspositions(cat, list)];
}

/** Query prefixes of the pre-rendered detail variants (sorted names: `includeArabic` first). */
export const detailQueryPrefixes = ({ full }: PrerenderOptions): readonly string[] => (full ? ["", "includeArabic=true&"] : [""]);

/** `tuningSystem` and `startingNote` in canonical order, as every per-tuning query ends. */
export const tuningQuery = (ts: { id: string }, startingNote: string) => `startingNote=${toIdName(startingNote)}&tuningSystem=${ts.id}`;

/** Every combination of optional parameters, each either absent or set to one of its values. */
export function* variants(options: [string, readonly string[]][]): Generator<string> {
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

export const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);
