/** 200 bodies of GET /sources, /sources/{id} and the tuning systems, maqāmāt and ajnās citing a source. */
import * as z from "zod";
import { sharedSchemas } from "../shared/schemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The source bodies, built on first use (shared/onFirstUse.ts). */
export const sourceSchemas = onFirstUse(() => {
  const { arabic, count, entityRefWithVersion, idName, link, links, tuningSystemHeader, version } = sharedSchemas();

  const text = z.string();

  const common = {
    id: text.describe("Built from the publication date; URL-safe, diacritics removed."),
    displayName: text,
    title: text,
    contributors: z.array(z.strictObject({ type: text, firstName: text, lastName: text, firstNameAr: arabic, lastNameAr: arabic })),
    edition: text,
    publicationDate: text,
    url: text,
    dateAccessed: text.describe("Day-month-year text."),
    version,
    displayNameAr: arabic,
    titleAr: arabic,
    editionAr: arabic,
    publicationDateAr: arabic,
  };

  /** A bibliographic source: the common fields and its type's own (identifiers have no Arabic twin). Empty values are empty strings. */
  const sourceRecord = z.union([
    z.strictObject({
      ...common,
      sourceType: z.literal("Book"),
      originalPublicationDate: text,
      publisher: text,
      place: text,
      ISBN: text,
      originalPublicationDateAr: arabic,
      publisherAr: arabic,
      placeAr: arabic,
    }),
    z.strictObject({
      ...common,
      sourceType: z.literal("Article"),
      journal: text,
      volume: text,
      issue: text,
      pageRange: text,
      DOI: text,
      journalAr: arabic,
      volumeAr: arabic,
      issueAr: arabic,
      pageRangeAr: arabic,
    }),
    z.strictObject({
      ...common,
      sourceType: z.literal("Thesis"),
      degreeType: text,
      university: text,
      department: text,
      databaseIdentifier: text,
      databaseName: text,
      degreeTypeAr: arabic,
      universityAr: arabic,
      departmentAr: arabic,
    }),
  ]);

  const sourcesList = z.strictObject({
    count: count.describe("Number of sources listed."),
    data: z.array(sourceRecord).describe("Every bibliographic source."),
    meta: z.strictObject({ total: count }).describe("`total`: the number of sources in the archive."),
  });

  const sourceDetail = z.strictObject({ source: sourceRecord.describe("The source record.") });

  const citingContext = z
    .strictObject({ source: z.strictObject({ id: text, idName: text, displayName: text.describe("The source's title."), displayNameAr: arabic }) })
    .describe("The source cited.");

  const pages = z.array(z.strictObject({ page: text })).describe("The pages of the source the record cites.");
  const citingLinks = links({ detail: link, source: link });

  /** `{context: {source}, count, data}` of the records citing a source. */
  const citing = <T extends z.ZodType>(item: T, what: string) =>
    z.strictObject({
      context: citingContext,
      count: count.describe(`Number of ${what} citing the source.`),
      data: z.array(item).describe(`The ${what} whose source page references include the source, in archive order.`),
    });

  const sourceTuningSystems = citing(
    z.strictObject({
      tuningSystem: tuningSystemHeader({ year: text }),
      sourceReferences: pages,
      startingNotes: z.array(idName).describe("First note idName of every note-name set."),
      links: citingLinks,
    }),
    "tuning systems",
  );

  const sourceMaqamat = citing(z.strictObject({ maqam: entityRefWithVersion, sourceReferences: pages, links: citingLinks }), "maqāmāt");

  const sourceAjnas = citing(z.strictObject({ jins: entityRefWithVersion, sourceReferences: pages, links: citingLinks }), "ajnās");

  return { sourcesList, sourceDetail, sourceTuningSystems, sourceMaqamat, sourceAjnas };
});
