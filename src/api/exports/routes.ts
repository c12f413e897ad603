/**
 * GET /exports/…: tunings musicians load into instruments — Scala scales (.scl) with their
 * keyboard mappings (.kbm), AnaMark tunings (.tun), Ableton Live tunings (.ascl) and MIDI Tuning
 * Standard dumps (.syx) — for one octave of every tuning system, every maqām and jins rendering
 * and every 12-pitch-class set, as plain ASCII text (bytes for .syx). The files
 * come from src/exports; this module resolves the path (with the usual JSON 4xx) and names the
 * file's canonical URL and download name, which a pre-rendered file shares.
 */
import type { z } from "zod";
import { fileAnswer, type ErrorAnswer, type FileAnswer, isAnswer, notFound } from "../errors.js";
import { defineRoute, type RequestContext } from "../route.js";
import { pathParam, startingNotePath, tuningSystemIdPath } from "../declare.js";
import { apiUrl } from "../links.js";
import { downloadNameOf } from "../staticPath.js";
import { resolveEntity, resolveTuningPath, type TuningContext } from "../resolve.js";
import { entityPath } from "../entities/views.js";
import { detailRendering } from "../entities/detail.js";
import {
  entityFile,
  formatOfEntityFile,
  isDescendingFile,
  pitchClassSetFile,
  pitchClassSetOctaveFile,
  setFitsScaleOctave,
  tuningSystemFile,
  type EntityFile,
  type FileBody,
} from "../../exports/render.js";
import { EXPORT_FORMATS, FORMATS, isBinaryFormat, type Format } from "../../exports/formats.js";
import { descendingDiffers } from "../../exports/scales.js";
import type { Catalog } from "../../theory/catalog.js";
import type { Entity } from "../../theory/entity.js";
import { isPossibleIn, isPossibleInSomeSet } from "../../theory/realisation.js";
import { twelveToneGrouping } from "../../theory/twelveToneSets.js";
import { pitchClassesOf } from "../../theory/pitchClass.js";
import type { PitchClassSet } from "../../theory/pitchClassSets.js";
import { toIdName } from "../../theory/idName.js";
import { BINARY_FILE_BODY, TEXT_FILE_BODY } from "../shared/bodies.js";
import { alKindiRefusal, setIdNameOf } from "../classification/views.js";
import { DEFAULT_CENTS_TOLERANCE } from "../../theory/defaults.js";

const BASE = "/exports";

/** The file at a canonical path below /api: its text with the URL and download name the path gives. */
function fileAt(ctx: RequestContext, path: string, body: (target: { url: string; fileName: string }) => FileBody): FileAnswer {
  const fileName = downloadNameOf(path);
  return fileAnswer(fileName, body({ url: apiUrl(ctx, path), fileName }));
}

/** The schema of a format's file and how the summaries call its body. */
const bodyOf = (format: Format): z.ZodType<FileBody> => (isBinaryFormat(format) ? BINARY_FILE_BODY : TEXT_FILE_BODY);
const kindOf = (format: Format) => (isBinaryFormat(format) ? "bytes of MIDI system exclusive" : "plain ASCII text");

// ── Tuning systems ────────────────────────────────────────────────────────────────────────

/** A tuning system of unknown format has no pitch classes (algorithms.md §1.1.1), so no octave to export. */
export const hasOctave = (cat: Catalog, { ts, startingNote }: TuningContext): boolean => pitchClassesOf(cat, ts, startingNote).length > 0;

export const tuningSystemPath = ({ ts, startingNote }: TuningContext, format: Format) => `${BASE}/tuning-systems/${ts.id}/${toIdName(startingNote)}.${format}`;

const tuningSystemRoute = (format: Format) =>
  defineRoute({
    path: `${BASE}/tuning-systems/{id}/{startingNote}.${format}`,
    summary: `One octave of a tuning system from a starting note as a ${EXPORT_FORMATS[format].name}, ${kindOf(format)}.`,
    response: () => bodyOf(format),
    params: { id: tuningSystemIdPath(), startingNote: startingNotePath() },
    handle: (p, ctx) => {
      const tuning = resolveTuningPath(ctx.catalog, p.id, p.startingNote);
      if (isAnswer(tuning)) return tuning;
      if (!hasOctave(ctx.catalog, tuning))
        return notFound({
          error: `No pitch classes in '${tuning.ts.id}'`,
          message: `The values of ${tuning.ts.id} are of no format the archive reads (ratios, cents or decimal ratios rising, string lengths falling), so it has no pitch classes and no octave to export.`,
          hint: `/api/tuning-systems/${tuning.ts.id} shows its values; the other tuning systems are listed by /api/tuning-systems.`,
        });
      return fileAt(ctx, tuningSystemPath(tuning, format), (target) => tuningSystemFile(ctx.catalog, tuning, format, target));
    },
  });

// ── Maqāmāt and ajnās ─────────────────────────────────────────────────────────────────────

type EntityKind = Entity["kind"];
const COLLECTION: Record<EntityKind, string> = { maqam: "maqamat", jins: "ajnas" };
const SUFFIX: Record<EntityFile, string> = {
  scl: ".scl",
  kbm: ".kbm",
  "descending.scl": "-descending.scl",
  "names.kbm": "-names.kbm",
  tun: ".tun",
  ascl: ".ascl",
  "descending.ascl": "-descending.ascl",
  syx: ".syx",
  "descending.syx": "-descending.syx",
};

export const entityFilePath = (kind: EntityKind, idName: string, { ts, startingNote }: TuningContext, file: EntityFile) =>
  `${BASE}/${COLLECTION[kind]}/${idName}/${ts.id}/${toIdName(startingNote)}${SUFFIX[file]}`;

export const realisable = (cat: Catalog, e: Entity, { ts, startingNote }: TuningContext): boolean =>
  e.kind === "maqam" ? isPossibleIn(cat, e, ts, startingNote) : isPossibleInSomeSet(cat, e, ts);

const ENTITY_FILE_NAME: Record<EntityFile, string> = {
  scl: "ascending pitch classes above the tonic as a Scala scale (.scl)",
  "descending.scl": "descending pitch classes (where they differ from the ascending) as a Scala scale (.scl)",
  kbm: "Scala keyboard mapping (.kbm) putting the tonic on its MIDI key",
  ascl: "ascending pitch classes as an Ableton Live tuning (.ascl), the tonic on its MIDI key",
  "descending.ascl": "descending pitch classes (where they differ) as an Ableton Live tuning (.ascl)",
  syx: "ascending scale as a MIDI Tuning Standard bulk dump (.syx, 408 bytes), each degree on the key of its note name as in the .tun",
  "descending.syx": "descending scale (where it differs) as a MIDI Tuning Standard bulk dump (.syx, 408 bytes), each degree on the key of its note name",
  "names.kbm":
    "Scala keyboard mapping (.kbm) of the ascending scale by note name: each degree on the key of its name's letter and accidental, twelve keys to the octave",
  tun: "AnaMark tuning (.tun, all 128 MIDI notes) of the ascending scale on the keys of its note names",
};

const entityRoute = (kind: EntityKind, file: EntityFile) =>
  defineRoute({
    path: `${BASE}/${COLLECTION[kind]}/{idName}/{tuningSystem}/{startingNote}${SUFFIX[file]}`,
    summary: `A ${kind === "maqam" ? "maqām" : "jins"} rendering's ${ENTITY_FILE_NAME[file]}, ${kindOf(formatOfEntityFile(file))}.`,
    unprocessable: true,
    response: () => bodyOf(formatOfEntityFile(file)),
    params: { idName: entityPath(kind), tuningSystem: tuningSystemIdPath(), startingNote: startingNotePath() },
    handle: (p, ctx) => {
      const cat = ctx.catalog;
      const ref = resolveEntity(cat, kind, p.idName);
      if (isAnswer(ref)) return ref;
      const tuning = resolveTuningPath(cat, p.tuningSystem, p.startingNote);
      if (isAnswer(tuning)) return tuning;
      const tonic = ref.tonic === undefined ? undefined : toIdName(ref.tonic);
      const rendering = detailRendering(cat, ref.entity, tuning, realisable(cat, ref.entity, tuning), tonic, 5, false);
      if (isAnswer(rendering)) return rendering;
      const { t } = rendering;
      const ascending = formatOfEntityFile(file) as EntityFile;
      if (isDescendingFile(file) && !descendingDiffers(t))
        return notFound({
          error: `No separate descending scale for '${t.idName}'`,
          message: `The descending sequence of ${t.name} is its ascending sequence reversed: ${entityFilePath(kind, t.idName, tuning, ascending)} holds both.`,
          hint: `Use /api${entityFilePath(kind, t.idName, tuning, ascending)}.`,
        });
      return fileAt(ctx, entityFilePath(kind, t.idName, tuning, file), (target) => entityFile(cat, ref.entity, t, tuning, file, target));
    },
  });

// ── 12-pitch-class sets ───────────────────────────────────────────────────────────────────

export const setPath = ({ ts, startingNote }: TuningContext, setIdName: string, format: Format) =>
  `${BASE}/pitch-class-sets/${ts.id}/${toIdName(startingNote)}/${setIdName}.${format}`;

/** The sets of a tuning context at the default tolerance; a 400 when al-Kindī's tuning, which completes them, lacks the starting note. */
export function setsOf(cat: Catalog, tuning: TuningContext): PitchClassSet[] | ErrorAnswer {
  return alKindiRefusal(cat, tuning.ts, tuning.startingNote) ?? twelveToneGrouping(cat, tuning.ts, tuning.startingNote, DEFAULT_CENTS_TOLERANCE).sets;
}

/** The scale/octave tuning messages of a set: 1-byte and 2-byte form. */
export type OctaveForm = 1 | 2;
export const OCTAVE_FORMS: readonly OctaveForm[] = [1, 2];

export const setOctavePath = ({ ts, startingNote }: TuningContext, setIdName: string, form: OctaveForm) =>
  `${BASE}/pitch-class-sets/${ts.id}/${toIdName(startingNote)}/${setIdName}-octave-${form}-byte.syx`;

const setParams = {
  tuningSystem: tuningSystemIdPath(),
  startingNote: startingNotePath(),
  setIdName: pathParam({
    description: "Set idName, as /api/maqamat/classification/12-pitch-class-sets lists them.",
    example: "maqam_rast_set",
    slashes: true,
  }),
};

/** The set a request names, with its tuning context, or the 4xx. */
function resolveSet(cat: Catalog, p: { tuningSystem: string; startingNote: string; setIdName: string }) {
  const tuning = resolveTuningPath(cat, p.tuningSystem, p.startingNote);
  if (isAnswer(tuning)) return tuning;
  const sets = setsOf(cat, tuning);
  if (isAnswer(sets)) return sets;
  const set = sets.find((s) => setIdNameOf(s) === toIdName(p.setIdName));
  if (!set)
    return notFound({
      error: `Pitch-class set '${p.setIdName}' not found`,
      message: `No 12-pitch-class set has the idName '${p.setIdName}' in ${tuning.ts.id} from ${toIdName(tuning.startingNote)}.`,
      hint: "Set idNames are listed by /api/maqamat/classification/12-pitch-class-sets for the same tuning system and starting note.",
      extra: { validOptions: sets.map(setIdNameOf) },
    });
  return { tuning, set, setIdName: setIdNameOf(set) };
}

const setRoute = (format: Format) =>
  defineRoute({
    path: `${BASE}/pitch-class-sets/{tuningSystem}/{startingNote}/{setIdName}.${format}`,
    summary: `A 12-pitch-class set on a twelve-key keyboard (each pitch class on its key) as a ${EXPORT_FORMATS[format].name}, ${kindOf(format)}.`,
    response: () => bodyOf(format),
    params: setParams,
    handle: (p, ctx) => {
      const found = resolveSet(ctx.catalog, p);
      if (isAnswer(found)) return found;
      const { tuning, set, setIdName } = found;
      return fileAt(ctx, setPath(tuning, setIdName, format), (target) => pitchClassSetFile(ctx.catalog, set, setIdName, tuning, format, target));
    },
  });

const setOctaveRoute = (form: OctaveForm) =>
  defineRoute({
    path: `${BASE}/pitch-class-sets/{tuningSystem}/{startingNote}/{setIdName}-octave-${form}-byte.syx`,
    summary: `A 12-pitch-class set as a MIDI Tuning Standard scale/octave tuning message (${form}-byte form: each pitch class's offset from equal temperament ${form === 1 ? "in whole cents, ±64" : "in steps of 0.0122 cents, ±100"}, every channel), bytes of MIDI system exclusive.`,
    response: () => BINARY_FILE_BODY,
    params: setParams,
    handle: (p, ctx) => {
      const found = resolveSet(ctx.catalog, p);
      if (isAnswer(found)) return found;
      const { tuning, set, setIdName } = found;
      if (!setFitsScaleOctave(set, form))
        return notFound({
          error: `No ${form}-byte scale/octave tuning for '${setIdName}'`,
          message: `A pitch class of ${setIdName} lies farther from its equal-tempered key than the ${form}-byte form holds (${form === 1 ? "-64 to +63" : "-100 to +100"} cents).`,
          hint: `Use /api${form === 1 ? setOctavePath(tuning, setIdName, 2) : setPath(tuning, setIdName, "syx")}.`,
        });
      return fileAt(ctx, setOctavePath(tuning, setIdName, form), () => pitchClassSetOctaveFile(set, form));
    },
  });

// Descending, note-name and scale/octave routes first: their paths would otherwise read as a starting
// note ending in `-descending` or `-names`, or a set idName ending in `-octave-1-byte`.
const ENTITY_ROUTE_ORDER: readonly EntityFile[] = ["descending.scl", "descending.ascl", "descending.syx", "names.kbm", "scl", "kbm", "tun", "ascl", "syx"];
export const routes = [
  ...FORMATS.map(tuningSystemRoute),
  ...ENTITY_ROUTE_ORDER.map((file) => entityRoute("maqam", file)),
  ...ENTITY_ROUTE_ORDER.filter((file) => !isDescendingFile(file)).map((file) => entityRoute("jins", file)),
  ...OCTAVE_FORMS.map(setOctaveRoute),
  ...FORMATS.map(setRoute),
];
