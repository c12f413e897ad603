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
import { recentMemo } from "../theory/memo.js";
import { asclText, kbmText, noteKeysLine, octaveOffsets, scaleOctaveBytes, sclText, sourcesText, syxBytes, tunText, type Provenance } from "./files.js";
import { fitsScaleOctave } from "./mts.js";
import { ascendingCells, descendingCells, entityScale, noteNameScale, pitchClassSetScale, tuningSystemScale, type ExportScale } from "./scales.js";

import type { Format } from "./formats.js";

/** A file's content: ASCII text, or bytes for a binary format. */
export type FileBody = string | Uint8Array<ArrayBuffer>;

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
const WRITERS: Record<Format, (cat: Catalog, scale: ExportScale, p: Provenance) => FileBody> = {
  scl: sclText,
  kbm: kbmText,
  tun: tunText,
  ascl: asclText,
  syx: syxBytes,
};

export function tuningSystemFile(cat: Catalog, { ts, startingNote }: TuningContextRef, format: Format, target: Target): FileBody {
  const title = `tuning system, one octave from ${startingNote}`;
  const label = `${ts.id} ${startingNote}`;
  return WRITERS[format](cat, tuningSystemScale(cat, ts, startingNote), { title, ts, startingNote, notes: [], label, ...target });
}

/**
 * The files of a maqām or jins rendering: its scale, its descending scale, the linear keyboard
 * mapping both share, the ascending scale by note name (its keyboard mapping and its AnaMark
 * tuning on those keys), the same scales as Ableton Live tunings (on consecutive keys, as Live
 * lays them) and as MIDI tuning dumps (each direction by note name, the keys of the .tun).
 */
export type EntityFile = "scl" | "descending.scl" | "kbm" | "names.kbm" | "tun" | "ascl" | "descending.ascl" | "syx" | "descending.syx";
export const ENTITY_FILES: readonly EntityFile[] = ["scl", "descending.scl", "kbm", "names.kbm", "tun", "ascl", "descending.ascl", "syx", "descending.syx"];
export const isDescendingFile = (file: EntityFile): boolean => file.startsWith("descending.");
/** The export format an entity file is written in (its direction or keying set aside). */
export const formatOfEntityFile = (file: EntityFile): Format => file.replace(/^(descending|names)\./, "") as Format;

/** A direction of a rendering as its files write it: on consecutive keys, and by note name with the line saying its keys. */
interface DirectionScales {
  linear: ExportScale;
  byName: ExportScale;
  keysLine: string;
}

/**
 * The scales of the last renderings written, by the identity of the transposition (a memo's): the
 * nine files of one rendering are asked for one after another and share them. A direction is
 * computed when a file first asks for it (a jins has no descending files).
 */
const renderingScales = recentMemo<Transposition, { ascending?: DirectionScales; descending?: DirectionScales }>(16);

function directionScales(e: Entity, t: Transposition, descending: boolean): DirectionScales {
  // The maqām spelling the detail answer shows names the notes, and by note name places the keys
  // (a maqām's sequential letters); pitches are the same either way.
  const spelled = e.kind === "maqam" ? respellScale(t.ascending, t.descending) : undefined;
  const spelledCells = spelled && (descending ? [...spelled.descending].reverse() : spelled.ascending);
  const cells = descending ? descendingCells(t) : ascendingCells(t);
  const tonic = spelled ? spelled.ascending[0] : t.ascending[0];
  const linear = entityScale([tonic, ...cells.slice(1)]);
  const byName = noteNameScale(spelledCells ? entityScale([tonic, ...spelledCells.slice(1)]) : linear);
  return { linear, byName, keysLine: noteKeysLine(byName) };
}

export function entityFile(cat: Catalog, e: Entity, t: Transposition, { ts, startingNote }: TuningContextRef, file: EntityFile, target: Target): FileBody {
  const kind = e.kind === "maqam" ? "maqam" : "jins";
  const descending = isDescendingFile(file);
  const format = formatOfEntityFile(file);
  // The .tun and the MIDI tuning dumps tune every key: each degree on the key of its note name, as a keyboard player reads it.
  const byName = file === "names.kbm" || format === "tun" || format === "syx";
  const scales = renderingScales(t, () => ({}));
  const direction = descending ? "descending" : "ascending";
  scales[direction] ??= directionScales(e, t, descending);
  const { linear, byName: named, keysLine } = scales[direction];
  // The linear keyboard mapping serves both directions.
  const heading = e.kind === "maqam" && file !== "kbm" ? (descending ? ", descending" : ", ascending") : "";
  const name = t.name.replace(/^(maq[aā]m|jins)\s+/i, "");
  const provenance: Provenance = {
    title: `${kind} ${name} on ${t.tonic}${heading}${byName ? ", keys by note name" : ""}`,
    ts,
    startingNote,
    notes: [`${kind === "maqam" ? "Maqam" : "Jins"} source: ${sourcesText(cat, e.record.sourcePageReferences)}`, ...(byName ? [keysLine] : [])],
    label: `${name}${descending ? " desc" : ""}`,
    ...target,
  };
  return WRITERS[format](cat, byName ? named : linear, provenance);
}

export function pitchClassSetFile(
  cat: Catalog,
  set: PitchClassSet,
  setIdName: string,
  { ts, startingNote }: TuningContextRef,
  format: Format,
  target: Target,
): FileBody {
  const scale = pitchClassSetScale(set);
  const kindi = pitchClassesOf(cat, alKindiOf(cat), startingNote);
  const filled = [...set.pitchClasses.values()].some((pc) => kindi.includes(pc));
  const notes = [
    `The set of ${set.source.transposition.name}; ${new Set(set.members.map((m) => m.transposition.name)).size} maqamat and transpositions fit it (GET /api/maqamat/classification/12-pitch-class-sets lists them)`,
    ...(filled ? [`Keys the maqam leaves out come from ${alKindiOf(cat).displayName} (${alKindiOf(cat).id})`] : []),
    "Each pitch class on the key of its 12-tone name nearest its pitch; the mapping repeats every 12 keys",
  ];
  return WRITERS[format](cat, scale, { title: `12-pitch-class set ${setIdName}`, ts, startingNote, notes, label: setIdName, ...target });
}

/** Whether a set's offsets from 12-TET fit the 1- or 2-byte scale/octave tuning message. */
export const setFitsScaleOctave = (set: PitchClassSet, form: 1 | 2): boolean => fitsScaleOctave(octaveOffsets(pitchClassSetScale(set)), form);

/** A set as a MIDI scale/octave tuning message (1- or 2-byte form), for every channel. */
export const pitchClassSetOctaveFile = (set: PitchClassSet, form: 1 | 2): Uint8Array<ArrayBuffer> => scaleOctaveBytes(pitchClassSetScale(set), form);
