/**
 * The body of every 4xx answer: the three fixed strings, then the extras some errors add (the
 * `extra` of ../errors.ts `apiError`). Each extra key is listed with what sets it.
 */
import * as z from "zod";
import { sharedSchemas } from "./schemas.js";
import { onFirstUse } from "./onFirstUse.js";

/** The error body, built on first use (shared/onFirstUse.ts). */
export const errorSchemas = onFirstUse(() => {
  const { shortRef, transpositionSummary } = sharedSchemas();

  const names = z.array(z.string());

  const ERROR_BODY = z
    .strictObject({
      error: z.string().describe("Names the problem, e.g. an invalid parameter."),
      message: z.string().describe("Explanation."),
      hint: z.string().describe("How to fix the request."),
      // A flag, a fixed enumeration, a tuning system's starting notes, a 12-tone set's ids, the
      // tuning-system ids, or the tonics a modulation endpoint may take.
      validOptions: names.optional().describe("The values the parameter accepts."),
      // 400/404 for a starting note the tuning system lacks (path routes).
      availableTuningSystemStartingNotes: names.optional().describe("Display names of the tuning system's starting notes."),
      // 404 for an unknown tuning system in a path or filter.
      tuningSystemId: z.string().optional().describe("The tuning-system id that was not found."),
      // 400 for a tonic the maqām or jins cannot be transposed to.
      availableTranspositions: z.array(transpositionSummary).optional().describe("The transpositions reachable in this tuning system and starting note."),
      // 400 for data-returning parameters together with options=true.
      conflictingParameters: names.optional().describe("The data-returning parameters given with options=true."),
      contextualParametersAllowed: names.optional().describe("The parameters discovery mode accepts."),
      // 400 for an unknown tuning system on the 12-pitch-class-sets endpoint.
      availableTuningSystems: z.array(shortRef).optional().describe("Every tuning system."),
      // 400 for a starting note al-Kindī's tuning lacks (12-pitch-class sets).
      validAlKindiNotes: names.optional().describe("The starting notes of al-Kindī's tuning."),
    })
    .describe("Error body: {error, message, hint} and, for some errors, the options that would have been accepted.");

  return { ERROR_BODY };
});
