/**
 * The bodies the maqām and jins groups share, given the kind's header (`{maqam: …}` or
 * `{jins: …}`): /availability, /transpositions, and the frame and failure cells of /compare.
 */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The maqām and jins answers' shared bodies, built on first use (shared/onFirstUse.ts). */
export const entitySchemas = onFirstUse(() => {
  const {
    centsToleranceEcho,
    arabic,
    arabicList,
    count,
    entityRef,
    idName,
    link,
    links,
    noteNameArrays,
    pitchClassDataType,
    transpositionSummary,
    transpositionTonics,
    tuningSystemHeader,
    tuningSystemRef,
    unknownTuningSystemRef,
  } = sharedSchemas();

  /** GET /{kind}/{idName}/availability. */
  const availabilityBody = <H extends z.ZodRawShape>(head: H) =>
    z.strictObject({
      ...head,
      availability: z
        .strictObject({
          count,
          tuningSystems: z.array(
            z.strictObject({
              tuningSystemId: idName,
              tuningSystemDisplayName: z.string(),
              tuningSystemDisplayNameAr: arabic,
              tuningSystemStartingNoteNames: z.array(z.string()),
              tuningSystemStartingNoteNamesAr: arabicList,
              tuningSystemStartingNoteNamesIds: z.array(z.string()),
            }),
          ),
        })
        .describe("Tuning systems and starting notes that can realize it (with transpositionNoteName, only those reaching that tonic)."),
    });

  /** GET /{kind}/{idName}/transpositions; `extra` are the fields each detailed entry adds before its links. */
  const transpositionsBody = <H extends z.ZodRawShape, X extends z.ZodRawShape>(head: H, extra: X) =>
    z.strictObject({
      ...head,
      tuningSystem: tuningSystemHeader({ numberOfPitchClassesSingleOctave: count }).describe("The tuning system."),
      startingNote: entityRef.describe("The starting note."),
      transpositions: z
        .strictObject({
          total: count,
          options: z.strictObject({ idNames: z.array(idName), displayNames: z.array(z.string()), displayNamesAr: arabicList }),
          detailed: z.array(
            transpositionSummary.extend({
              pitchClass: z.strictObject({ pitchClassIndex: count, octave: count }),
              ...extra,
              links: links({ detail: link }),
            }),
          ),
        })
        .describe("The distinct transpositions (taswīr), the analytical form excluded, one register per degree."),
      links: links({ self: link, availability: link, detail: link }),
    });

  // ---------------------------------------------------------------------------------------------
  // Compare

  /** `stats.tuningSystem` of a compare cell. */
  const cellTuningStats = z.strictObject({ numberOfPitchClassesSingleOctave: count, referenceFrequency: z.number() });

  /** The fields every successful cell has around the kind's own (`parts`, which include its stats). */
  const successCell = <P extends z.ZodRawShape>(parts: P) =>
    z.strictObject({
      tuningSystem: tuningSystemRef,
      startingNote: entityRef,
      tonic: entityRef,
      transposition: transpositionTonics,
      availableTranspositions: z.array(transpositionSummary),
      parameters: z.strictObject({ pitchClassDataType, includeIntervals: z.boolean(), transposeTo: z.string().nullable() }),
      links: links({ detail: link, availability: link }),
      ...parts,
    });

  /** Cells that are not computed: a starting note the system lacks (`note`), or a failure (`error`). */
  const otherCells = [
    z.strictObject({ tuningSystem: tuningSystemRef, startingNote: entityRef, note: z.string(), validStartingNotes: noteNameArrays }),
    z.strictObject({ tuningSystem: unknownTuningSystemRef, startingNote: entityRef, error: z.string() }),
    z.strictObject({ tuningSystem: tuningSystemRef, startingNote: entityRef, error: z.string() }),
    z.strictObject({
      tuningSystem: tuningSystemRef,
      startingNote: entityRef,
      transposeTo: z.string(),
      error: z.string(),
      availableTranspositions: z.array(transpositionSummary),
    }),
  ] as const;

  /** GET /{kind}/{idName}/compare: the N × M grid, tuning systems outside, starting notes inside. */
  const compareBody = <H extends z.ZodRawShape, C extends z.ZodType>(head: H, cell: C) =>
    z.strictObject({
      ...head,
      comparisons: z
        .strictObject({
          count,
          totalComparisons: count,
          successfulComparisons: count,
          unavailableStartingNotes: count,
          failedComparisons: count,
          data: z.array(z.union([cell, ...otherCells])),
        })
        .describe("One cell per tuning system × starting note; successfulComparisons + unavailableStartingNotes + failedComparisons = totalComparisons."),
      parameters: z
        .strictObject({
          tuningSystems: z.strictObject({ idNames: z.array(z.string()), displayNames: z.array(z.string()) }),
          startingNotes: noteNameArrays,
          pitchClassDataType,
          includeIntervals: z.boolean(),
          transposeTo: z.string().nullable(),
          centsTolerance: centsToleranceEcho,
        })
        .describe("The request's parameters as applied."),
      links: links({ self: link, detail: link, availability: link }),
    });

  return { availabilityBody, transpositionsBody, cellTuningStats, successCell, compareBody };
});
