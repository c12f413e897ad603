/** 200 bodies of GET /ajnas, /ajnas/{idName} (data and discovery mode) and its /availability, /transpositions and /compare. */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { entitySchemas } from "../entities/schemas.js";
import { maqamSchemas } from "../maqamat/schemas.js";
import { discoverySchemas } from "../entities/discoverySchemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The jins group's bodies, built on first use (shared/onFirstUse.ts). */
export const jinsSchemas = onFirstUse(() => {
  const {
    centsToleranceEcho,
    comments,
    count,
    entityHeader,
    entityRef,
    entityRefWithVersion,
    INTERVAL,
    link,
    links,
    pitchClassDataType,
    scalePitchClass,
    sourceReferences,
    transpositionTonics,
  } = sharedSchemas();
  const { availabilityBody, cellTuningStats, compareBody, successCell, transpositionsBody } = entitySchemas();
  const { availabilitySummary } = maqamSchemas();
  const { discoveryBody, flatTuningContext } = discoverySchemas();

  const ajnasList = z.strictObject({
    count: count.describe("Number of ajnās listed."),
    data: z
      .array(
        z.strictObject({
          jins: entityRefWithVersion,
          tonic: entityRef,
          stats: z.strictObject({ numberOfPitchClasses: count, availableInTuningSystems: count }),
          availability: availabilitySummary,
          links: links({ detail: link }),
          sources: sourceReferences.optional().describe("Present with includeSources=true."),
        }),
      )
      .describe("Jins summary records with tuning-system availability."),
  });

  /** Steps per data type: one value field, `frequency` as null (a ratio has none), else the whole interval. */
  const detailInterval = z.union([
    INTERVAL,
    INTERVAL.pick({ cents: true }),
    INTERVAL.pick({ fraction: true }),
    INTERVAL.pick({ decimalRatio: true }),
    INTERVAL.pick({ stringLength: true }),
    z.strictObject({ frequency: z.null() }),
  ]);

  const jinsData = z.strictObject({
    jins: entityHeader({ isBaseForm: z.boolean() }).describe("The jins rendering shown: its idName names the transposition."),
    tonic: entityRef.describe("Tonic of the rendering."),
    transposition: transpositionTonics,
    stats: z.strictObject({ numberOfTranspositions: count, numberOfPitchClasses: count }).describe("Numbers of transpositions and pitch classes."),
    comments: comments.describe("Commentary; null when empty."),
    sources: sourceReferences.optional().describe("Present with includeSources=true."),
    parameters: z
      .strictObject({ pitchClassDataType, includeIntervals: z.boolean(), centsTolerance: centsToleranceEcho })
      .describe("The parameters as applied."),
    context: z.strictObject({ tuningSystem: flatTuningContext({}) }).describe("The tuning system and starting note."),
    links: links({ self: link, detail: link, availability: link }),
    pitchData: z.array(scalePitchClass).describe("The pitch classes of the jins (one direction)."),
    intervals: z.array(detailInterval).optional().describe("With includeIntervals=true: the steps between adjacent pitch classes."),
  });

  const jinsDiscovery = discoveryBody(
    { jins: z.string().describe("Display name of the jins.") },
    {
      pitchClassDataType: z.strictObject({
        options: z.array(pitchClassDataType),
        required: z.literal(false),
        default: z.literal("all"),
        description: z.string(),
      }),
    },
    {},
    z.strictObject({ formatOptions: z.string() }),
  );

  const jinsDetail = z.union([jinsData, jinsDiscovery]);

  const jinsHead = { jins: entityRefWithVersion.describe("The jins.") };

  const jinsAvailability = availabilityBody(jinsHead);

  const jinsTranspositions = transpositionsBody(jinsHead, {});

  const jinsCompare = compareBody(
    jinsHead,
    successCell({
      jins: entityHeader({}),
      stats: z.strictObject({ tuningSystem: cellTuningStats, jins: z.strictObject({ numberOfPitchClasses: count }) }),
      pitchData: z.array(scalePitchClass),
      intervals: z.array(z.strictObject({ cents: z.number() })).optional(),
    }),
  );

  return { ajnasList, jinsDetail, jinsAvailability, jinsTranspositions, jinsCompare };
});
