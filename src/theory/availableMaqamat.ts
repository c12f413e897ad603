/**
 * The maqāmāt a tuning system offers from one starting note, each realised from its own tonic:
 * memoised per tuning system × starting note × tolerance.
 */
import { memoOf } from "./caches.js";
import type { Catalog } from "./catalog.js";
import type { Maqam } from "./entity.js";
import { familyOf, type Family } from "./family.js";
import { tonicStartingNote, untransposedIn } from "./maqamFamilies.js";
import { adjacentOctaveNames, isPossible } from "./realisation.js";
import type { Transposition } from "./transposition.js";
import type { TuningSystem } from "./tuningSystem.js";

/** A maqām available from the starting note, realised from its own tonic. */
export interface Available {
  maqam: Maqam;
  /** The tuning system's starting note the maqām's tonic selects. */
  startingNote: string;
  /** Its first untransposed realisation there. */
  tahlil: Transposition;
  family: Family;
}

/** The starting note's name set with its neighbours an octave either side: the lists realise entities in it. */
export const startingNoteNameSet = (cat: Catalog, ts: TuningSystem, startingNote: string) =>
  adjacentOctaveNames(
    cat,
    ts,
    ts.record.noteNames.findIndex((set) => set[0] === startingNote),
  );

const availableMemo = memoOf<Available[]>("availableMaqamat");

/**
 * The maqāmāt whose notes the starting note's adjacent-octave name set holds and that have an
 * untransposed realisation from their own tonic; in data order.
 */
export function availableFrom(cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number): Available[] {
  return availableMemo(cat)(`${ts.id}\u0000${startingNote}\u0000${tolerance}`, () => {
    const names = startingNoteNameSet(cat, ts, startingNote);
    const available: Available[] = [];
    for (const maqam of cat.maqamat) {
      if (!isPossible(maqam, names)) continue;
      const own = tonicStartingNote(ts, maqam);
      const tahlil = untransposedIn(cat, maqam, ts, own, tolerance);
      if (tahlil) available.push({ maqam, startingNote: own, tahlil, family: familyOf(cat, tahlil, ts, own, tolerance) });
    }
    return available;
  });
}
