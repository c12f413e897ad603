/**
 * Response pieces many endpoints share: identifiers, entity references, note-name arrays,
 * tuning-system and maqām/jins headers, page references, pitch classes per `pitchClassDataType`,
 * intervals and transposition summaries. Every object is strict (an unknown key fails); a key is
 * optional only where an answer really leaves it out, and `…Ar` keys are present exactly with
 * `includeArabic=true`. Numbers the archive may compute as NaN are `null` in JSON.
 */
import * as z from "zod";
import { PITCH_CLASS_DATA, PITCH_CLASS_DATA_TYPES, fraction, type PitchClassDataField } from "./pitchClassValues.js";
import { VALUE_FORMATS } from "../../theory/interval.js";
import { onFirstUse } from "./onFirstUse.js";

/** The response pieces many endpoints share, built on first use (shared/onFirstUse.ts). */
export const sharedSchemas = onFirstUse(() => {
  // ---------------------------------------------------------------------------------------------
  // Scalars

  /** A count of items or a size (non-negative integer). */
  const count = z.int().nonnegative();

  /** The tolerance a request applied, echoed: `centsTolerance=Infinity` is read as a number and JSON writes it as null. */
  const centsToleranceEcho = z.number().nonnegative().nullable().describe("Cents; null for Infinity, which JSON cannot write.");

  /** A catalog id: a string holding a number. */
  const numericId = z.string().regex(/^\d+$/).describe("String holding a number.");

  /**
   * A catalog idName: lowercase ASCII, digits and underscores; the archive's names keep `/` and
   * parentheses (`saham/ramal_tuti`, `maqam_hijaz_(binsir)`).
   */
  const idName = z
    .string()
    .regex(/^[a-z0-9_()/]+$/)
    .describe("URL-safe identifier: lowercase ASCII, underscores, no spaces, no diacritics.");

  /** The per-record `version` timestamp. */
  const version = z.iso.datetime({ precision: 3 }).describe("ISO 8601 UTC timestamp with milliseconds; changes when the record changes.");

  /** A scale degree: roman numeral, the decimal number past XV (XIII in the compare routes), docs/algorithms.md §6.6. */
  const degreeNumeral = z.string().regex(/^(?:[IVX]+|[1-9]\d*)$/);

  /** An absolute URL built from the service's base URL. */
  const link = z.url();

  /** `links`: absolute URLs of the answer itself and of related resources. */
  const links = <S extends z.ZodRawShape>(shape: S) => z.strictObject(shape).describe("Absolute URLs of this answer and of related resources.");

  /** A field added next to its English twin with `includeArabic=true`. */
  const arabic = z.string().optional().describe("Arabic script; present only with includeArabic=true.");
  const arabicList = z.array(z.string()).optional().describe("Arabic script; present only with includeArabic=true.");

  /** The value format a tuning system is defined in. */
  const valueType = z.enum(VALUE_FORMATS);
  /** A tuning system's value format, `unknown` when the starting note yields no pitch class. */
  const originalValueType = z.union([valueType, z.literal("unknown")]);

  /** The 14-value `pitchClassDataType` of the jins, compare, tuning-system and pitch-class endpoints. */
  const pitchClassDataType = z.enum(PITCH_CLASS_DATA_TYPES);

  // ---------------------------------------------------------------------------------------------
  // References and headers

  /** Entity reference `{idName, displayName}` (note names, families, tonics, starting notes). */
  const entityRef = z.strictObject({ idName: z.string(), displayName: z.string(), displayNameAr: arabic });

  /** Parallel arrays of note idNames and display names. */
  const noteNameArrays = z.strictObject({ idNames: z.array(z.string()), displayNames: z.array(z.string()), displayNamesAr: arabicList });

  /** `{id, idName, displayName, version, ...extra}` of a tuning system. */
  const tuningSystemHeader = <S extends z.ZodRawShape>(extra: S) =>
    z.strictObject({ id: idName, idName, displayName: z.string(), version, ...extra, displayNameAr: arabic });
  const tuningSystemRef = tuningSystemHeader({});

  /** A tuning-system id echoed from the request that names no tuning system. */
  const unknownTuningSystemRef = z.strictObject({ id: z.string(), idName: z.string(), displayName: z.string() });

  /** `{id, idName, displayName, version, ...extra}` of a maqām or jins. */
  const entityHeader = <S extends z.ZodRawShape>(extra: S) =>
    z.strictObject({ id: numericId, idName, displayName: z.string(), version, ...extra, displayNameAr: arabic });
  const entityRefWithVersion = entityHeader({});

  /** `{id, idName, displayName}` of a maqām or tuning system in the classification answers. */
  const shortRef = z.strictObject({ id: z.string(), idName, displayName: z.string() });

  /** Page references of a record (`includeSources=true`). */
  const sourceReferences = z.array(z.strictObject({ sourceId: z.string(), page: z.string() }));

  /** `{english, arabic}` commentary, `null` when empty. */
  const comments = z.strictObject({ english: z.string().nullable(), arabic: z.string().nullable() });

  /** The transposition's tonics, present only when the rendering is transposed. */
  const transpositionTonics = z
    .strictObject({ original: entityRef, resolved: entityRef })
    .optional()
    .describe("The data tonic and the tonic moved to; present only for a transposed rendering.");

  /** `{idName, displayName, tonic}` of a transposition (`availableTranspositions` entries). */
  const transpositionSummary = z.strictObject({ idName, displayName: z.string(), displayNameAr: arabic, tonic: entityRef });

  // ---------------------------------------------------------------------------------------------
  // Pitch classes

  type DataShape = typeof PITCH_CLASS_DATA;

  const pick = <K extends PitchClassDataField>(field: K) => ({ [field]: PITCH_CLASS_DATA[field] }) as Pick<DataShape, K>;

  /**
   * A pitch class for every `pitchClassDataType` at once: the always-present `base` fields with
   * none of the data fields (no type, or one that adds none), exactly one (a single type), or all
   * 13 (`all`). A union rather than 13 optional keys, so that an answer mixing types, or carrying
   * two data fields, fails.
   */
  const pitchClassOf = <B extends z.ZodRawShape>(base: B) => {
    const one = <K extends PitchClassDataField>(field: K) => z.strictObject({ ...base, ...pick(field) });
    // The two forms most answers take first: a union tries its options in order.
    return z.union([
      z.strictObject(base),
      z.strictObject({ ...base, ...PITCH_CLASS_DATA }),
      one("englishName"),
      one("solfege"),
      one("abjadName"),
      one("fraction"),
      one("cents"),
      one("decimalRatio"),
      one("stringLength"),
      one("frequency"),
      one("fretDivision"),
      one("midiNoteDecimal"),
      one("midiNotePlusCentsDeviation"),
      one("centsDeviation"),
      one("ipnReferenceNoteName"),
    ]);
  };

  const pitchClassBase = {
    pitchClassIndex: count.describe("Index of the value in the tuning system's octave"),
    octave: z.int().min(0).max(3),
    noteName: idName,
    noteNameDisplay: z.string(),
    noteNameDisplayAr: arabic,
  };

  /** `{pitchClassIndex, octave, noteName, noteNameDisplay, [noteNameDisplayAr], <data>}` (tuning-system and note-name answers). */
  const pitchClass = pitchClassOf(pitchClassBase).describe("A pitch class with the data its pitchClassDataType asks for.");

  /** A pitch class of a maqām or jins: also its `scaleDegree` (roman numeral). */
  const scalePitchClass = pitchClassOf({ ...pitchClassBase, scaleDegree: degreeNumeral }).describe(
    "A pitch class of a maqām or jins, with its scale degree and the data its pitchClassDataType asks for.",
  );

  /** Schemas the OpenAPI document names once and refers to. */
  const SHARED_SCHEMAS = { PitchClass: pitchClass, ScalePitchClass: scalePitchClass };

  /** `{ascending, descending}` of a maqām scale. */
  const directions = <T extends z.ZodType>(item: T) => z.strictObject({ ascending: z.array(item), descending: z.array(item) });

  // ---------------------------------------------------------------------------------------------
  // Intervals

  /** Every field an interval may show. `pitchClassIndex` is the archive's index difference. */
  const INTERVAL = z.strictObject({
    fraction,
    cents: z.number(),
    decimalRatio: z.number(),
    stringLength: z.number(),
    fretDivision: z.number(),
    pitchClassIndex: z.int(),
    originalValue: z.string(),
    originalValueType: valueType,
  });

  /** The six value fields of `pitchClassDataType=all` in the scale answers. */
  const sixFieldInterval = INTERVAL.omit({ originalValue: true, originalValueType: true });

  /** Interval data of the interval endpoints: no `pitchClassIndex`. */
  const intervalData = INTERVAL.omit({ pitchClassIndex: true });

  return {
    count,
    centsToleranceEcho,
    numericId,
    idName,
    version,
    degreeNumeral,
    link,
    links,
    arabic,
    arabicList,
    originalValueType,
    pitchClassDataType,
    entityRef,
    noteNameArrays,
    tuningSystemHeader,
    tuningSystemRef,
    unknownTuningSystemRef,
    entityHeader,
    entityRefWithVersion,
    shortRef,
    sourceReferences,
    comments,
    transpositionTonics,
    transpositionSummary,
    pitchClass,
    scalePitchClass,
    SHARED_SCHEMAS,
    directions,
    INTERVAL,
    sixFieldInterval,
    intervalData,
  };
});
