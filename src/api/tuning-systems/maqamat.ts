/**
 * GET /tuning-systems/{id}/{startingNote}/maqamat: the maqāmāt a tuning system realises from a
 * starting note, with their degrees and transpositions on request. Each maqām is realised from
 * its own tonic (the set starting on it, else the first set), as the reference does (§7.1).
 */
import { defineRoute } from "../route.js";
import { strictBoolean } from "../declare.js";
import { apiUrl } from "../links.js";
import { entityObject, noteRef } from "../shared/format.js";
import { resolveTuningPath, transpositionSummary } from "../resolve.js";
import { isAnswer } from "../errors.js";
import { perTuningSystemAnswer, perTuningSystemParams, sortByNameOrTonic } from "../entities/views.js";
import { characteristicsOf, familyRef, maqamSortKey } from "../maqamat/routes.js";
import { entityNameToArabic } from "../../theory/arabic.js";
import type { PitchClass } from "../../theory/pitchClass.js";
import { respellScale } from "../../theory/respell.js";
import { toIdName } from "../../theory/idName.js";
import { availableFrom } from "../../theory/availableMaqamat.js";
import { transpositionsOf, transposedOnly, type Transposition } from "../../theory/transposition.js";
import { tuningSystemSchemas } from "./schemas.js";

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
  response: () => tuningSystemSchemas().tuningSystemMaqamat,
  params: perTuningSystemParams({
    includeMaqamDegrees: strictBoolean("Include each maqām's ascending and descending degrees (note idNames)."),
    includeDegreeDetails: strictBoolean("With includeMaqamDegrees, each degree as an object with its IPN spelling and deviation."),
    includeTranspositions: strictBoolean("Include the transpositions of each maqām available here."),
  }),
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const tuning = resolveTuningPath(cat, p.id, p.startingNote);
    if (isAnswer(tuning)) return tuning;
    const available = availableFrom(cat, tuning.ts, tuning.startingNote, p.centsTolerance);
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
