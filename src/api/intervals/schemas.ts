/** 200 bodies of GET /intervals, /intervals/compare and /intervals/calculate. */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { PITCH_CLASS_DATA, fraction } from "../shared/pitchClassValues.js";
import { noteNameSchemas } from "../pitch-classes/schemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The interval bodies, built on first use (shared/onFirstUse.ts). */
export const intervalSchemas = onFirstUse(() => {
  const { arabic, count, entityRef, intervalData, link, links, shortRef, tuningSystemRef } = sharedSchemas();
  const { compareMeta, failedCell } = noteNameSchemas();

  const noteNamesContext = z.strictObject({ noteNames: z.array(entityRef) }).describe("The note names, as entity references.");

  const intervals = z.strictObject({
    context: noteNamesContext,
    intervals: z
      .array(
        z.strictObject({
          tuningSystemContext: z.strictObject({ tuningSystem: tuningSystemRef, startingNote: entityRef, referenceFrequency: z.number() }),
          fromNote: entityRef,
          toNote: entityRef,
          intervalData,
        }),
      )
      .describe("Intervals between consecutive note names (0 to 1, 1 to 2, …) per tuning system and starting note holding them all."),
    links: links({ self: link, compare: link }),
  });

  const intervalsCompare = z.strictObject({
    context: noteNamesContext,
    comparisons: z
      .array(
        z.union([
          z.strictObject({
            tuningSystem: tuningSystemRef,
            startingNote: entityRef,
            intervals: z.array(z.strictObject({ from: entityRef, to: entityRef, interval: intervalData })),
            context: z.strictObject({ referenceFrequency: z.number() }),
          }),
          failedCell,
        ]),
      )
      .describe("One entry per tuning system × starting note; a failed one carries `error`."),
    meta: compareMeta,
    links: links({ self: link, intervals: link }),
  });

  /** A pitch class as the calculator shows it: names and the five value formats, fretDivision a number. */
  const { englishName, solfege, abjadName, cents, decimalRatio, stringLength } = PITCH_CLASS_DATA;
  const calculatorPitchClass = z.strictObject({
    pitchClassIndex: count,
    octave: count,
    noteName: z.string(),
    noteNameDisplay: z.string(),
    noteNameDisplayAr: arabic,
    englishName,
    solfege,
    abjadName,
    fraction,
    cents,
    decimalRatio,
    stringLength,
    fretDivision: z.number(),
  });

  const end = z.strictObject({
    pitchClass: calculatorPitchClass,
    identifier: entityRef.describe("The note name, or the value as given."),
  });

  const allUnits = z.strictObject({ fraction, cents: z.number(), decimalRatio: z.number(), stringLength: z.number(), fretDivision: z.number() });

  const intervalsCalculate = z.strictObject({
    context: z
      .strictObject({ tuningSystem: shortRef.extend({ displayNameAr: arabic }), startingNote: entityRef, referenceFrequency: z.number() })
      .describe("The tuning system and starting note."),
    from: end.describe("The lower end as found in the tuning system."),
    to: end.describe("The upper end as found in the tuning system."),
    interval: z
      .union([
        z.strictObject({ value: fraction, unit: z.literal("fraction"), allUnits }),
        z.strictObject({ value: z.number(), unit: z.enum(["cents", "centsFromZero", "decimalRatio", "stringLength", "fretDivision"]), allUnits }),
      ])
      .describe("The interval in the requested unit and in all units (rounded to 3 decimals)."),
    links: links({ self: link, tuningSystem: link, intervals: link }),
  });

  return { intervals, intervalsCompare, intervalsCalculate };
});
