/** 200 bodies of GET /maqamat/classification/maqam-pitch-class-sets and /maqamat/classification/12-pitch-class-sets. */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { fraction } from "../shared/pitchClassValues.js";
import type { PITCH_CLASS_DATA_TYPES } from "../shared/pitchClassValues.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The classification bodies, built on first use (shared/onFirstUse.ts). */
export const classificationSchemas = onFirstUse(() => {
  const { arabic, centsToleranceEcho, count, entityRef, idName, shortRef } = sharedSchemas();

  /** A transposition that cannot be reduced to one pitch class per 12-tone key. */
  const incompatible = z.strictObject({
    maqam: shortRef,
    transposition: z.strictObject({ idName, displayName: z.string(), isTransposed: z.boolean(), isBaseForm: z.boolean() }),
    compatible: z.literal(false),
    reason: z.literal("shared_key"),
    explanation: z.string(),
    clashes: z.array(
      z.strictObject({
        key: z.string().describe("A 12-tone key."),
        notes: z.array(
          z.strictObject({
            noteName: idName,
            displayName: z.string(),
            displayNameAr: arabic,
            englishName: z.string(),
            cents: z.number(),
            centsInOctave: z.number().describe("Position above the transposition's tonic, octave ignored."),
          }),
        ),
      }),
    ),
  });

  /** With includeIncompatible=true: every incompatible transposition and their number. */
  const incompatibleList = {
    incompatibleMaqamat: z.array(incompatible).optional().describe("With includeIncompatible=true: the transpositions that cannot form a set."),
    incompatibleMaqamatCount: count.optional().describe("With includeIncompatible=true: their number."),
  };

  /** The tuning the sets are computed in, and the filters given (current spelling). */
  const tuningParameters = {
    tuningSystem: shortRef,
    startingNote: entityRef,
    centsTolerance: centsToleranceEcho,
    setId: z.string().optional().describe("The setId filter given."),
    maqamId: idName.optional().describe("The maqamId filter given, in the current spelling."),
  };

  const setHead = { setIdName: z.string(), setDisplayName: z.string(), sourceMaqam: shortRef };

  const maqamPitchClassSets = z.strictObject({
    statistics: z
      .strictObject({ totalSets: count, totalCompatibleMaqamat: count, incompatibleMaqamatCount: count, totalProcessed: count })
      .describe("Numbers of sets, compatible and incompatible maqāmāt."),
    sets: z
      .array(
        z.strictObject({
          ...setHead,
          compatibleMaqamatCount: count,
          pitchClassSet: z
            .array(
              z.strictObject({
                englishName: z.string(),
                noteName: z.string(),
                cents: z.number(),
                fraction,
                decimalRatio: z.number(),
                frequency: z.number(),
                octave: count,
                noteNameDisplayAr: arabic,
              }),
            )
            .optional()
            .describe("With includePitchClassData=true: the set's pitch classes."),
          pitchClassCount: count.optional().describe("With includePitchClassData=true: their number."),
          compatibleMaqamat: z.array(
            z.strictObject({
              maqamIdName: idName,
              maqamDisplayName: z.string(),
              isTransposed: z.boolean(),
              isBaseForm: z.boolean(),
              tonic: z.strictObject({ ipnReferenceNoteName: z.string(), noteNameIdName: idName, noteNameDisplayName: z.string() }),
            }),
          ),
        }),
      )
      .describe("Sets with their compatible maqāmāt, largest first."),
    parameters: z.strictObject(tuningParameters).describe("The tuning system, starting note, tolerance and filters applied."),
    ...incompatibleList,
  });

  // ── 12-pitch-class sets ────────────────────────────────────────────────────────────────────

  /** The value each single data type shows, under the type's own name but midiNoteNumber's (§11.4); an empty text is null. */
  const TWELVE_TONE_VALUES = {
    englishName: z.string(),
    solfege: z.string(),
    fraction,
    cents: z.number(),
    decimalRatio: z.number(),
    stringLength: z.string(),
    frequency: z.number(),
    abjadName: z.string().nullable(),
    fretDivision: z.string(),
    midiNoteNumber: z.number(),
    midiNoteDeviation: z.string(),
    centsDeviation: z.number().nullable(),
    referenceNoteName: z.string(),
  } satisfies Record<Exclude<(typeof PITCH_CLASS_DATA_TYPES)[number], "all">, z.ZodType>;

  const head = { ipnReferenceNoteName: z.string(), noteName: z.string(), noteNameDisplayAr: arabic };
  const relativeCents = z.number().describe("Cents above the set's first pitch class: its tonic, or C with startSetFromC.");
  const single = <K extends keyof typeof TWELVE_TONE_VALUES>(type: K) =>
    z.strictObject({ ...head, [type]: TWELVE_TONE_VALUES[type] } as typeof head & Pick<typeof TWELVE_TONE_VALUES, K>);

  /** A set's pitch class per data type: none given (relative cents and octave), relativeCents, all, or one type's value. */
  const twelveTonePitchClass = z.union([
    z.strictObject({ ...head, relativeCents, octave: count }),
    z.strictObject({ ...head, relativeCents }),
    z.strictObject({
      ...head,
      cents: z.number(),
      relativeCents,
      fraction,
      decimalRatio: z.number(),
      frequency: z.number(),
      octave: count,
      englishName: z.string(),
      solfege: z.string(),
      abjadName: z.string().optional().describe("Left out when the tuning system has no abjad names."),
      stringLength: z.string(),
      fretDivision: z.string(),
      midiNoteDecimal: z.number(),
      midiNoteDeviation: z.string(),
      centsDeviation: z.number().nullable(),
      referenceNoteName: z.string(),
    }),
    single("englishName"),
    single("solfege"),
    single("fraction"),
    single("cents"),
    single("decimalRatio"),
    single("stringLength"),
    single("frequency"),
    single("abjadName"),
    single("fretDivision"),
    z.strictObject({ ...head, midiNoteDecimal: TWELVE_TONE_VALUES.midiNoteNumber }),
    single("midiNoteDeviation"),
    single("centsDeviation"),
    single("referenceNoteName"),
  ]);

  const twelvePitchClassSets = z.strictObject({
    statistics: z
      .strictObject({
        totalSets: count,
        totalCompatibleMaqamat: count,
        incompatibleMaqamatCount: count.describe("Transpositions in this tuning system and starting note that cannot form a set."),
        global: z.strictObject({ totalSets: count, totalCompatibleMaqamat: count, totalProcessed: count }),
      })
      .describe("Numbers of the sets returned, and of all sets (global)."),
    compatible: z.boolean().optional().describe("With maqamId: whether some transposition of it fits a set."),
    sets: z
      .array(
        z.strictObject({
          ...setHead,
          pitchClassSet: z.array(twelveTonePitchClass),
          compatibleMaqamat: z.array(
            z.strictObject({
              maqamIdName: idName,
              maqamDisplayName: z.string(),
              baseMaqamIdName: idName,
              isTransposed: z.boolean(),
              tonic: z.strictObject({
                ipnReferenceNoteName: z.string(),
                noteNameIdName: idName,
                noteNameDisplayName: z.string(),
                positionInSet: z.int().min(-1).describe("Index of the tonic's key in the set; -1 when a flat spelling finds no key."),
              }),
            }),
          ),
          compatibleMaqamatCount: count,
        }),
      )
      .describe("Maqām transpositions grouped into 12-pitch-class sets, largest first."),
    explanation: z.string().optional().describe("With maqamId and no set: why it is in none."),
    incompatibleTranspositions: z.array(incompatible).optional().describe("With maqamId: its transpositions that cannot form a set."),
    parameters: z
      .strictObject({ ...tuningParameters, alKindiTuningSystem: shortRef, alKindiStartingNote: entityRef, startSetFromC: z.boolean() })
      .describe("The tuning, al-Kindī's tuning the sets are completed from, the tolerance and the filters applied."),
    ...incompatibleList,
  });

  return { maqamPitchClassSets, twelvePitchClassSets };
});
