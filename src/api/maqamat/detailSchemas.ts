/**
 * 200 body of GET /maqamat/{idName}: the maqām detail record (data mode), parameter discovery
 * (`options=true`) or the list of every maqām realisable in a tuning system (`idName=all`).
 */
import * as z from "zod";
import { MODULATION_CATEGORIES } from "../../theory/modulation.js";
import { sharedSchemas } from "../shared/schemas.js";
import { maqamSchemas } from "./schemas.js";
import { discoverySchemas } from "../entities/discoverySchemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The maqām detail's body, built on first use (shared/onFirstUse.ts). */
export const maqamDetailSchemas = onFirstUse(() => {
  const {
    arabic,
    comments,
    count,
    directions,
    entityHeader,
    entityRef,
    idName,
    INTERVAL,
    link,
    links,
    noteNameArrays,
    numericId,
    originalValueType,
    pitchClassDataType,
    scalePitchClass,
    sixFieldInterval,
    sourceReferences,
    transpositionSummary,
    transpositionTonics,
    tuningSystemHeader,
    version,
  } = sharedSchemas();
  const { characteristics, degreeAjnas, namedDegreeBlocks } = maqamSchemas();
  const { booleanOption, discoveryBody, flatTuningContext, startingNoteNames } = discoverySchemas();

  /** The 16 values of `pitchClassDataType` here: the 14 of the other endpoints and two that add no data field. */
  const maqamPitchClassDataType = z.union([pitchClassDataType, z.enum(["pitchClassIndex", "scaleDegree"])]);

  /** Steps per data type (§10.5): the six value fields (`all`, or none given), one value field, the whole interval, or cents. */
  const detailInterval = z.union([
    sixFieldInterval,
    INTERVAL,
    INTERVAL.pick({ fraction: true }),
    INTERVAL.pick({ cents: true }),
    INTERVAL.pick({ decimalRatio: true }),
    INTERVAL.pick({ stringLength: true }),
    INTERVAL.pick({ fretDivision: true }),
  ]);

  /** A sayr as stored, its stops moved with the transposition. */
  const sayr = z.strictObject({
    id: z.string(),
    creatorEnglish: z.string(),
    creatorArabic: z.string(),
    sourceId: z.string(),
    page: z.string(),
    commentsEnglish: z.string(),
    commentsArabic: z.string(),
    stops: z.array(
      z.strictObject({
        type: z.enum(["note", "jins", "maqam", "direction"]),
        value: z.string(),
        startingNote: z.string().optional(),
        direction: z.string().optional(),
      }),
    ),
    version,
  });

  /** A maqām or jins one may modulate to; `isTransposition` on maqāmāt only. */
  const modulationTarget = z.strictObject({
    id: numericId,
    idName,
    displayName: z.string(),
    tonicIdName: idName,
    tonicDisplayName: z.string(),
    isTransposition: z.boolean().optional().describe("Present on maqām targets only."),
    displayNameAr: arabic,
    tonicDisplayNameAr: arabic,
  });
  const categoryLists = Object.fromEntries(MODULATION_CATEGORIES.map((k) => [k, z.array(modulationTarget)])) as Record<
    (typeof MODULATION_CATEGORIES)[number],
    z.ZodArray<typeof modulationTarget>
  >;
  const noteName2pBelowThird = z.string().describe("Display name of the first two-part note at or below the third, or empty.");
  const modulations = z.strictObject({
    maqamat: z.strictObject({ ...categoryLists, noteName2pBelowThird }),
    ajnas: z.strictObject({ ...categoryLists, noteName2pBelowThird }),
  });

  const maqamData = z.strictObject({
    maqam: entityHeader({ isBaseForm: z.boolean() }).describe("The maqām rendering shown: its idName names the transposition."),
    family: entityRef.describe("Family, classified on the analytical form by the first jins at scale degree 1."),
    tonic: entityRef.describe("Tonic of the rendering."),
    transposition: transpositionTonics,
    stats: z
      .strictObject({ numberOfTranspositions: count, numberOfPitchClasses: count, numberOfMaqamModulations: count, numberOfAjnasModulations: count })
      .describe("Numbers of transpositions, pitch classes and modulations."),
    characteristics: characteristics.describe("Octave repetition, asymmetric descent and suyūr of the rendering."),
    availableTranspositions: z.array(transpositionSummary).describe("Transpositions for the requested tuning system and starting note."),
    comments: comments.describe("Commentary; null when empty."),
    sources: sourceReferences.optional().describe("Present with includeSources=true."),
    parameters: z
      .strictObject({
        pitchClassDataType: maqamPitchClassDataType.nullable(),
        includeIntervals: z.boolean(),
        includeModulations: z.boolean(),
        includeModulations8vb: z.boolean(),
        includeSuyur: z.boolean(),
        transposeTo: z.string().nullable(),
      })
      .describe("Echo of the request's parameters."),
    context: z
      .strictObject({
        tuningSystem: tuningSystemHeader({
          startingNotes: noteNameArrays,
          selectedStartingNote: entityRef,
          pitchClassCounts: z.strictObject({ singleOctave: count, allOctaves: count }),
          originalValueType,
          referenceFrequency: z.number(),
        }),
      })
      .describe("The tuning system and its selected starting note."),
    links: links({ self: link, detail: link, availability: link, compare: link }),
    pitchData: directions(scalePitchClass).describe("Pitch classes of both directions, with the requested data fields."),
    intervals: directions(detailInterval).optional().describe("With includeIntervals=true: steps between adjacent pitch classes."),
    ajnas: degreeAjnas,
    ...namedDegreeBlocks,
    suyur: z.array(sayr).optional().describe("With includeSuyur=true: the documented melodic paths."),
    modulations: modulations.optional().describe("With includeModulations=true: maqāmāt and ajnās to modulate to, by degree."),
    lowerOctaveModulations: z
      .strictObject({ maqamat: z.strictObject(categoryLists), ajnas: z.strictObject(categoryLists) })
      .optional()
      .describe("With includeModulations=true and includeModulations8vb=true: the modulations an octave below."),
  });

  const maqamDiscovery = discoveryBody(
    { maqam: z.string().describe("Display name of the maqām.") },
    { pitchClassDataType: z.strictObject({ options: z.array(pitchClassDataType), required: z.literal(false), description: z.string() }) },
    { includeModulations: booleanOption, includeModulations8vb: booleanOption, includeSuyur: booleanOption },
    z.strictObject({ ajnasData: z.string(), formatOptions: z.string() }),
  );

  const everyMaqam = z.strictObject({
    context: z
      .strictObject({
        tuningSystem: flatTuningContext(startingNoteNames),
        pitchClassDataType: maqamPitchClassDataType.nullable(),
        includeIntervals: z.boolean(),
      })
      .describe("The tuning system and starting note, and the data parameters applied."),
    count: count.describe("Number of maqāmāt realisable here."),
    maqamat: z
      .array(
        z.strictObject({
          id: numericId,
          idName,
          displayName: z.string(),
          version,
          tonicId: idName,
          tonicDisplay: z.string(),
          transposition: z.boolean(),
          familyId: idName,
          familyDisplay: z.string(),
          numberOfTranspositions: count,
          numberOfMaqamModulations: count,
          numberOfAjnasModulations: count,
          commentsEnglish: z.string().nullable(),
          commentsArabic: z.string().nullable(),
          displayNameAr: arabic,
          tonicDisplayAr: arabic,
          familyDisplayAr: arabic,
          sources: sourceReferences,
          pitchData: directions(scalePitchClass),
          intervals: directions(detailInterval).optional(),
        }),
      )
      .describe("The analytical form of every maqām realisable in the tuning system and starting note, by display name."),
  });

  const maqamDetail = z.union([maqamData, maqamDiscovery, everyMaqam]);

  return { maqamDetail };
});
