/**
 * 200 bodies of GET /maqamat, /maqamat/families and per maqām /availability, /transpositions and
 * /compare, and the maqām pieces the detail and per-tuning-system answers reuse.
 */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { entitySchemas } from "../entities/schemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The maqām group's bodies, built on first use (shared/onFirstUse.ts). */
export const maqamSchemas = onFirstUse(() => {
  const {
    arabic,
    count,
    degreeNumeral,
    directions,
    entityHeader,
    entityRef,
    entityRefWithVersion,
    idName,
    INTERVAL,
    link,
    links,
    noteNameArrays,
    numericId,
    scalePitchClass,
    sixFieldInterval,
    sourceReferences,
    tuningSystemRef,
  } = sharedSchemas();
  const { availabilityBody, cellTuningStats, compareBody, successCell, transpositionsBody } = entitySchemas();

  const characteristics = z.strictObject({ isOctaveRepeating: z.boolean(), hasAsymmetricDescending: z.boolean(), hasSuyur: z.boolean() });

  // ---------------------------------------------------------------------------------------------
  // Named degrees and ajnās per degree

  const degreeNote = {
    noteName: idName,
    noteNameDisplay: z.string(),
    noteNameDisplayAr: arabic,
    // docs/algorithms.md §6.5: null when the note is not among the rendering's ascending degrees.
    maqamDegree: degreeNumeral.nullable().describe("Roman numeral of the note's place in the ascending scale; null when it is not on it."),
  };
  const jinsDegree = z.strictObject({
    ...degreeNote,
    jinsId: numericId.nullable(),
    jinsIdName: idName.nullable(),
    jinsDisplayName: z.string().nullable(),
    jinsDisplayNameAr: z.string().nullable().optional().describe("Present only with includeArabic=true; null without a jins."),
  });

  /** primaryJins … ghammaz: arrays of degree objects, or null when the maqām has no entry for the slot. */
  const namedDegreeBlocks = {
    primaryJins: z.array(jinsDegree).nullable().describe("Per-degree objects of the primary jins, or null."),
    secondaryJins: z.array(jinsDegree).nullable().describe("Per-degree objects of the secondary jins, or null."),
    tertiaryJins: z.array(jinsDegree).nullable().describe("Per-degree objects of the tertiary jins, or null."),
    ghammaz: z.array(z.strictObject(degreeNote)).nullable().describe("The ghammāz degree (no jins fields), or null."),
  };

  /** `{ascending, descending}`: per display note name, the jins starting there (an empty array for none). */
  const degreeAjnas = z
    .strictObject({
      ascending: z.record(z.string(), z.array(z.strictObject({ id: numericId, idName, displayName: z.string(), displayNameAr: arabic }))),
      descending: z.record(z.string(), z.array(z.strictObject({ id: numericId, idName, displayName: z.string(), displayNameAr: arabic }))),
    })
    .describe("Per display note name of each direction, the jins found there; a degree with no jins has an empty array.");

  // ---------------------------------------------------------------------------------------------
  // GET /maqamat and /maqamat/families

  /** `{tuningSystems: [{tuningSystem, startingNotes}]}` of a list item. */
  const availabilitySummary = z.strictObject({
    tuningSystems: z.array(z.strictObject({ tuningSystem: tuningSystemRef, startingNotes: noteNameArrays })),
  });

  const maqamatList = z.strictObject({
    count: count.describe("Number of maqāmāt listed."),
    data: z
      .array(
        z.strictObject({
          maqam: entityRefWithVersion,
          family: entityRef.describe("Classified by the first jins at scale degree 1."),
          tonic: entityRef,
          stats: z.strictObject({ numberOfPitchClasses: count, availableInTuningSystems: count }),
          characteristics,
          availability: availabilitySummary,
          links: links({ detail: link }),
          sources: sourceReferences.optional().describe("Present with includeSources=true."),
        }),
      )
      .describe("Maqām summary records with tuning-system availability."),
  });

  const maqamFamilies = z.strictObject({
    count: count.describe("Number of families."),
    data: z
      .array(
        z.strictObject({
          family: entityRef,
          links: z.strictObject({
            maqamat: z
              .string()
              .regex(/^\/api\/maqamat\?filterByFamily=/)
              .describe("Relative URL of /maqamat?filterByFamily=<family idName>."),
          }),
        }),
      )
      .describe("Families of the maqāmāt available in the tuning system and starting note."),
  });

  // ---------------------------------------------------------------------------------------------
  // Per maqām

  const maqamHead = { maqam: entityRefWithVersion.describe("The maqām.") };

  const maqamAvailability = availabilityBody(maqamHead);

  const maqamTranspositions = transpositionsBody(maqamHead, namedDegreeBlocks);

  /** Compare-cell steps per data type: the six value fields for `all`, one or two fields, else cents. */
  const compareInterval = z.union([
    sixFieldInterval,
    INTERVAL.pick({ cents: true }),
    INTERVAL.pick({ fraction: true }),
    INTERVAL.pick({ decimalRatio: true }),
    INTERVAL.pick({ cents: true, stringLength: true }),
    INTERVAL.pick({ cents: true, fretDivision: true }),
  ]);

  const maqamCompare = compareBody(
    maqamHead,
    successCell({
      maqam: entityHeader({ maqamFamilyId: z.string(), maqamFamilyDisplayName: z.string(), maqamFamilyDisplayNameAr: arabic }),
      stats: z.strictObject({ tuningSystem: cellTuningStats, maqam: z.strictObject({ numberOfPitchClasses: count, isOctaveRepeating: z.boolean() }) }),
      pitchData: directions(scalePitchClass),
      ajnas: degreeAjnas,
      intervals: directions(compareInterval).optional(),
    }),
  );

  return {
    characteristics,
    namedDegreeBlocks,
    degreeAjnas,
    availabilitySummary,
    maqamatList,
    maqamFamilies,
    maqamAvailability,
    maqamTranspositions,
    maqamCompare,
  };
});
