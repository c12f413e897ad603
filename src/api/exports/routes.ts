/**
 * GET /exports/…: tunings musicians load into instruments — Scala scales (.scl) with their
 * keyboard mappings (.kbm), and AnaMark tunings (.tun) — for one octave of every tuning system,
 * every maqām and jins rendering and every 12-pitch-class set, as plain ASCII text. The files
 * come from src/exports; this module resolves the path (with the usual JSON 4xx) and names the
 * file's canonical URL and download name, which a pre-rendered file shares.
 */
import { textFile, type ErrorAnswer, type FileAnswer, isAnswer, notFound } from "../errors.js";
import { defineRoute, type RequestContext } from "../route.js";
import { pathParam, startingNotePath, tuningSystemIdPath } from "../declare.js";
import { apiUrl } from "../links.js";
import { downloadNameOf } from "../staticPath.js";
import { resolveEntity, resolveTuningPath, type TuningContext } from "../resolve.js";
import { entityPath } from "../entities/views.js";
import { detailRendering } from "../entities/detail.js";
import { entityFile, pitchClassSetFile, tuningSystemFile, type EntityFile } from "../../exports/render.js";
import { EXPORT_FORMATS, FORMATS, type Format } from "../../exports/formats.js";
import { descendingDiffers } from "../../exports/scales.js";
import type { Catalog } from "../../theory/catalog.js";
import type { Entity } from "../../theory/entity.js";
import { isPossibleIn, isPossibleInSomeSet } from "../../theory/realisation.js";
import { twelveToneGrouping } from "../../theory/twelveToneSets.js";
import type { PitchClassSet } from "../../theory/pitchClassSets.js";
import { toIdName } from "../../theory/idName.js";
import { TEXT_FILE_BODY } from "../shared/bodies.js";
import { alKindiRefusal, setIdNameOf } from "../classification/views.js";
import { DEFAULT_CENTS_TOLERANCE } from "../../theory/defaults.js";

const BASE = "/exports";

/** The file at a canonical path below /api: its text with the URL and download name the path gives. */
function fileAt(ctx: RequestContext, path: string, text: (target: { url: string; fileName: string }) => string): FileAnswer {
  const fileName = downloadNameOf(path);
  return textFile(fileName, text({ url: apiUrl(ctx, path), fileName }));
}

// ── Tuning systems ────────────────────────────────────────────────────────────────────────

export const tuningSystemPath = ({ ts, startingNote }: TuningContext, format: Format) => `${BASE}/tuning-systems/${ts.id}/${toIdName(startingNote)}.${format}`;

const tuningSystemRoute = (format: Format) =>
  defineRoute({
    path: `${BASE}/tuning-systems/{id}/{startingNote}.${format}`,
    summary: `One octave of a tuning system from a starting note as a ${EXPORT_FORMATS[format].name}, plain ASCII text.`,
    response: TEXT_FILE_BODY,
    params: { id: tuningSystemIdPath(), startingNote: startingNotePath() },
    handle: (p, ctx) => {
      const tuning = resolveTuningPath(ctx.catalog, p.id, p.startingNote);
      if (isAnswer(tuning)) return tuning;
      return fileAt(ctx, tuningSystemPath(tuning, format), (target) => tuningSystemFile(ctx.catalog, tuning, format, target));
    },
  });

// ── Maqāmāt and ajnās ─────────────────────────────────────────────────────────────────────

type EntityKind = Entity["kind"];
const COLLECTION: Record<EntityKind, string> = { maqam: "maqamat", jins: "ajnas" };
const SUFFIX: Record<EntityFile, string> = { scl: ".scl", kbm: ".kbm", "descending.scl": "-descending.scl", "names.kbm": "-names.kbm", tun: ".tun" };

export const entityFilePath = (kind: EntityKind, idName: string, { ts, startingNote }: TuningContext, file: EntityFile) =>
  `${BASE}/${COLLECTION[kind]}/${idName}/${ts.id}/${toIdName(startingNote)}${SUFFIX[file]}`;

export const realisable = (cat: Catalog, e: Entity, { ts, startingNote }: TuningContext): boolean =>
  e.kind === "maqam" ? isPossibleIn(cat, e, ts, startingNote) : isPossibleInSomeSet(cat, e, ts);

const ENTITY_FILE_NAME: Record<EntityFile, string> = {
  scl: "ascending pitch classes above the tonic as a Scala scale (.scl)",
  "descending.scl": "descending pitch classes (where they differ from the ascending) as a Scala scale (.scl)",
  kbm: "Scala keyboard mapping (.kbm) putting the tonic on its MIDI key",
  "names.kbm":
    "Scala keyboard mapping (.kbm) of the ascending scale by note name: each degree on the key of its name's letter and accidental, twelve keys to the octave",
  tun: "AnaMark tuning (.tun, all 128 MIDI notes) of the ascending scale on the keys of its note names",
};

const entityRoute = (kind: EntityKind, file: EntityFile) =>
  defineRoute({
    path: `${BASE}/${COLLECTION[kind]}/{idName}/{tuningSystem}/{startingNote}${SUFFIX[file]}`,
    summary: `A ${kind === "maqam" ? "maqām" : "jins"} rendering's ${ENTITY_FILE_NAME[file]}, plain ASCII text.`,
    unprocessable: true,
    response: TEXT_FILE_BODY,
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
      if (file === "descending.scl" && !descendingDiffers(t))
        return notFound({
          error: `No separate descending scale for '${t.idName}'`,
          message: `The descending sequence of ${t.name} is its ascending sequence reversed: ${entityFilePath(kind, t.idName, tuning, "scl")} holds both.`,
          hint: `Use /api${entityFilePath(kind, t.idName, tuning, "scl")}.`,
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

const setRoute = (format: Format) =>
  defineRoute({
    path: `${BASE}/pitch-class-sets/{tuningSystem}/{startingNote}/{setIdName}.${format}`,
    summary: `A 12-pitch-class set on a twelve-key keyboard (each pitch class on its key) as a ${EXPORT_FORMATS[format].name}, plain ASCII text.`,
    response: TEXT_FILE_BODY,
    params: {
      tuningSystem: tuningSystemIdPath(),
      startingNote: startingNotePath(),
      setIdName: pathParam({
        description: "Set idName, as /api/maqamat/classification/12-pitch-class-sets lists them.",
        example: "maqam_rast_set",
        slashes: true,
      }),
    },
    handle: (p, ctx) => {
      const cat = ctx.catalog;
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
      const setIdName = setIdNameOf(set);
      return fileAt(ctx, setPath(tuning, setIdName, format), (target) => pitchClassSetFile(cat, set, setIdName, tuning, format, target));
    },
  });

// The descending and note-name routes first: their paths would otherwise read as a starting note ending in `-descending` or `-names`.
export const routes = [
  ...FORMATS.map(tuningSystemRoute),
  ...(["descending.scl", "names.kbm", "scl", "kbm", "tun"] as const).map((file) => entityRoute("maqam", file)),
  ...(["names.kbm", "scl", "kbm", "tun"] as const).map((file) => entityRoute("jins", file)),
  ...FORMATS.map(setRoute),
];
