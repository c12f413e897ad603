/** The tuning files a build pre-renders: every tuning system, pre-rendered rendering and 12-pitch-class set. */
import { entityFilePath, hasOctave, OCTAVE_FORMS, realisable, setOctavePath, setPath, setsOf, tuningSystemPath } from "./routes.js";
import { alKindiRefusal, setIdNameOf } from "../classification/views.js";
import { isAnswer } from "../errors.js";
import { ENTITY_FILES, isDescendingFile, setFitsScaleOctave } from "../../exports/render.js";
import { FORMATS } from "../../exports/formats.js";
import { descendingDiffers } from "../../exports/scales.js";
import type { Catalog } from "../../theory/catalog.js";
import type { Entity } from "../../theory/entity.js";
import { DEFAULT_CENTS_TOLERANCE } from "../../theory/defaults.js";
import type { GroupingShape } from "../../theory/pitchClassSets.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import { twelveToneSeed } from "../../theory/twelveToneSets.js";
import { transpositionsOf } from "../../theory/transposition.js";
import { partOf, prerenderedRenderings, type PrerenderOptions, type TuningSystemPart } from "../shared/prerender.js";

/** The files of each tuning system × starting note with pitch classes, one per format. */
export function* tuningSystemFiles(cat: Catalog): Generator<string> {
  for (const ts of cat.tuningSystems)
    for (const startingNote of ts.startingNotes)
      if (hasOctave(cat, { ts, startingNote })) for (const format of FORMATS) yield tuningSystemPath({ ts, startingNote }, format);
}

/** The files of a tuning system's maqām or jins renderings the detail routes pre-render (the descending scale where it differs; the mapping and tuning by note name). */
const renderingFilesPart = (kind: Entity["kind"]): TuningSystemPart<string[]> => ({
  name: `exports/${kind}`,
  list: (cat, ts, options) => {
    const entities: readonly Entity[] = kind === "maqam" ? cat.maqamat : cat.ajnas;
    const files: string[] = [];
    for (const startingNote of ts.startingNotes)
      for (const e of entities) {
        const tuning = { ts, startingNote };
        if (!realisable(cat, e, tuning)) continue;
        for (const t of prerenderedRenderings(cat, transpositionsOf(cat, e, ts, startingNote), options)) {
          const differs = descendingDiffers(t);
          for (const file of ENTITY_FILES) if (differs || !isDescendingFile(file)) files.push(entityFilePath(kind, t.idName, tuning, file));
        }
      }
    return files;
  },
});

export const MAQAM_FILES_PART = renderingFilesPart("maqam");
export const JINS_FILES_PART = renderingFilesPart("jins");

/** The files of each maqām or jins rendering the detail routes pre-render, tuning system by tuning system. */
export function* renderingFiles(cat: Catalog, options: PrerenderOptions, kind: Entity["kind"]): Generator<string> {
  for (const ts of cat.tuningSystems) yield* partOf(cat, ts, options, kind === "maqam" ? MAQAM_FILES_PART : JINS_FILES_PART);
}

/**
 * The 12-tone groupings setFiles reads for a tuning system, as seeds for the catalogs that render
 * its sets and classification (caches.ts): taken from `cat`'s memo right after setFiles listed them.
 */
export const setGroupingSeeds = (cat: Catalog, ts: TuningSystem): [string, GroupingShape][] =>
  ts.startingNotes.filter((note) => alKindiRefusal(cat, ts, note) === undefined).map((note) => twelveToneSeed(cat, ts, note, DEFAULT_CENTS_TOLERANCE));

/**
 * The files of each 12-pitch-class set of a tuning system × starting note al-Kindi's tuning has:
 * one per format, and the scale/octave messages whose form holds the set. The groupings come from
 * `cat` itself: they read the transpositions the maqāmāt's exports have listed, and the catalog
 * keeps no more of them than its twelveToneGroupings bound.
 */
export const SETS_PART: TuningSystemPart<string[]> = {
  name: "exports/sets",
  list: (cat, ts) => {
    const files: string[] = [];
    for (const startingNote of ts.startingNotes) {
      const tuning = { ts, startingNote };
      const sets = setsOf(cat, tuning);
      if (isAnswer(sets)) continue;
      for (const set of sets) {
        for (const format of FORMATS) files.push(setPath(tuning, setIdNameOf(set), format));
        for (const form of OCTAVE_FORMS) if (setFitsScaleOctave(set, form)) files.push(setOctavePath(tuning, setIdNameOf(set), form));
      }
    }
    return files;
  },
};

/** The files of the 12-pitch-class sets (SETS_PART) of every tuning system, or `only` one. */
export function* setFiles(cat: Catalog, options: PrerenderOptions = { full: false }, only?: string): Generator<string> {
  for (const ts of cat.tuningSystems.filter((t) => only === undefined || t.id === only)) yield* partOf(cat, ts, options, SETS_PART);
}

export function* exportRequests(cat: Catalog, options: PrerenderOptions): Generator<string> {
  yield* tuningSystemFiles(cat);
  yield* renderingFiles(cat, options, "maqam");
  yield* renderingFiles(cat, options, "jins");
  yield* setFiles(cat, options);
}
