/**
 * GET /sources, /sources/{id} and the tuning systems, maqāmāt and ajnās whose page references
 * cite a source. Source ids are the stored ids, matched exactly.
 */
import { ok, notFound } from "../errors.js";
import { defineRoute, routeSpec, type RequestContext } from "../route.js";
import type { ParamDeclarations, ParsedParams } from "../params.js";
import { includeArabic, pathParam } from "../declare.js";
import { apiUrl } from "../links.js";
import { entityObject, tuningSystemEntity } from "../shared/format.js";
import type { SourceRecord } from "../../data/schemas.js";
import type { Entity } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import { toIdName } from "../../theory/idName.js";
import { sourceSchemas } from "./schemas.js";

/** The first 4 digits of a date, or the whole text when it does not start with them (Eastern Arabic digits). */
const yearOf = (date: string): string => /^\d{4}/.exec(date)?.[0] ?? date;

/**
 * `<first contributor's last name> (<original year>/<year>)` through toIdName with `_` → `-`, e.g.
 * `al-urmawi-al-baghdadi-(1986/2017)`; the Arabic one falls back to English where a field is
 * empty. toIdName leaves Arabic letters NFD-decomposed, as the reference does.
 */
function displayNameOf(source: SourceRecord, language: "English" | "Arabic"): string {
  const first = source.contributors[0];
  if (!first) return "";
  const text = (english: string, arabic: string) => (language === "Arabic" && arabic) || english;
  const lastName = text(first.lastNameEnglish, first.lastNameArabic);
  const original = source.sourceType === "Book" ? text(source.originalPublicationDateEnglish, source.originalPublicationDateArabic) : "";
  const years = `${original ? `${yearOf(original)}/` : ""}${yearOf(text(source.publicationDateEnglish, source.publicationDateArabic))}`;
  return toIdName(`${lastName} (${years})`).replace(/_/g, "-");
}

/** What a source's type adds to its record: the type, its fields, and their Arabic twins (identifiers have none). */
interface TypeParts<T, E, A> {
  sourceType: T;
  english: E;
  arabic: A;
}

/** The source record: the common fields and the type's, then (with Arabic) every `…Ar` twin, the common ones first. */
function recordOf<T, E extends object, A extends object>(source: SourceRecord, withArabic: boolean, { sourceType, english, arabic }: TypeParts<T, E, A>) {
  const record = {
    id: source.id,
    displayName: displayNameOf(source, "English"),
    sourceType,
    title: source.titleEnglish,
    contributors: source.contributors.map((c) => ({
      type: c.type,
      firstName: c.firstNameEnglish,
      lastName: c.lastNameEnglish,
      ...(withArabic ? { firstNameAr: c.firstNameArabic, lastNameAr: c.lastNameArabic } : {}),
    })),
    edition: source.editionEnglish,
    publicationDate: source.publicationDateEnglish,
    url: source.url,
    dateAccessed: source.dateAccessed,
    version: source.version,
    ...english,
  };
  if (!withArabic) return record;
  const common = { titleAr: source.titleArabic, editionAr: source.editionArabic, publicationDateAr: source.publicationDateArabic };
  return { ...record, displayNameAr: displayNameOf(source, "Arabic"), ...common, ...arabic };
}

/** The record of a source, built per type so that its type and fields go together. */
function sourceRecord(s: SourceRecord, withArabic: boolean) {
  switch (s.sourceType) {
    case "Book":
      return recordOf(s, withArabic, {
        sourceType: s.sourceType,
        english: { originalPublicationDate: s.originalPublicationDateEnglish, publisher: s.publisherEnglish, place: s.placeEnglish, ISBN: s.ISBN },
        arabic: { originalPublicationDateAr: s.originalPublicationDateArabic, publisherAr: s.publisherArabic, placeAr: s.placeArabic },
      });
    case "Article":
      return recordOf(s, withArabic, {
        sourceType: s.sourceType,
        english: { journal: s.journalEnglish, volume: s.volumeEnglish, issue: s.issueEnglish, pageRange: s.pageRangeEnglish, DOI: s.DOI },
        arabic: { journalAr: s.journalArabic, volumeAr: s.volumeArabic, issueAr: s.issueArabic, pageRangeAr: s.pageRangeArabic },
      });
    case "Thesis":
      return recordOf(s, withArabic, {
        sourceType: s.sourceType,
        english: {
          degreeType: s.degreeTypeEnglish,
          university: s.universityEnglish,
          department: s.departmentEnglish,
          databaseIdentifier: s.databaseIdentifier,
          databaseName: s.databaseName,
        },
        arabic: { degreeTypeAr: s.degreeTypeArabic, universityAr: s.universityArabic, departmentAr: s.departmentArabic },
      });
  }
}

const sourceNotFound = (id: string) =>
  notFound({
    error: `Source '${id}' not found`,
    message: `No source has the id '${id}'.`,
    hint: "Use /api/sources to see all available sources and their ids.",
  });

/** `[{page}]` of the references to this source, empty when the record does not cite it. */
const pagesCiting = (references: readonly { sourceId: string; page: string }[], id: string) =>
  references.filter((r) => r.sourceId === id).map(({ page }) => ({ page }));

const sourceId = (blank: "error" | "kept") => pathParam({ description: "Source id, as /api/sources lists them.", example: "forster_2010", blank });

const sourceParams = {
  // Any text is looked up: on the lists of a source, a blank id is just an unknown one (404), as recorded.
  id: sourceId("kept"),
  includeArabic: includeArabic(),
} satisfies ParamDeclarations;
type SourceParams = ParsedParams<typeof sourceParams>;

/** `{context: {source}, count, data}` of the records citing a source, or its 404. */
function citingList<T>(cat: Catalog, p: SourceParams, itemsOf: (source: SourceRecord) => T[]) {
  const source = cat.sources.find((s) => s.id === p.id);
  if (!source) return sourceNotFound(p.id);
  const data = itemsOf(source);
  const context = {
    source: {
      id: source.id,
      idName: source.id,
      displayName: source.titleEnglish,
      ...(p.includeArabic ? { displayNameAr: source.titleArabic } : {}),
    },
  };
  return ok({ context, count: data.length, data });
}

const listRoute = defineRoute({
  path: "/sources",
  summary: "The bibliographic sources of the archive.",
  response: () => sourceSchemas().sourcesList,
  params: { includeArabic: includeArabic() },
  handle: (p, { catalog: cat }) => {
    const data = cat.sources.map((s) => sourceRecord(s, p.includeArabic));
    return ok({ count: data.length, data, meta: { total: cat.sources.length } });
  },
});

const detailRoute = defineRoute({
  path: "/sources/{id}",
  summary: "One source: its bibliographic record.",
  response: () => sourceSchemas().sourceDetail,
  // The record itself answers a blank id with a 400, as recorded (/sources/%20).
  params: { ...sourceParams, id: sourceId("error") },
  handle: (p, { catalog: cat }) => {
    const source = cat.sources.find((s) => s.id === p.id);
    return source ? ok({ source: sourceRecord(source, p.includeArabic) }) : sourceNotFound(p.id);
  },
});

const sourceLink = (ctx: RequestContext, source: SourceRecord) => apiUrl(ctx, `/sources/${source.id}`);

const tuningSystemsRoute = defineRoute({
  path: "/sources/{id}/tuning-systems",
  summary: "The tuning systems that cite a source, with the pages.",
  response: () => sourceSchemas().sourceTuningSystems,
  params: sourceParams,
  handle: (p, ctx) =>
    citingList(ctx.catalog, p, (source) =>
      ctx.catalog.tuningSystems.flatMap((ts) => {
        const sourceReferences = pagesCiting(ts.record.sourcePageReferences, source.id);
        if (!sourceReferences.length) return [];
        return [
          {
            tuningSystem: tuningSystemEntity(ts, p.includeArabic, { year: ts.record.year }),
            sourceReferences,
            // Every note-name set's first name, not deduplicated, as /tuning-systems lists them.
            startingNotes: ts.record.noteNames.map((set) => toIdName(set[0])),
            links: { detail: apiUrl(ctx, `/tuning-systems/${ts.id}`), source: sourceLink(ctx, source) },
          },
        ];
      }),
    ),
});

type CitingEntity = { sourceReferences: { page: string }[]; links: { detail: string; source: string } };

/**
 * The maqāmāt or ajnās citing a source, in file order: `item(entity, {sourceReferences, links})`
 * (`{maqam|jins, sourceReferences, links}`) of each.
 */
const entitiesSpec = <S extends "maqamat" | "ajnas", I>(
  segment: S,
  entitiesOf: (cat: Catalog) => readonly Entity[],
  item: (entity: ReturnType<typeof entityObject>, citing: CitingEntity) => I,
) =>
  routeSpec({
    path: `/sources/{id}/${segment}`,
    summary: `The ${segment === "maqamat" ? "maqāmāt" : "ajnās"} that cite a source, with the pages.`,
    params: sourceParams,
    handle: (p, ctx) =>
      citingList(ctx.catalog, p, (source) =>
        entitiesOf(ctx.catalog).flatMap((entity) => {
          const sourceReferences = pagesCiting(entity.record.sourcePageReferences, source.id);
          if (!sourceReferences.length) return [];
          const links = { detail: apiUrl(ctx, `/${segment}/${entity.idName}`), source: sourceLink(ctx, source) };
          return [item(entityObject(entity, p.includeArabic), { sourceReferences, links })];
        }),
      ),
  });

export const routes = [
  tuningSystemsRoute,
  defineRoute({
    ...entitiesSpec(
      "maqamat",
      (cat) => cat.maqamat,
      (maqam, citing) => ({ maqam, ...citing }),
    ),
    response: () => sourceSchemas().sourceMaqamat,
  }),
  defineRoute({
    ...entitiesSpec(
      "ajnas",
      (cat) => cat.ajnas,
      (jins, citing) => ({ jins, ...citing }),
    ),
    response: () => sourceSchemas().sourceAjnas,
  }),
  detailRoute,
  listRoute,
];
