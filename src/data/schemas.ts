/** zod schemas of the archive's fact files in data/. Types are derived from them. */
import * as z from "zod";

const text = z.string();
const pageReference = z.object({ sourceId: text, page: text });

export const tuningSystemSchema = z.object({
  id: text.min(1),
  titleEnglish: text,
  titleArabic: text,
  year: text,
  sourceEnglish: text,
  sourceArabic: text,
  sourcePageReferences: z.array(pageReference),
  creatorEnglish: text,
  creatorArabic: text,
  commentsEnglish: text,
  commentsArabic: text,
  tuningSystemPitchClasses: z.array(text).min(1),
  noteNames: z.array(z.array(text).min(1)).min(1),
  abjadNames: z.array(text),
  stringLength: z.number().nonnegative(),
  defaultReferenceFrequency: z.number().positive(),
  referenceFrequencies: z.record(text, z.number()),
  version: text,
});

const stopSchema = z.object({
  type: z.enum(["note", "jins", "maqam", "direction"]),
  value: text,
  startingNote: text.optional(),
  direction: text.optional(),
});

export const sayrSchema = z.object({
  id: text,
  creatorEnglish: text,
  creatorArabic: text,
  sourceId: text,
  page: text,
  commentsEnglish: text,
  commentsArabic: text,
  stops: z.array(stopSchema),
  version: text,
});

const noteList = z.array(text).nullable();

export const maqamSchema = z.object({
  id: text.regex(/^\d+$/, "must be a numeric string"),
  idName: text,
  name: text.min(1),
  ascendingNoteNames: z.array(text).min(1),
  descendingNoteNames: z.array(text).min(1),
  primaryJinsDegree: noteList,
  secondaryJinsDegree: noteList,
  tertiaryJinsDegree: noteList,
  ghammaz: noteList,
  suyur: z.array(sayrSchema),
  commentsEnglish: text,
  commentsArabic: text,
  sourcePageReferences: z.array(pageReference),
  version: text,
});

export const jinsSchema = z.object({
  id: text.regex(/^\d+$/, "must be a numeric string"),
  idName: text,
  name: text.min(1),
  noteNames: z.array(text).min(1),
  commentsEnglish: text,
  commentsArabic: text,
  sourcePageReferences: z.array(pageReference),
  version: text,
});

const contributorSchema = z.object({
  type: text,
  firstNameEnglish: text,
  lastNameEnglish: text,
  firstNameArabic: text,
  lastNameArabic: text,
});

const sourceCommon = {
  id: text.min(1),
  titleEnglish: text,
  titleArabic: text,
  contributors: z.array(contributorSchema),
  editionEnglish: text,
  editionArabic: text,
  publicationDateEnglish: text,
  publicationDateArabic: text,
  url: text,
  dateAccessed: text,
  version: text,
};

export const sourceSchema = z.discriminatedUnion("sourceType", [
  z.object({
    ...sourceCommon,
    sourceType: z.literal("Book"),
    originalPublicationDateEnglish: text,
    originalPublicationDateArabic: text,
    publisherEnglish: text,
    publisherArabic: text,
    placeEnglish: text,
    placeArabic: text,
    ISBN: text,
  }),
  z.object({
    ...sourceCommon,
    sourceType: z.literal("Article"),
    journalEnglish: text,
    journalArabic: text,
    volumeEnglish: text,
    volumeArabic: text,
    issueEnglish: text,
    issueArabic: text,
    pageRangeEnglish: text,
    pageRangeArabic: text,
    DOI: text,
  }),
  z.object({
    ...sourceCommon,
    sourceType: z.literal("Thesis"),
    degreeTypeEnglish: text,
    degreeTypeArabic: text,
    universityEnglish: text,
    universityArabic: text,
    departmentEnglish: text,
    departmentArabic: text,
    databaseIdentifier: text,
    databaseName: text,
  }),
]);

export const familyRulesSchema = z.object({
  _meta: z.object({ classifier: z.object({ tuningSystem: text, startingNote: text }) }),
  families: z.record(
    text,
    z.object({
      displayName: text,
      secondaryJinsDegree: z.array(text).nullable(),
      tertiaryJinsDegree: z.array(text).nullable(),
      ghammazDegree: z.array(text).nullable(),
      notes: text,
    }),
  ),
});

const shawwaClass = z.enum(["n", "1p", "2p", "/"]);

/** The five-octave note-name universe: octave lists 0-4, English stems and al-Shawwa classes by index. */
export const noteNameUniverseSchema = z
  .object({
    stems: z.array(text).length(37),
    shawwaClasses: z.array(shawwaClass).length(37),
    octaves: z.array(z.array(text.min(1))).length(5),
  })
  .superRefine((u, ctx) => {
    u.octaves.forEach((names, octave) => {
      const expected = octave === 4 ? 36 : 37;
      if (names.length !== expected) ctx.addIssue({ code: "custom", path: ["octaves", octave], message: `expected ${expected} names, got ${names.length}` });
    });
  });

export type TuningSystemRecord = z.infer<typeof tuningSystemSchema>;
export type MaqamRecord = z.infer<typeof maqamSchema>;
export type JinsRecord = z.infer<typeof jinsSchema>;
export type SourceRecord = z.infer<typeof sourceSchema>;
export type SayrRecord = z.infer<typeof sayrSchema>;
export type FamilyRules = z.infer<typeof familyRulesSchema>;
export type NoteNameUniverse = z.infer<typeof noteNameUniverseSchema>;
export type ShawwaClass = z.infer<typeof shawwaClass>;
