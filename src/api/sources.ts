/**
 * GET /sources, /sources/{id} and the tuning systems, maqāmāt and ajnās whose page references
 * cite a source. Source ids are the stored ids, matched exactly.
 */
import { apiError, ok, notFound } from "./errors.js";
import { defineRoute, type RequestContext, type Route } from "./route.js";
import type { ParamDeclarations, ParsedParams } from "./params.js";
import { includeArabic, pathParam } from "./declare.js";
import { apiUrl } from "./links.js";
import { entityObject, tuningSystemEntity } from "./format.js";
import type { SourceRecord } from "../data/schemas.js";
import type { Entity } from "../theory/entity.js";
import type { Catalog } from "../theory/catalog.js";
import { toIdName } from "../theory/idName.js";

/** The record's fields by name (the typed union hides the per-type ones from indexing). */
type Fields = Record<string, string | undefined>;
const fieldsOf = (source: SourceRecord) => source as unknown as Fields;

/** Fields each source type adds after the common ones, by stem. */
const TYPE_FIELDS: Record<SourceRecord["sourceType"], readonly string[]> = {
  Book: ["originalPublicationDate", "publisher", "place", "ISBN"],
  Article: ["journal", "volume", "issue", "pageRange", "DOI"],
  Thesis: ["degreeType", "university", "department", "databaseIdentifier", "databaseName"],
};

/** English text of a stem: `<stem>English`, or the stem itself for identifiers (ISBN, DOI, …). */
const english = (source: SourceRecord, stem: string): string => fieldsOf(source)[`${stem}English`] ?? fieldsOf(source)[stem] ?? "";
/** Arabic text of a stem; undefined for identifiers, which have none. */
const arabic = (source: SourceRecord, stem: string): string | undefined => fieldsOf(source)[`${stem}Arabic`];

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
  const text = (stem: string) => (language === "Arabic" && arabic(source, stem)) || english(source, stem);
  const lastName = (language === "Arabic" && first.lastNameArabic) || first.lastNameEnglish;
  const original = source.sourceType === "Book" ? text("originalPublicationDate") : "";
  const years = `${original ? `${yearOf(original)}/` : ""}${yearOf(text("publicationDate"))}`;
  return toIdName(`${lastName} (${years})`).replace(/_/g, "-");
}

const ARABIC_COMMON = ["title", "edition", "publicationDate"];

/** The source record: common fields, the type's fields, then (with Arabic) every `…Ar` twin. */
function sourceRecord(source: SourceRecord, withArabic: boolean) {
  const typeFields = TYPE_FIELDS[source.sourceType];
  const record = {
    id: source.id,
    displayName: displayNameOf(source, "English"),
    sourceType: source.sourceType,
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
    ...Object.fromEntries(typeFields.map((stem) => [stem, english(source, stem)])),
  };
  if (!withArabic) return record;
  const arabicFields = [...ARABIC_COMMON, ...typeFields].flatMap((stem) => {
    const text = arabic(source, stem);
    return text === undefined ? [] : [[`${stem}Ar`, text]];
  });
  return { ...record, displayNameAr: displayNameOf(source, "Arabic"), ...Object.fromEntries(arabicFields) };
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
function citingList(cat: Catalog, p: SourceParams, itemsOf: (source: SourceRecord) => unknown[]) {
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
  params: { includeArabic: includeArabic() },
  handle: (p, { catalog: cat }) => {
    const data = cat.sources.map((s) => sourceRecord(s, p.includeArabic));
    return ok({ count: data.length, data, meta: { total: cat.sources.length } });
  },
});

const detailRoute = defineRoute({
  path: "/sources/{id}",
  summary: "One source: its bibliographic record.",
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

/** The maqāmāt or ajnās citing a source, as `{maqam|jins, sourceReferences, links}` in file order. */
const entitiesRoute = (segment: "maqamat" | "ajnas", key: "maqam" | "jins", entitiesOf: (cat: Catalog) => readonly Entity[]) =>
  defineRoute({
    path: `/sources/{id}/${segment}`,
    summary: `The ${segment === "maqamat" ? "maqāmāt" : "ajnās"} that cite a source, with the pages.`,
    params: sourceParams,
    handle: (p, ctx) =>
    citingList(ctx.catalog, p, (source) =>
      entitiesOf(ctx.catalog).flatMap((entity) => {
        const sourceReferences = pagesCiting(entity.record.sourcePageReferences, source.id);
        if (!sourceReferences.length) return [];
        return [
          {
            [key]: entityObject(entity, p.includeArabic),
            sourceReferences,
            links: { detail: apiUrl(ctx, `/${segment}/${entity.idName}`), source: sourceLink(ctx, source) },
          },
        ];
      }),
    ),
  });

export const routes: Route[] = [
  tuningSystemsRoute,
  entitiesRoute("maqamat", "maqam", (cat) => cat.maqamat),
  entitiesRoute("ajnas", "jins", (cat) => cat.ajnas),
  detailRoute,
  listRoute,
];
