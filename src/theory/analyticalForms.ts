/**
 * The analytical form of every maqām a tuning system × starting note realises: its transposition
 * list, family and modulation counts, by display name. Every `/maqamat/all` variant shares it, so
 * it is memoised per tuning system × starting note × tolerance.
 */
import { memoOf } from "./caches.js";
import { compareNames } from "./collation.js";
import type { Catalog } from "./catalog.js";
import type { Maqam } from "./entity.js";
import { familyOf, type Family } from "./family.js";
import { modulationCounts } from "./modulation.js";
import { isPossibleIn } from "./realisation.js";
import { transpositionsOf, type Transposition } from "./transposition.js";
import type { TuningSystem } from "./tuningSystem.js";

export interface AnalyticalForm {
  maqam: Maqam;
  list: readonly Transposition[];
  family: Family;
  counts: { maqamat: number; ajnas: number };
}

const analyticalFormsMemo = memoOf<AnalyticalForm[]>("analyticalForms");

export const analyticalForms = (cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number): AnalyticalForm[] =>
  analyticalFormsMemo(cat)(`${ts.id}\u0000${startingNote}\u0000${tolerance}`, () =>
    cat.maqamat
      .filter((m) => isPossibleIn(cat, m, ts, startingNote))
      .map((m) => ({ maqam: m, list: transpositionsOf(cat, m, ts, startingNote, tolerance) }))
      .filter(({ list }) => list.length > 0)
      .sort((a, b) => compareNames(a.maqam.name, b.maqam.name))
      .map(({ maqam, list }) => ({
        maqam,
        list,
        family: familyOf(cat, list[0], ts, startingNote, tolerance),
        counts: modulationCounts(cat, maqam, ts, startingNote, tolerance),
      })),
  );
