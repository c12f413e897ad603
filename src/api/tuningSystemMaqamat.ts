/**
 * GET /tuning-systems/{id}/{startingNote}/maqamat: the maqāmāt a tuning system realises from a
 * starting note, with their degrees and transpositions on request. Each maqām is realised from
 * its own tonic (the set starting on it, else the first set), as the reference does (§7.1).
 */
import { defineRoute } from "./route.js";
import { strictBoolean } from "./declare.js";
import { apiUrl } from "./links.js";
import { entityObject, noteRef } from "./format.js";
import { resolveTuningPath, transpositionSummary, type TuningContext } from "./resolve.js";
import { isAnswer } from "./errors.js";
import { perTuningSystemAnswer, perTuningSystemParams, sortByNameOrTonic, startingNoteNameSet } from "./entityViews.js";
import { characteristicsOf, familyRef, maqamSortKey, tonicStartingNote, untransposedIn } from "./maqamat.js";
import { entityNameToArabic } from "../theory/arabic.js";
import type { Maqam } from "../theory/entity.js";
import type { Catalog } from "../theory/catalog.js";
import { familyOf, type Family } from "../theory/family.js";
import type { PitchClass } from "../theory/pitchClass.js";
import { isPossible } from "../theory/realisation.js";
import { respellScale } from "../theory/respell.js";
import { toIdName } from "../theory/idName.js";
import { memoOf } from "../theory/caches.js";
import { transpositionsOf, transposedOnly, type Transposition } from "../theory/transposition.js";
import { tuningSystemMaqamat } from "./responses/tuningSystems.js";

/** A maqām available from the starting note, realised from its own tonic. */
interface Available {
  maqam: Maqam;
  /** The tuning system's starting note the maqām's tonic selects. */
  startingNote: string;
  /** Its first untransposed realisation there. */
  tahlil: Transposition;
  family: Family;
}

const availableMemo = memoOf<Available[]>("availableMaqamat");

/**
 * The maqāmāt whose notes the starting note's adjacent-octave name set holds and that have an
 * untransposed realisation from their own tonic; computed once per tuning system × starting note
 * × tolerance, in data order.
 */
function availableFrom(cat: Catalog, tuning: TuningContext, tolerance: number): Available[] {
  const { ts, startingNote } = tuning;
  return availableMemo(cat)(`${ts.id}\u0000${startingNote}\u0000${tolerance}`, () => {
    const names = startingNoteNameSet(cat, tuning);
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

/** Note idNames of cells (descending ones top-down, as given). */
const idNames = (cells: readonly PitchClass[]) => cells.map((pc) => toIdName(pc.noteName));

/** Degree details of re-spelled cells (§14.3). */
const degreeDetails = (cells: readonly PitchClass[]) =>
  cells.map((pc) => ({
    noteName: toIdName(pc.noteName),
    englishName: pc.englishName,
    solfege: pc.solfege,
    ipnReferenceNoteName: pc.ipnReferenceNoteName,
    centsDeviation: pc.centsDeviation,
    midiNotePlusCentsDeviation: pc.midiNotePlusCentsDeviation,
  }));

/** `maqamDegrees` of a realisation: note idNames, or with `details` the re-spelled degree objects. */
function realisedDegrees(t: Transposition, details: boolean) {
  if (!details) return { ascending: idNames(t.ascending), descending: idNames(t.descending) };
  const spelled = respellScale(t.ascending, t.descending);
  return { ascending: degreeDetails(spelled.ascending), descending: degreeDetails(spelled.descending) };
}

const route = defineRoute({
  path: "/tuning-systems/{id}/{startingNote}/maqamat",
  summary: "The maqāmāt that can be built in one tuning system from one starting note.",
  response: tuningSystemMaqamat,
  params: perTuningSystemParams({
    includeMaqamDegrees: strictBoolean("Include each maqām's ascending and descending degrees (note idNames)."),
    includeDegreeDetails: strictBoolean("With includeMaqamDegrees, each degree as an object with its IPN spelling and deviation."),
    includeTranspositions: strictBoolean("Include the transpositions of each maqām available here."),
  }),
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const tuning = resolveTuningPath(cat, p.id, p.startingNote);
    if (isAnswer(tuning)) return tuning;
    const available = availableFrom(cat, tuning, p.centsTolerance);
    // Degree details apply to the degree arrays, so only together with includeMaqamDegrees.
    const details = p.includeMaqamDegrees && p.includeDegreeDetails;
    const data = sortByNameOrTonic(cat, available, p.sortBy, ({ maqam }) => maqamSortKey(maqam)).map(({ maqam, startingNote: own, tahlil, family }) => ({
      maqam: entityObject(maqam, p.includeArabic),
      family: familyRef(family, p.includeArabic),
      tonic: noteRef(maqam.ascending[0], p.includeArabic),
      stats: { numberOfPitchClasses: maqam.ascending.length },
      characteristics: characteristicsOf(maqam, maqam, false),
      links: { detail: apiUrl(ctx, `/maqamat/${maqam.idName}`) },
      ...(p.includeMaqamDegrees
        ? {
            maqamDegrees: details ? realisedDegrees(tahlil, true) : { ascending: maqam.ascending.map(toIdName), descending: maqam.descending.map(toIdName) },
          }
        : {}),
      ...(p.includeTranspositions
        ? {
            transpositions: transposedOnly(transpositionsOf(cat, maqam, tuning.ts, own, p.centsTolerance)).map((t) => ({
              ...transpositionSummary(t, p.includeArabic, entityNameToArabic),
              maqamDegrees: realisedDegrees(t, details),
            })),
          }
        : {}),
    }));
    const stats = {
      totalMaqamatForStartingNote: data.length,
      totalMaqamatInLibrary: cat.maqamat.length,
      uniqueTonicCount: new Set(available.map(({ maqam }) => toIdName(maqam.ascending[0]))).size,
      uniqueFamilyCount: new Set(available.map(({ family }) => family.idName)).size,
    };
    return perTuningSystemAnswer(ctx, "maqam", p, tuning, p.includeArabic, stats, data);
  },
});

export const routes = [route];
