/**
 * The export files of the archive's objects: one octave of a tuning system, a maqām or jins
 * rendering (ascending, and descending where it differs) and a 12-pitch-class set, each as a
 * Scala scale, a Scala keyboard mapping or an AnaMark tuning. Pure over the catalog: the route
 * resolves the request and gives the URL and download name.
 */
import type { Catalog } from "../theory/catalog.js";
import type { TuningSystem } from "../theory/tuningSystem.js";
import type { Entity } from "../theory/entity.js";
import type { Transposition } from "../theory/transposition.js";
import type { PitchClassSet } from "../theory/pitchClassSets.js";
import { pitchClassesOf } from "../theory/pitchClass.js";
import { alKindiOf } from "../theory/twelveToneSets.js";
import { respellScale } from "../theory/respell.js";
import { kbmText, noteKeysLine, sclText, sourcesText, tunText, type Provenance } from "./files.js";
import { ascendingCells, descendingCells, entityScale, noteNameScale, pitchClassSetScale, tuningSystemScale, type ExportScale } from "./scales.js";

import type { Format } from "./formats.js";

/** Where a file is served and what it downloads as. */
export interface Target {
  url: string;
  fileName: string;
}

export interface TuningContextRef {
  ts: TuningSystem;
  /** Display name of the starting note. */
  startingNote: string;
}

/** The writer of each export format. */
const WRITERS: Record<Format, (cat: Catalog, scale: ExportScale, p: Provenance) => string> = { scl: sclText, kbm: kbmText, tun: tunText };

export function tuningSystemFile(cat: Catalog, { ts, startingNote }: TuningContextRef, format: Format, target: Target): string {
  const title = `tuning system, one octave from ${startingNote}`;
  return WRITERS[format](cat, tuningSystemScale(cat, ts, startingNote), { title, ts, startingNote, notes: [], ...target });
}

/**
 * The files of a maqām or jins rendering: its scale, its descending scale, the linear keyboard
 * mapping both share, and the ascending scale by note name — its keyboard mapping and its AnaMark
 * tuning on those keys.
 */
export type EntityFile = "scl" | "descending.scl" | "kbm" | "names.kbm" | "tun";

export function entityFile(cat: Catalog, e: Entity, t: Transposition, { ts, startingNote }: TuningContextRef, file: EntityFile, target: Target): string {
  const kind = e.kind === "maqam" ? "maqam" : "jins";
  const descending = file === "descending.scl";
  const byName = file === "names.kbm" || file === "tun";
  // The maqām spelling the detail answer shows names the notes, and by note name places the keys
  // (a maqām's sequential letters); pitches are the same either way.
  const spelled = e.kind === "maqam" ? respellScale(t.ascending, t.descending) : undefined;
  const cells = descending ? descendingCells(t) : byName && spelled ? spelled.ascending : ascendingCells(t);
  const tonic = spelled ? spelled.ascending[0] : t.ascending[0];
  const linear = entityScale([tonic, ...cells.slice(1)]);
  const scale = byName ? noteNameScale(linear) : linear;
  // The linear keyboard mapping serves both directions.
  const direction = e.kind === "maqam" && file !== "kbm" ? (descending ? ", descending" : ", ascending") : "";
  const provenance: Provenance = {
    title: `${kind} ${t.name.replace(/^(maq[aā]m|jins)\s+/i, "")} on ${t.tonic}${direction}${byName ? ", keys by note name" : ""}`,
    ts,
    startingNote,
    notes: [`${kind === "maqam" ? "Maqam" : "Jins"} source: ${sourcesText(cat, e.record.sourcePageReferences)}`, ...(byName ? [noteKeysLine(scale)] : [])],
    ...target,
  };
  return ENTITY_WRITERS[file](cat, scale, provenance);
}

const ENTITY_WRITERS: Record<EntityFile, (cat: Catalog, scale: ExportScale, p: Provenance) => string> = {
  scl: sclText,
  "descending.scl": sclText,
  kbm: kbmText,
  "names.kbm": kbmText,
  tun: tunText,
};

export function pitchClassSetFile(
  cat: Catalog,
  set: PitchClassSet,
  setIdName: string,
  { ts, startingNote }: TuningContextRef,
  format: Format,
  target: Target,
): string {
  const scale = pitchClassSetScale(set);
  const kindi = pitchClassesOf(cat, alKindiOf(cat), startingNote);
  const filled = [...set.pitchClasses.values()].some((pc) => kindi.includes(pc));
  const notes = [
    `The set of ${set.source.transposition.name}; ${new Set(set.members.map((m) => m.transposition.name)).size} maqamat and transpositions fit it (GET /api/maqamat/classification/12-pitch-class-sets lists them)`,
    ...(filled ? [`Keys the maqam leaves out come from ${alKindiOf(cat).displayName} (${alKindiOf(cat).id})`] : []),
    "Each pitch class on the key of its 12-tone name nearest its pitch; the mapping repeats every 12 keys",
  ];
  return WRITERS[format](cat, scale, { title: `12-pitch-class set ${setIdName}`, ts, startingNote, notes, ...target });
}
