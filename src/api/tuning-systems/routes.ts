/** GET /tuning-systems, GET /tuning-systems/{id} and GET /tuning-systems/{id}/{startingNote}/pitch-classes. */
import { ok, isAnswer } from "../errors.js";
import { defineRoute } from "../route.js";
import { includeArabic, includeSources, oneOf, pitchClassDataType, startingNotePath, tuningSystemIdPath } from "../declare.js";
import { apiUrl } from "../links.js";
import { noteNameArray, noteRef, pitchClassObject, sourcesOf, tuningSystemEntity } from "../shared/format.js";
import { PITCH_CLASS_DATA_TYPES } from "../shared/pitchClassValues.js";
import { resolveTuningPath, tuningSystemNotFound } from "../resolve.js";
import { commentsOf } from "../entities/views.js";
import { referenceFrequencyOf, pitchClassesPerOctave } from "../../theory/tuningSystem.js";
import { pitchClassesOf } from "../../theory/pitchClass.js";
import { toIdName } from "../../theory/idName.js";
import { tuningSystemSchemas } from "./schemas.js";

const listRoute = defineRoute({
  path: "/tuning-systems",
  summary: "Every tuning system with its starting notes and number of pitch classes per octave.",
  response: () => tuningSystemSchemas().tuningSystemsList,
  params: { includeSources: includeSources(), includeArabic: includeArabic() },
  handle: (p, { catalog: cat }) => {
    const data = cat.tuningSystems.map((ts) => ({
      tuningSystem: tuningSystemEntity(ts, p.includeArabic, { year: ts.record.year }),
      // Every note-name set's first name, not deduplicated, as the archive lists them.
      startingNotes: noteNameArray(
        ts.record.noteNames.map((set) => set[0]),
        p.includeArabic,
      ),
      stats: { numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts) },
      ...(p.includeSources ? { sources: sourcesOf(ts) } : {}),
    }));
    return ok({ count: data.length, data });
  },
});

/**
 * One tuning system: its record as stored (pitch classes in their original notation, note-name
 * sets, abjad names, string length, reference frequencies), the pages of the sources it comes
 * from, and its starting notes with links to what each one gives: pitch classes, maqāmāt, ajnās.
 * The target of every `links.tuningSystem` and `/sources/{id}/tuning-systems` `links.detail`.
 */
const detailRoute = defineRoute({
  path: "/tuning-systems/{id}",
  summary: "One tuning system: its record, sources and starting notes, with links to their pitch classes.",
  response: () => tuningSystemSchemas().tuningSystemDetail,
  params: { id: tuningSystemIdPath(), includeArabic: includeArabic() },
  handle: (p, ctx) => {
    const ts = ctx.catalog.findTuningSystem(p.id);
    if (!ts) return tuningSystemNotFound(p.id);
    const { record } = ts;
    const arabic = p.includeArabic;
    const base = `/tuning-systems/${ts.id}`;
    return ok({
      tuningSystem: tuningSystemEntity(ts, arabic, { year: record.year, numberOfPitchClassesSingleOctave: pitchClassesPerOctave(ts) }),
      record: {
        title: record.titleEnglish,
        creator: record.creatorEnglish,
        year: record.year,
        source: record.sourceEnglish,
        ...(arabic ? { titleAr: record.titleArabic, creatorAr: record.creatorArabic, sourceAr: record.sourceArabic } : {}),
        comments: commentsOf(ts),
        originalValueType: ts.valueType,
        pitchClasses: [...record.tuningSystemPitchClasses],
        noteNameSets: record.noteNames.map((set) => noteNameArray(set, arabic)),
        abjadNames: [...record.abjadNames],
        stringLength: record.stringLength,
        defaultReferenceFrequency: record.defaultReferenceFrequency,
      },
      sources: sourcesOf(ts).map((reference) => ({ ...reference, links: { source: apiUrl(ctx, `/sources/${reference.sourceId}`) } })),
      startingNotes: ts.startingNotes.map((note) => {
        const at = `${base}/${toIdName(note)}`;
        return {
          ...noteRef(note, arabic),
          referenceFrequency: referenceFrequencyOf(ts, note),
          links: { pitchClasses: apiUrl(ctx, `${at}/pitch-classes`), maqamat: apiUrl(ctx, `${at}/maqamat`), ajnas: apiUrl(ctx, `${at}/ajnas`) },
        };
      }),
      links: { self: apiUrl(ctx, base), collection: apiUrl(ctx, "/tuning-systems") },
    });
  },
});

export const OCTAVE_OPTIONS = ["all", "0", "1", "2", "3"] as const;

const pitchClassesRoute = defineRoute({
  path: "/tuning-systems/{id}/{startingNote}/pitch-classes",
  summary: "The pitch classes of a tuning system from a starting note, over four octaves.",
  response: () => tuningSystemSchemas().tuningSystemPitchClasses,
  exampleQuery: { octave: "1", pitchClassDataType: "cents" },
  params: {
    id: tuningSystemIdPath(),
    startingNote: startingNotePath(),
    pitchClassDataType: pitchClassDataType(PITCH_CLASS_DATA_TYPES, "all", { blank: "default" }),
    octave: oneOf(OCTAVE_OPTIONS, { fallback: "all", blank: "default", description: "One octave (0 to 3) or `all`.", example: "1" }),
    includeSources: includeSources(),
    includeArabic: includeArabic(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const tuning = resolveTuningPath(cat, p.id, p.startingNote);
    if (isAnswer(tuning)) return tuning;
    const { ts, startingNote } = tuning;
    const octaves = p.octave === "all" ? [0, 1, 2, 3] : [Number(p.octave)];
    const pitchClasses = pitchClassesOf(cat, ts, startingNote)
      .filter((pc) => octaves.includes(pc.octave))
      .map((pc) => pitchClassObject(pc, p.pitchClassDataType, p.includeArabic));
    const n = pitchClassesPerOctave(ts);
    return ok({
      tuningSystem: tuningSystemEntity(ts, p.includeArabic, { year: ts.record.year, numberOfPitchClassesSingleOctave: n }),
      startingNotes: noteNameArray(ts.startingNotes, p.includeArabic),
      selectedStartingNote: { ...noteRef(startingNote, p.includeArabic), idName: toIdName(p.startingNote) },
      stats: {
        // The number of distinct pitch-class indices, as the archive counts them.
        totalPitchClasses: n,
        numberOfPitchClassesSingleOctave: n,
        referenceFrequency: referenceFrequencyOf(ts, startingNote),
        octaves,
      },
      pitchClasses,
      context: { pitchClassDataType: p.pitchClassDataType, octave: p.octave },
      links: {
        self: apiUrl(ctx, `/tuning-systems/${p.id}/${p.startingNote}/pitch-classes`),
        tuningSystem: apiUrl(ctx, `/tuning-systems/${p.id}`),
      },
      ...(p.includeSources ? { sources: sourcesOf(ts) } : {}),
    });
  },
});

export const routes = [pitchClassesRoute, detailRoute, listRoute];
