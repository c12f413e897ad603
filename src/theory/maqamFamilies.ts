/**
 * Families of maqāmāt as the lists show them: each maqām classified on its first untransposed
 * realisation, the whole list in one reference tuning system, a tuning system's families from one
 * starting note. Memoised per tuning system × starting note × tolerance.
 */
import { memoOf } from "./caches.js";
import { compareNames } from "./collation.js";
import type { Catalog } from "./catalog.js";
import type { Maqam } from "./entity.js";
import { familyOf, type Family } from "./family.js";
import { isPossibleInSomeSet } from "./realisation.js";
import { transpositionsOf, type Transposition } from "./transposition.js";
import type { TuningSystem } from "./tuningSystem.js";

/** The family of a maqām the list's reference tuning system cannot realise. */
export const UNKNOWN_FAMILY: Family = { idName: "unknown", name: "unknown" };

/** The starting note a maqām's own tonic selects in a tuning system: the set starting on it, else the first. */
export const tonicStartingNote = (ts: TuningSystem, m: Maqam): string => ts.startingNotes.find((s) => s === m.ascending[0]) ?? ts.startingNotes[0];

/** The first untransposed realisation (taḥlīl or an octave rendering of it), if the maqām has one there. */
export const untransposedIn = (cat: Catalog, m: Maqam, ts: TuningSystem, startingNote: string, tolerance: number): Transposition | undefined =>
  transpositionsOf(cat, m, ts, startingNote, tolerance).find((t) => !t.isTransposed);

/** The family of a maqām's first untransposed realisation in a tuning system × starting note, if it has one. */
function familyIn(cat: Catalog, m: Maqam, ts: TuningSystem, startingNote: string, tolerance: number): Family | undefined {
  const t = untransposedIn(cat, m, ts, startingNote, tolerance);
  return t && familyOf(cat, t, ts, startingNote, tolerance);
}

/** The list classifies every maqām in one reference system, built from the maqām's own tonic. */
const LIST_CLASSIFIER_ID = "alsabbagh_1954";

/** The family GET /maqamat shows for a maqām and `filterByFamily` matches. */
function listFamily(cat: Catalog, m: Maqam, tolerance: number): Family {
  const classifier = cat.findTuningSystem(LIST_CLASSIFIER_ID);
  return (classifier && familyIn(cat, m, classifier, tonicStartingNote(classifier, m), tolerance)) ?? UNKNOWN_FAMILY;
}

const listFamiliesMemo = memoOf<Family[]>("listFamilies");

/** The list family of every maqām, in data order; computed once per tolerance. */
export const listFamilies = (cat: Catalog, tolerance: number): Family[] =>
  listFamiliesMemo(cat)(String(tolerance), () => cat.maqamat.map((m) => listFamily(cat, m, tolerance)));

const familiesMemo = memoOf<Family[]>("families");

/**
 * Families of the maqāmāt the tuning system realises (the adjacent-octave name set of some
 * starting note holds their notes, as the reference and its recordings have it), each classified
 * on its first untransposed realisation from the requested starting note; in display-name order.
 */
export function familiesIn(cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number): Family[] {
  return familiesMemo(cat)(`${ts.id}\u0000${startingNote}\u0000${tolerance}`, () => {
    const byId = new Map<string, Family>();
    for (const m of cat.maqamat) {
      const family = isPossibleInSomeSet(cat, m, ts) ? familyIn(cat, m, ts, startingNote, tolerance) : undefined;
      if (family && !byId.has(family.idName)) byId.set(family.idName, family);
    }
    return [...byId.values()].sort((a, b) => compareNames(a.name, b.name));
  });
}
