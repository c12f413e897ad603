/** GET /tuning-systems and GET /tuning-systems/{id}/{startingNote}/pitch-classes. */
import { ok, isAnswer } from "./errors.js";
import { defineRoute } from "./route.js";
import { includeArabic, includeSources, oneOf, pitchClassDataType, startingNotePath, tuningSystemIdPath } from "./declare.js";
import { apiUrl } from "./links.js";
import { PITCH_CLASS_DATA_TYPES, noteNameArray, noteRef, pitchClassObject, sourcesOf, tuningSystemEntity } from "./format.js";
import { resolveTuningPath } from "./resolve.js";
import { referenceFrequencyOf, pitchClassesPerOctave } from "../theory/tuningSystem.js";
import type { Catalog } from "../theory/catalog.js";
import { pitchClassesOf } from "../theory/pitchClass.js";
import { toIdName } from "../theory/idName.js";

const listRoute = defineRoute({
  path: "/tuning-systems",
  summary: "Every tuning system with its starting notes and number of pitch classes per octave.",
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

const OCTAVE_OPTIONS = ["all", "0", "1", "2", "3"] as const;

const pitchClassesRoute = defineRoute({
  path: "/tuning-systems/{id}/{startingNote}/pitch-classes",
  summary: "The pitch classes of a tuning system from a starting note, over four octaves.",
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

export const routes = [pitchClassesRoute, listRoute];

/** Every list variant, and each tuning system × starting note's pitch classes per data type and octave. */
export function* prerender(cat: Catalog): Generator<string> {
  for (const q of ["", "?includeArabic=true", "?includeSources=true", "?includeArabic=true&includeSources=true"]) yield `/tuning-systems${q}`;
  for (const ts of cat.tuningSystems)
    for (const note of ts.startingNotes) {
      const base = `/tuning-systems/${ts.id}/${toIdName(note)}/pitch-classes`;
      yield base;
      for (const type of PITCH_CLASS_DATA_TYPES) for (const octave of OCTAVE_OPTIONS) yield `${base}?octave=${octave}&pitchClassDataType=${type}`;
    }
}
