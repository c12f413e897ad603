/** GET /intervals, /intervals/compare and /intervals/calculate. */
import { apiError, ok, type ErrorAnswer, isAnswer, notFound } from "../errors.js";
import { defineRoute } from "../route.js";
import { MAX_LIST_ITEMS, tuningSystemIds } from "../params.js";
import { includeArabic, list, oneOf, requiredText, tuningSystemList } from "../declare.js";
import { apiUrl, selfUrl } from "../links.js";
import { noteRef, pitchClassBase, tuningSystemRef } from "../shared/format.js";
import { pitchClassData } from "../shared/pitchClassValues.js";
import { resolveTuning, type TuningContext } from "../resolve.js";
import { resolveScope, compareCells, contextIdentity, missingNote, scopeTuningSystem, scopeStartingNote, compareStartingNote } from "../shared/tuningScope.js";
import { noteNameNotInTuning } from "../pitch-classes/routes.js";
import type { NoteNameEntry } from "../../theory/noteName.js";
import type { Catalog } from "../../theory/catalog.js";
import { pitchClassesOf, pitchClassNamed, impliedReferenceFrequency, type PitchClass } from "../../theory/pitchClass.js";
import { intervalBetween, detectValueFormat, pitchClassWithValue, VALUE_FORMATS, type Interval, type ValueFormat } from "../../theory/interval.js";
import { toIdName } from "../../theory/idName.js";
import { intervalSchemas } from "./schemas.js";

/** `noteNames`: two or more comma-separated note names (each must be known: see noteNamesIn). */
const noteNameList = () =>
  list({
    description: "Two or more comma-separated note names; the intervals are those between consecutive names.",
    example: "rast,dugah,segah",
    hint: "Add noteNames=rast,dugah,segah (comma-separated note names).",
    min: 2,
    tooFew: {
      error: "At least 2 note names are required",
      message: "An interval needs two note names; noteNames lists the notes whose consecutive intervals are computed.",
      hint: "Provide at least 2 note names, e.g. noteNames=rast,dugah.",
    },
    tooMany: { what: "note names", hint: `Split noteNames into requests of at most ${MAX_LIST_ITEMS} names.` },
  });

/** The listed note names in the catalog's universe, or the 400 naming those it does not know. */
function noteNamesIn(cat: Catalog, given: readonly string[]): NoteNameEntry[] | ErrorAnswer {
  const unknown = given.filter((name) => !cat.notes.findNoteName(name));
  if (unknown.length)
    return apiError({
      error: `Invalid note name(s): ${unknown.join(", ")}`,
      message: "Every note name must be one of the note names of the five octaves.",
      hint: "Use /api/pitch-classes/note-names to see all valid note names.",
    });
  return given.map((name) => cat.notes.findNoteName(name) as NoteNameEntry);
}

/** The interval fields of the interval answers (the meaningless pitchClassIndex left out). */
const intervalData = ({ pitchClassIndex: _meaningless, ...data }: Interval) => data;

/** Pitch classes of the listed notes in a tuning context, or the first note it lacks. */
function pitchClassesFor(cat: Catalog, notes: readonly NoteNameEntry[], { ts, startingNote }: TuningContext): PitchClass[] | NoteNameEntry {
  const pcs = pitchClassesOf(cat, ts, startingNote);
  const found: PitchClass[] = [];
  for (const note of notes) {
    const pc = pitchClassNamed(pcs, note.name);
    if (!pc) return note;
    found.push(pc);
  }
  return found;
}

/** Intervals between consecutive listed notes (0 → 1, 1 → 2, …), with the notes' references. */
const consecutiveIntervals = <R>(pcs: readonly PitchClass[], refs: readonly R[]) =>
  pcs.slice(1).map((to, i) => ({ from: refs[i], to: refs[i + 1], interval: intervalData(intervalBetween(pcs[i], to)) }));

const intervalsRoute = defineRoute({
  path: "/intervals",
  summary: "The intervals between consecutive note names, in one tuning system or in all of them.",
  response: () => intervalSchemas().intervals,
  exampleQuery: { startingNote: "yegah", tuningSystem: "ibnsina_1037" },
  computed: true,
  params: {
    noteNames: noteNameList(),
    tuningSystem: scopeTuningSystem(),
    startingNote: scopeStartingNote(),
    includeArabic: includeArabic(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const notes = noteNamesIn(cat, p.noteNames);
    if (isAnswer(notes)) return notes;
    const scope = resolveScope(cat, p.tuningSystem, p.startingNote);
    if (isAnswer(scope)) return scope;
    const noteRefs = notes.map((n) => noteRef(n.name, p.includeArabic));
    const intervals = [];
    for (const tuning of scope.contexts) {
      const pcs = pitchClassesFor(cat, notes, tuning);
      if (!Array.isArray(pcs)) {
        // One named tuning must hold every note; across many, the ones that do are listed.
        if (scope.single) return noteNameNotInTuning(pcs.name, tuning);
        continue;
      }
      const tuningSystemContext = { ...contextIdentity(tuning, p.includeArabic), referenceFrequency: impliedReferenceFrequency(pcs[0]) };
      for (const { from, to, interval } of consecutiveIntervals(pcs, noteRefs))
        intervals.push({ tuningSystemContext, fromNote: from, toNote: to, intervalData: interval });
    }
    return ok({
      context: { noteNames: noteRefs },
      intervals,
      links: { self: selfUrl(ctx), compare: apiUrl(ctx, `/intervals/compare?noteNames=${toIdName(ctx.query.get("noteNames") ?? "")}`) },
    });
  },
});

const compareRoute = defineRoute({
  path: "/intervals/compare",
  summary: "The intervals between consecutive note names compared across tuning systems and starting notes.",
  response: () => intervalSchemas().intervalsCompare,
  computed: true,
  params: {
    noteNames: noteNameList(),
    tuningSystems: tuningSystemList(),
    startingNote: compareStartingNote(),
    includeArabic: includeArabic(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const notes = noteNamesIn(cat, p.noteNames);
    if (isAnswer(notes)) return notes;
    const noteRefs = notes.map((n) => noteRef(n.name, p.includeArabic));
    const { comparisons, meta } = compareCells(cat, tuningSystemIds(cat, p.tuningSystems), p.startingNote, p.includeArabic, (tuning) => {
      const pcs = pitchClassesFor(cat, notes, tuning);
      if (!Array.isArray(pcs)) return missingNote(pcs.idName);
      return {
        ...contextIdentity(tuning, p.includeArabic),
        intervals: consecutiveIntervals(pcs, noteRefs),
        context: { referenceFrequency: impliedReferenceFrequency(pcs[0]) },
      };
    });
    return ok({
      context: { noteNames: noteRefs },
      comparisons,
      meta,
      links: { self: selfUrl(ctx), intervals: apiUrl(ctx, `/intervals?noteNames=${toIdName(ctx.query.get("noteNames") ?? "")}`) },
    });
  },
});

const UNITS = ["fraction", "cents", "centsFromZero", "decimalRatio", "stringLength", "fretDivision"] as const;

const valueType = (which: "from" | "to") =>
  oneOf(VALUE_FORMATS, {
    fallback: undefined,
    description: `How to read \`${which}\`: a note name or a value in one of these formats; detected from the value when absent.`,
    example: "noteName",
  });

interface Identified {
  pc: PitchClass;
  identifier: ReturnType<typeof noteRef>;
}

/**
 * A note name that the tuning context holds, else a value in the given or detected format; the
 * first matching pitch class wins.
 */
function identify(cat: Catalog, pcs: readonly PitchClass[], raw: string, type: ValueFormat | undefined, arabic: boolean): Identified | undefined {
  const note = cat.notes.findNoteName(raw);
  const named = note && pitchClassNamed(pcs, note.name);
  if (note && named) return { pc: named, identifier: noteRef(note.name, arabic) };
  const format = type ?? detectValueFormat(raw);
  const pc = format && pitchClassWithValue(pcs, raw, format);
  return pc ? { pc, identifier: { idName: toIdName(raw), displayName: raw } } : undefined;
}

const pitchClassNotFound = (raw: string, tuningSystem: string, startingNote: string) =>
  notFound({
    error: `Pitch class '${raw}' not found`,
    message: `Could not find a pitch class matching '${raw}' in tuning system '${tuningSystem}' with starting note '${startingNote}'.`,
    hint: "Use a note name from /api/pitch-classes/note-names, or a value equal to a pitch-class value of the tuning system (give fromType/toType when its format is ambiguous).",
  });

/** A pitch class as the calculator shows it: its names and the five value formats, fretDivision a number. */
function calculatorPitchClass(pc: PitchClass, arabic: boolean) {
  const { englishName, solfege, abjadName, fraction, cents, decimalRatio, stringLength } = pitchClassData(pc);
  return { ...pitchClassBase(pc, arabic), englishName, solfege, abjadName, fraction, cents, decimalRatio, stringLength, fretDivision: pc.fretDivision };
}

const round3 = (x: number): number => parseFloat(x.toFixed(3));

const calculateRoute = defineRoute({
  path: "/intervals/calculate",
  summary: "The interval between two pitch classes, each given by note name or by value, in one tuning system.",
  response: () => intervalSchemas().intervalsCalculate,
  computed: true,
  params: {
    from: requiredText({
      description: "The lower pitch class: a note name or a value (fraction, cents, …).",
      example: "rast",
      hint: "Add from=rast or from=3/2.",
    }),
    to: requiredText({ description: "The upper pitch class: a note name or a value.", example: "nawa", hint: "Add to=dugah or to=5/4." }),
    tuningSystem: requiredText({ description: "Tuning-system id.", example: "ibnsina_1037", hint: "Add tuningSystem=ibnsina_1037 (see /api/tuning-systems)." }),
    startingNote: requiredText({
      description: "Starting note of the tuning system.",
      example: "yegah",
      hint: "Add the starting note of the tuning system, e.g. startingNote=yegah.",
    }),
    unit: oneOf(UNITS, {
      fallback: "cents",
      description: "The unit of `interval.value`.",
      example: "cents",
      required: { hint: `Add unit=cents (one of: ${UNITS.join(", ")}).` },
    }),
    fromType: valueType("from"),
    toType: valueType("to"),
    includeArabic: includeArabic(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const tuning = resolveTuning(cat, p.tuningSystem, p.startingNote);
    if (isAnswer(tuning)) return tuning;
    const pcs = pitchClassesOf(cat, tuning.ts, tuning.startingNote);
    const from = identify(cat, pcs, p.from, p.fromType, p.includeArabic);
    if (!from) return pitchClassNotFound(p.from, p.tuningSystem, p.startingNote);
    const to = identify(cat, pcs, p.to, p.toType, p.includeArabic);
    if (!to) return pitchClassNotFound(p.to, p.tuningSystem, p.startingNote);
    const between = intervalBetween(from.pc, to.pc);
    const allUnits = {
      fraction: between.fraction,
      cents: round3(between.cents),
      decimalRatio: round3(between.decimalRatio),
      stringLength: round3(between.stringLength),
      fretDivision: round3(between.fretDivision),
    };
    // centsFromZero is an alias of cents (QUIRK Q12).
    const { unit } = p;
    const interval =
      unit === "fraction" ? { value: allUnits.fraction, unit, allUnits } : { value: allUnits[unit === "centsFromZero" ? "cents" : unit], unit, allUnits };
    const { version: _unstated, ...tuningSystem } = tuningSystemRef(tuning.ts, p.includeArabic);
    const id = encodeURIComponent(p.tuningSystem);
    return ok({
      context: { tuningSystem, startingNote: noteRef(tuning.startingNote, p.includeArabic), referenceFrequency: impliedReferenceFrequency(from.pc) },
      from: { pitchClass: calculatorPitchClass(from.pc, p.includeArabic), identifier: from.identifier },
      to: { pitchClass: calculatorPitchClass(to.pc, p.includeArabic), identifier: to.identifier },
      interval,
      links: {
        self: selfUrl(ctx),
        tuningSystem: apiUrl(ctx, `/tuning-systems/${id}`),
        intervals: apiUrl(
          ctx,
          `/intervals?noteNames=${toIdName(from.pc.noteName)},${toIdName(to.pc.noteName)}&tuningSystem=${id}&startingNote=${toIdName(p.startingNote)}`,
        ),
      },
    });
  },
});

export const routes = [compareRoute, calculateRoute, intervalsRoute];
