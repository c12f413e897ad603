/**
 * The reference tables: tuning systems, note names, sources and which entity cites which source.
 * Read from the catalog as the list and detail answers read it.
 */
import { defineTable, integer, real, text } from "./columns.js";
import type { Catalog } from "../../theory/catalog.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import { pitchClassesPerOctave } from "../../theory/tuningSystem.js";
import type { NoteNameEntry } from "../../theory/noteName.js";
import { noteNameToArabic } from "../../theory/arabic.js";
import { toIdName } from "../../theory/idName.js";
import type { SourceRecord } from "../../data/schemas.js";

export const tuningSystems = defineTable<TuningSystem>({
  name: "tuning_systems",
  about: "The tuning systems of the archive.",
  row: "a tuning system",
  indexes: [],
  rows: (cat) => cat.tuningSystems,
  columns: [
    text("tuning_system_id", "Tuning system id (as in /api/tuning-systems/{id})", (ts) => ts.id),
    text("title_english", "Title in English", (ts) => ts.record.titleEnglish),
    text("title_arabic", "Title in Arabic", (ts) => ts.record.titleArabic),
    text("creator_english", "Creator in English", (ts) => ts.record.creatorEnglish),
    text("creator_arabic", "Creator in Arabic", (ts) => ts.record.creatorArabic),
    text("year", "Year as the archive gives it (it may be a range or approximate)", (ts) => ts.record.year),
    text("display_name", "Display name (creator and year)", (ts) => ts.displayName),
    integer("pitch_classes_per_octave", "Pitch classes in one octave", pitchClassesPerOctave),
    text("original_value_type", "What the archive's values are: fraction, cents, decimalRatio, stringLength or fretDivision", (ts) => ts.valueType),
    real(
      "string_length",
      "Length of the open string the string lengths are measured on",
      "the tuning system's string-length units",
      (ts) => ts.record.stringLength,
    ),
    real("default_reference_frequency", "Frequency of the default starting note", "Hz", (ts) => ts.record.defaultReferenceFrequency),
    integer("starting_notes", "Number of starting notes (note-name sets)", (ts) => ts.startingNotes.length),
    text("version", "Version of the record", (ts) => ts.record.version),
  ],
});

export interface StartingNoteRow {
  ts: TuningSystem;
  startingNote: string;
}

/** A tuning system with each of its starting notes: the scope of the per-tuning tables, which go tuning system by tuning system. */
export const tuningContexts = (ts: TuningSystem): StartingNoteRow[] => ts.startingNotes.map((startingNote) => ({ ts, startingNote }));

export const noteNames = defineTable<NoteNameEntry & { cat: Catalog }>({
  name: "note_names",
  about: "The note names of the archive's five-octave universe.",
  row: "a note name",
  indexes: [["note_name_id"]],
  rows: function* (cat) {
    for (const entry of cat.notes.allNoteNames) yield { ...entry, cat };
  },
  columns: [
    text("note_name_id", "Note name as an idName", (n) => n.idName),
    text("note_name", "Note name, transliterated", (n) => n.name),
    text("note_name_arabic", "Note name in Arabic script", (n) => noteNameToArabic(n.name)),
    integer("octave", "Octave of its first occurrence (0–4)", (n) => n.octave),
    integer("position", "Position within that octave's list", (n) => n.index),
    text("english_name", "English name with its octave (C4, E-b4)", (n) => n.englishName),
    text("shawwa_class", "al-Shawwā class: n (natural), 1p, 2p (one- or two-part), / (outside)", (n) => n.cat.notes.shawwaClassOf(n.name)),
  ],
});

const authorsOf = (s: SourceRecord): string =>
  s.contributors
    .filter((c) => c.type === "Author")
    .map((c) => `${c.firstNameEnglish} ${c.lastNameEnglish}`.trim())
    .join("; ");

export const sources = defineTable<SourceRecord>({
  name: "sources",
  about: "The bibliographic sources of the archive.",
  row: "a source",
  indexes: [],
  rows: (cat) => cat.sources,
  columns: [
    text("source_id", "Source id (as in /api/sources/{id})", (s) => s.id),
    text("source_type", "Book, Article or Thesis", (s) => s.sourceType),
    text("title_english", "Title in English", (s) => s.titleEnglish),
    text("title_arabic", "Title in Arabic", (s) => s.titleArabic),
    text("authors", "Authors in English, `first last` separated by `; `", authorsOf),
    text("publication_date_english", "Publication date as the archive gives it", (s) => s.publicationDateEnglish),
    text("edition_english", "Edition", (s) => s.editionEnglish),
    text("url", "Where the source can be read, if anywhere", (s) => s.url || null),
  ],
});

interface Citation {
  kind: "tuning_system" | "maqam" | "jins";
  id: string;
  sourceId: string;
  page: string;
}

function* citationsOf(cat: Catalog): Generator<Citation> {
  for (const ts of cat.tuningSystems) for (const r of ts.record.sourcePageReferences) yield { kind: "tuning_system", id: ts.id, ...r };
  for (const m of cat.maqamat) for (const r of m.record.sourcePageReferences) yield { kind: "maqam", id: m.idName, ...r };
  for (const j of cat.ajnas) for (const r of j.record.sourcePageReferences) yield { kind: "jins", id: j.idName, ...r };
}

export const citations = defineTable<Citation>({
  name: "citations",
  about: "Which tuning system, maqām or jins cites which source, on which page.",
  row: "one page reference of one entity",
  indexes: [["source_id"], ["entity_kind", "entity_id"]],
  rows: citationsOf,
  columns: [
    text("entity_kind", "tuning_system, maqam or jins", (c) => c.kind),
    text("entity_id", "Tuning system id or maqām/jins idName", (c) => c.id),
    text("source_id", "Source id (sources.source_id)", (c) => c.sourceId),
    text("page", "Page or pages as the archive gives them", (c) => c.page),
  ],
});

/** Tuning system id and starting note idName: the first columns of every per-tuning table. */
export const tuningColumns = <R extends StartingNoteRow>() => [
  text<R>("tuning_system_id", "Tuning system id (tuning_systems.tuning_system_id)", (r) => r.ts.id),
  text<R>("starting_note", "Starting note as an idName (note_names.note_name_id)", (r) => toIdName(r.startingNote)),
];
