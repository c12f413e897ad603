/**
 * 200 bodies of GET /tuning-systems, /tuning-systems/{id}, /tuning-systems/{id}/{startingNote}/pitch-classes
 * and the per-tuning-system lists of maqāmāt and ajnās.
 */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { maqamSchemas } from "../maqamat/schemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The tuning-system bodies, built on first use (shared/onFirstUse.ts). */
export const tuningSystemSchemas = onFirstUse(() => {
  const {
    arabic,
    comments,
    count,
    entityRef,
    entityRefWithVersion,
    idName,
    link,
    links,
    noteNameArrays,
    originalValueType,
    pitchClass,
    pitchClassDataType,
    sourceReferences,
    transpositionSummary,
    tuningSystemHeader,
  } = sharedSchemas();
  const { characteristics } = maqamSchemas();

  const tuningSystemsList = z.strictObject({
    count: count.describe("Number of tuning systems."),
    data: z
      .array(
        z.strictObject({
          tuningSystem: tuningSystemHeader({ year: z.string().describe("May carry a letter suffix.") }),
          startingNotes: noteNameArrays.describe("First note of every note-name set, not deduplicated."),
          stats: z.strictObject({ numberOfPitchClassesSingleOctave: count }),
          sources: sourceReferences.optional().describe("Present with includeSources=true."),
        }),
      )
      .describe("Every tuning system."),
  });

  const tuningSystemDetail = z.strictObject({
    tuningSystem: tuningSystemHeader({ year: z.string(), numberOfPitchClassesSingleOctave: count }).describe("The tuning system."),
    record: z
      .strictObject({
        title: z.string(),
        creator: z.string(),
        year: z.string().describe("May carry a letter suffix."),
        source: z.string().describe("Where the creator published it, when the record says; often empty."),
        titleAr: arabic,
        creatorAr: arabic,
        sourceAr: arabic,
        comments,
        originalValueType,
        pitchClasses: z.array(z.string()).describe("One octave of pitch classes in their original notation (fractions, cents, ratios or string lengths)."),
        noteNameSets: z.array(noteNameArrays).describe("The note-name sets: each names the pitch classes from one starting note."),
        abjadNames: z.array(z.string()).describe("Abjad names of the pitch classes; empty strings where the source gives none."),
        stringLength: z.number().describe("Length of the open string the string-length values are measured on."),
        defaultReferenceFrequency: z.number().describe("Hz of the first pitch class when a starting note has none of its own."),
      })
      .describe("The stored record."),
    sources: z
      .array(z.strictObject({ sourceId: z.string(), page: z.string(), links: links({ source: link }) }))
      .describe("The pages of the sources it comes from."),
    startingNotes: z
      .array(z.strictObject({ ...entityRef.shape, referenceFrequency: z.number(), links: links({ pitchClasses: link, maqamat: link, ajnas: link }) }))
      .describe("Each starting note with its reference frequency and what it gives."),
    links: links({ self: link, collection: link }),
  });

  /** The head every per-tuning-system answer starts with. */
  const tuningSystemFrame = {
    tuningSystem: tuningSystemHeader({ year: z.string(), numberOfPitchClassesSingleOctave: count }).describe("The tuning system."),
    startingNotes: noteNameArrays.describe("The tuning system's starting notes."),
    selectedStartingNote: entityRef.describe("The starting note of the path."),
  };

  const tuningSystemPitchClasses = z.strictObject({
    ...tuningSystemFrame,
    stats: z
      .strictObject({
        totalPitchClasses: count,
        numberOfPitchClassesSingleOctave: count,
        referenceFrequency: z.number(),
        octaves: z.array(z.int().min(0).max(3)),
      })
      .describe("Pitch-class counts, the reference frequency and the octaves listed."),
    pitchClasses: z
      .array(pitchClass)
      .describe("The pitch classes of the requested octaves with the requested data field; cents below the starting note's octave are negative."),
    context: z.strictObject({ pitchClassDataType, octave: z.enum(["all", "0", "1", "2", "3"]) }).describe("The data type and octave filter applied."),
    links: links({ self: link, tuningSystem: link }),
    sources: sourceReferences.optional().describe("Present with includeSources=true."),
  });

  /** `{...frame, stats, data, links}` of GET /tuning-systems/{id}/{startingNote}/{maqamat|ajnas}; the reference frequency closes `stats`. */
  const perTuningSystemList = <S extends z.ZodRawShape, T extends z.ZodType>(stats: S, item: T, what: string) =>
    z.strictObject({
      ...tuningSystemFrame,
      stats: z.strictObject({ ...stats, referenceFrequency: z.number() }).describe(`Counts of the ${what} available from the starting note.`),
      data: z.array(item).describe(`The ${what} realizable in the tuning system from the starting note.`),
      links: links({ self: link, tuningSystem: link, collection: link }),
    });

  /** Degrees as note idNames, or with `includeDegreeDetails=true` as re-spelled objects. */
  const degreeDetail = z.strictObject({
    noteName: idName,
    englishName: z.string(),
    solfege: z.string(),
    ipnReferenceNoteName: z.string(),
    centsDeviation: z.number().nullable(),
    midiNotePlusCentsDeviation: z.string(),
  });
  const maqamDegrees = z.union([
    z.strictObject({ ascending: z.array(idName), descending: z.array(idName) }),
    z.strictObject({ ascending: z.array(degreeDetail), descending: z.array(degreeDetail) }),
  ]);

  const tuningSystemMaqamat = perTuningSystemList(
    { totalMaqamatForStartingNote: count, totalMaqamatInLibrary: count, uniqueTonicCount: count, uniqueFamilyCount: count },
    z.strictObject({
      maqam: entityRefWithVersion,
      family: entityRef,
      tonic: entityRef,
      stats: z.strictObject({ numberOfPitchClasses: count }),
      characteristics,
      links: links({ detail: link }),
      maqamDegrees: maqamDegrees.optional().describe("With includeMaqamDegrees=true: the degrees of each direction."),
      transpositions: z
        .array(transpositionSummary.extend({ maqamDegrees }))
        .optional()
        .describe("With includeTranspositions=true: every transposition other than the base tonic."),
    }),
    "maqāmāt",
  );

  const tuningSystemAjnas = perTuningSystemList(
    { totalAjnasForStartingNote: count, totalAjnasInLibrary: count, uniqueTonicCount: count },
    z.strictObject({
      jins: entityRefWithVersion,
      tonic: entityRef,
      stats: z.strictObject({ numberOfPitchClasses: count }),
      links: links({ detail: link }),
      jinsDegrees: z.array(idName).optional().describe("With includeJinsDegrees=true: the jins's note idNames."),
      transpositions: z
        .array(transpositionSummary.extend({ jinsDegrees: z.array(idName) }))
        .optional()
        .describe("With includeTranspositions=true: every transposition other than the base tonic."),
    }),
    "ajnās",
  );

  return { tuningSystemsList, tuningSystemDetail, tuningSystemPitchClasses, tuningSystemMaqamat, tuningSystemAjnas };
});
