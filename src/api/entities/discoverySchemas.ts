/** Detail pieces the maqām and jins answers share: discovery mode (`options=true`) and the flat tuning context. */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** Discovery mode and the flat tuning context, built on first use (shared/onFirstUse.ts). */
export const discoverySchemas = onFirstUse(() => {
  const { arabic, arabicList, count, idName, originalValueType, version } = sharedSchemas();

  const described = { description: z.string() };

  /** A boolean parameter of discovery mode. */
  const booleanOption = z.strictObject({ type: z.literal("boolean"), default: z.literal(false), ...described });

  /**
   * `options=true`: the parameters the entity accepts in a tuning system. `head` names the entity,
   * `dataType` describes `pitchClassDataType`, `flags` are the kind's own boolean parameters.
   */
  const discoveryBody = <H extends z.ZodRawShape, D extends z.ZodRawShape, F extends z.ZodRawShape, N extends z.ZodType>(
    head: H,
    dataType: D,
    flags: F,
    notes: N,
  ) =>
    z.strictObject({
      ...head,
      tuningSystem: z.string().describe("The tuning system id given."),
      availableParameters: z
        .strictObject({
          tuningSystem: z.strictObject({ required: z.literal(true), ...described }),
          startingNote: z.strictObject({ options: z.array(idName), required: z.literal(true), ...described }),
          ...dataType,
          includeIntervals: booleanOption,
          transposeTo: z.strictObject({
            options: z.array(idName).nullable().describe("Tonics the entity can be validly transposed to; null without a startingNote."),
            ...described,
          }),
          ...flags,
          centsTolerance: z.strictObject({ type: z.literal("number"), default: z.number(), ...described }),
        })
        .describe("Parameter-discovery metadata: each parameter's options, whether it is required, and its meaning."),
      notes: notes.describe("Notes on the data returned."),
      examples: z.array(z.string()).describe("Example requests."),
    });

  /**
   * `context.tuningSystem` in the flat form of the jins detail (and, with `extra`, of the list of
   * every maqām).
   */
  const flatTuningContext = <X extends z.ZodRawShape>(extra: X) =>
    z.strictObject({
      id: idName,
      displayName: z.string(),
      displayNameAr: arabic,
      version,
      originalValueType,
      numberOfPitchClassesSingleOctave: count,
      numberOfPitchClassesAllOctaves: count,
      ...extra,
      startingNoteName: idName,
      referenceFrequency: z.number(),
    });

  /** The starting-note names `idName=all` adds to the flat context. */
  const startingNoteNames = {
    tuningSystemStartingNoteNames: z.array(z.string()),
    tuningSystemStartingNoteNamesIds: z.array(idName),
    tuningSystemStartingNoteNamesAr: arabicList,
    startingNoteNameAr: arabic,
  };

  return { booleanOption, discoveryBody, flatTuningContext, startingNoteNames };
});
