/**
 * Which renderings of a maqām or jins a build pre-renders, shared by the detail answers, their
 * exports and their pictures.
 */
import { distinctTranspositions } from "../../src/api/entityTranspositions.js";
import type { Catalog } from "../../src/theory/catalog.js";
import type { Transposition } from "../../src/theory/transposition.js";
import { toIdName } from "../../src/theory/idName.js";

/** Which answers a build pre-renders: `full` adds every maqām and jins rendering (hosts without a size limit). */
export interface PrerenderOptions {
  full: boolean;
}

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
