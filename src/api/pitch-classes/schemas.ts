/** 200 bodies of GET /pitch-classes/note-names, /pitch-classes/note-names/{noteName} and its /availability and /compare. */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The note-name bodies, built on first use (shared/onFirstUse.ts). */
export const noteNameSchemas = onFirstUse(() => {
  const { count, entityRef, link, links, pitchClass, pitchClassDataType, tuningSystemRef, unknownTuningSystemRef } = sharedSchemas();

  const noteNamesList = z.strictObject({
    count: count.describe("Number of note names listed."),
    data: z
      .array(
        z.strictObject({
          noteName: entityRef,
          englishName: z.string(),
          order: count.describe("Canonical index within its octave."),
          octave: z.int().min(0).max(4),
          links: links({ detail: link, availability: link }),
        }),
      )
      .describe("Note-name records; availability data is excluded."),
  });

  /** `{tuningSystem, startingNote}` of a tuning context. */
  const tuningIdentity = { tuningSystem: tuningSystemRef, startingNote: entityRef };

  const detailLinks = links({ self: link, availability: link, compare: link });

  const oneTuning = z.strictObject({
    context: z
      .strictObject({ ...tuningIdentity, noteName: entityRef, referenceFrequency: z.number(), pitchClassDataType })
      .describe("The tuning system, starting note and note name, the reference frequency and the data type."),
    pitchClass: pitchClass.describe("The note's pitch class with the requested data field."),
    links: detailLinks,
  });

  const everyTuning = z.strictObject({
    context: z.strictObject({ noteName: entityRef }).describe("The note name."),
    pitchClasses: z
      .array(
        z.strictObject({
          context: z.strictObject({ ...tuningIdentity, referenceFrequency: z.number(), pitchClassDataType }),
          pitchClassData: pitchClass,
        }),
      )
      .describe("The note's pitch class in every tuning system and starting note that has it (startingNote=all, or no tuningSystem)."),
    links: detailLinks,
  });

  /** One tuning system and starting note, or every starting note of one (or of every) tuning system. */
  const noteNameDetail = z.union([oneTuning, everyTuning]);

  const noteNameAvailability = z.strictObject({
    noteName: entityRef.describe("The note name."),
    availability: z
      .strictObject({
        count,
        data: z.array(
          z.strictObject({
            tuningSystem: tuningSystemRef,
            startingNotes: z.array(z.strictObject({ startingNote: entityRef, pitchClassIndex: count, octave: count })),
          }),
        ),
      })
      .describe("The tuning systems and starting notes having the note, with its pitch class index and octave."),
    links: links({ self: link, detail: link, compare: link }),
  });

  /** A compare cell that could not be computed: an unknown tuning system or a starting note it lacks (named as given), or a note it lacks. */
  const failedCell = z.union([
    z.strictObject({ tuningSystem: unknownTuningSystemRef, startingNote: z.strictObject({ idName: z.string(), displayName: z.string() }), error: z.string() }),
    z.strictObject({ tuningSystem: tuningSystemRef, startingNote: entityRef, error: z.string() }),
  ]);

  /** `meta` of the note-name and interval compare answers: successful + failed = total. */
  const compareMeta = z
    .strictObject({ totalComparisons: count, successfulComparisons: count, failedComparisons: count })
    .describe("Comparison counts: successfulComparisons + failedComparisons = totalComparisons.");

  const noteNameCompare = z.strictObject({
    context: z.strictObject({ noteName: entityRef }).describe("The note name."),
    comparisons: z
      .array(
        z.union([
          z.strictObject({
            ...tuningIdentity,
            pitchClass,
            context: z.strictObject({ referenceFrequency: z.number(), pitchClassDataType }),
          }),
          failedCell,
        ]),
      )
      .describe("One entry per tuning system × starting note; a failed one carries `error`."),
    meta: compareMeta,
    links: links({ self: link, detail: link, availability: link }),
  });

  return { noteNamesList, noteNameDetail, noteNameAvailability, failedCell, compareMeta, noteNameCompare };
});
