/**
 * GET /pitch-classes/note-names, /pitch-classes/note-names/{noteName} and its /availability and
 * /compare. A note idName may contain `/` (`saham/ramal_tuti`), so the path parameter is greedy
 * and the sub-routes are matched first.
 */
import { ok, isAnswer, notFound } from "../errors.js";
import { defineRoute, type RequestContext } from "../route.js";
import { tuningSystemIds } from "../params.js";
import { includeArabic, oneOf, optionalText, pathParam, pitchClassDataType, tuningSystemList } from "../declare.js";
import { apiUrl, selfUrl } from "../links.js";
import { noteRef, pitchClassObject, tuningSystemRef } from "../shared/format.js";
import { PITCH_CLASS_DATA_TYPES } from "../shared/pitchClassValues.js";
import { tuningSystemNotFound, type TuningContext } from "../resolve.js";
import { resolveScope, compareCells, contextIdentity, missingNote, scopeTuningSystem, scopeStartingNote, compareStartingNote } from "../shared/tuningScope.js";
import type { NoteNameEntry } from "../../theory/noteName.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import type { Catalog } from "../../theory/catalog.js";
import { pitchClassesOf, pitchClassNamed, impliedReferenceFrequency, type PitchClass } from "../../theory/pitchClass.js";
import { namesOf } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { compareNames } from "../../theory/collation.js";
import { noteNameSchemas } from "./schemas.js";

export const NOTE_NAMES_PATH = "/pitch-classes/note-names";

const noteNameNotFound = (cat: Catalog, given: string) =>
  notFound({
    error: `Note name '${given}' not found`,
    message: "The note name must be one of the note names of the five octaves (idName or display name).",
    hint: `Valid note names include: ${cat.notes.allNoteNames
      .slice(0, 20)
      .map((n) => n.idName)
      .join(", ")}... (use /api/pitch-classes/note-names to see all)`,
  });

/** The note name a path names, or its 404. */
const noteNameOf = (cat: Catalog, given: string) => cat.notes.findNoteName(given) ?? noteNameNotFound(cat, given);

/** The parameters of an answer that shows a note name's pitch class. */
const pitchClassValueParams = () => ({ pitchClassDataType: dataType(), includeArabic: includeArabic() });

/** The note name is not among the pitch classes of this tuning system and starting note. */
export const noteNameNotInTuning = (name: string, { ts, startingNote }: TuningContext) =>
  notFound({
    error: `Note name '${name}' not found in tuning system '${ts.id}' with starting note '${startingNote}'`,
    message: "This tuning system has no pitch class of that name for this starting note (octaves 0-3).",
    hint: `Use /api/pitch-classes/note-names/${toIdName(name)}/availability to see where this note name is available.`,
  });

const noteLinks = (ctx: RequestContext, idName: string) => ({
  self: selfUrl(ctx),
  detail: apiUrl(ctx, `${NOTE_NAMES_PATH}/${idName}`),
  availability: apiUrl(ctx, `${NOTE_NAMES_PATH}/${idName}/availability`),
  compare: apiUrl(ctx, `${NOTE_NAMES_PATH}/${idName}/compare`),
});

/** The pitch class of a note name in a tuning context (first in octave-then-index order). */
const pitchClassIn = (cat: Catalog, name: string, { ts, startingNote }: TuningContext) => pitchClassNamed(pitchClassesOf(cat, ts, startingNote), name);

/** Canonical order: within-octave index first, then octave (qarār yegāh, yegāh, nawā, …). */
const byOrder = (a: NoteNameEntry, b: NoteNameEntry) => a.index - b.index || a.octave - b.octave;
/** Display names with diacritics, in the reference's collation (ʿ after every letter). */
const byDisplayName = (a: NoteNameEntry, b: NoteNameEntry) => compareNames(a.name, b.name);

/** Names among the pitch classes of any starting note of the tuning system. */
const namesInTuningSystem = (cat: Catalog, ts: TuningSystem): Set<string> =>
  new Set(ts.startingNotes.flatMap((startingNote) => [...namesOf(pitchClassesOf(cat, ts, startingNote))]));

export const NOTE_NAME_SORT_OPTIONS = ["order", "alphabetical"] as const;

const listRoute = defineRoute({
  path: NOTE_NAMES_PATH,
  summary: "Every note name of the archive in its canonical order (or alphabetically).",
  response: () => noteNameSchemas().noteNamesList,
  exampleQuery: { filterByTuningSystem: "ibnsina_1037" },
  params: {
    // Any value other than `alphabetical` (even an empty one) means the canonical order.
    sortBy: oneOf(NOTE_NAME_SORT_OPTIONS, {
      fallback: "order",
      blank: "default",
      other: "default",
      description: "`order` (canonical) or `alphabetical`.",
      example: "alphabetical",
    }),
    filterByTuningSystem: optionalText({
      blank: "error",
      description: "Only the note names among the pitch classes of this tuning system.",
      example: "ibnsina_1037",
      hint: "Omit filterByTuningSystem or give a tuning-system id such as ibnsina_1037.",
    }),
    includeArabic: includeArabic(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    let names = cat.notes.allNoteNames;
    if (p.filterByTuningSystem !== undefined) {
      const ts = cat.findTuningSystem(p.filterByTuningSystem);
      if (!ts) return tuningSystemNotFound(p.filterByTuningSystem);
      const present = namesInTuningSystem(cat, ts);
      names = names.filter((n) => present.has(n.name));
    }
    const data = [...names].sort(p.sortBy === "alphabetical" ? byDisplayName : byOrder).map((n) => ({
      noteName: noteRef(n.name, p.includeArabic),
      englishName: n.englishName,
      order: n.index,
      octave: n.octave,
      links: { detail: apiUrl(ctx, `${NOTE_NAMES_PATH}/${n.idName}`), availability: apiUrl(ctx, `${NOTE_NAMES_PATH}/${n.idName}/availability`) },
    }));
    return ok({ count: data.length, data });
  },
});

const dataType = () => pitchClassDataType(PITCH_CLASS_DATA_TYPES, "all", { blank: "default" });
// Any text is looked up: an unknown or blank name is a 404 listing the names.
const noteNamePath = () => pathParam({ description: "Note name (idName), as /api/note-names lists them.", example: "rast", blank: "kept", slashes: true });

const detailRoute = defineRoute({
  path: `${NOTE_NAMES_PATH}/{noteName}`,
  summary: "A note name's pitch class in one tuning system and starting note, or in all of them.",
  response: () => noteNameSchemas().noteNameDetail,
  params: {
    noteName: noteNamePath(),
    tuningSystem: scopeTuningSystem(),
    startingNote: scopeStartingNote(),
    ...pitchClassValueParams(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const note = noteNameOf(cat, p.noteName);
    if (isAnswer(note)) return note;
    const scope = resolveScope(cat, p.tuningSystem, p.startingNote);
    if (isAnswer(scope)) return scope;
    const { self, availability, compare } = noteLinks(ctx, note.idName);
    const links = { self, availability, compare };
    // The note name is in the context only of a single answer.
    const contextOf = <N extends object>(tuning: TuningContext, pc: PitchClass, noteName: N) => ({
      ...contextIdentity(tuning, p.includeArabic),
      ...noteName,
      referenceFrequency: impliedReferenceFrequency(pc),
      pitchClassDataType: p.pitchClassDataType,
    });
    if (scope.single) {
      const [tuning] = scope.contexts;
      const pc = pitchClassIn(cat, note.name, tuning);
      if (!pc) return noteNameNotInTuning(note.name, tuning);
      return ok({
        context: contextOf(tuning, pc, { noteName: noteRef(note.name, p.includeArabic) }),
        pitchClass: pitchClassObject(pc, p.pitchClassDataType, p.includeArabic),
        links,
      });
    }
    const pitchClasses = scope.contexts.flatMap((tuning) => {
      const pc = pitchClassIn(cat, note.name, tuning);
      return pc ? [{ context: contextOf(tuning, pc, {}), pitchClassData: pitchClassObject(pc, p.pitchClassDataType, p.includeArabic) }] : [];
    });
    return ok({ context: { noteName: noteRef(note.name, p.includeArabic) }, pitchClasses, links });
  },
});

const availabilityRoute = defineRoute({
  path: `${NOTE_NAMES_PATH}/{noteName}/availability`,
  summary: "The tuning systems and starting notes in which a note name is a pitch class.",
  response: () => noteNameSchemas().noteNameAvailability,
  params: { noteName: noteNamePath(), includeArabic: includeArabic() },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const note = noteNameOf(cat, p.noteName);
    if (isAnswer(note)) return note;
    const data = cat.tuningSystems.flatMap((ts) => {
      const startingNotes = ts.startingNotes.flatMap((startingNote) => {
        const pc = pitchClassIn(cat, note.name, { ts, startingNote });
        return pc ? [{ startingNote: noteRef(startingNote, p.includeArabic), pitchClassIndex: pc.index, octave: pc.octave }] : [];
      });
      return startingNotes.length ? [{ tuningSystem: tuningSystemRef(ts, p.includeArabic), startingNotes }] : [];
    });
    const { self, detail, compare } = noteLinks(ctx, note.idName);
    return ok({ noteName: noteRef(note.name, p.includeArabic), availability: { count: data.length, data }, links: { self, detail, compare } });
  },
});

const compareRoute = defineRoute({
  path: `${NOTE_NAMES_PATH}/{noteName}/compare`,
  summary: "A note name's pitch class compared across tuning systems and starting notes.",
  response: () => noteNameSchemas().noteNameCompare,
  computed: true,
  params: {
    noteName: noteNamePath(),
    tuningSystems: tuningSystemList(),
    startingNote: compareStartingNote(),
    ...pitchClassValueParams(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const note = noteNameOf(cat, p.noteName);
    if (isAnswer(note)) return note;
    const { comparisons, meta } = compareCells(cat, tuningSystemIds(cat, p.tuningSystems), p.startingNote, p.includeArabic, (tuning) => {
      const pc = pitchClassIn(cat, note.name, tuning);
      if (!pc) return missingNote(note.idName);
      return {
        ...contextIdentity(tuning, p.includeArabic),
        pitchClass: pitchClassObject(pc, p.pitchClassDataType, p.includeArabic),
        context: { referenceFrequency: impliedReferenceFrequency(pc), pitchClassDataType: p.pitchClassDataType },
      };
    });
    const { self, detail, availability } = noteLinks(ctx, note.idName);
    return ok({ context: { noteName: noteRef(note.name, p.includeArabic) }, comparisons, meta, links: { self, detail, availability } });
  },
});

export const routes = [availabilityRoute, compareRoute, detailRoute, listRoute];
