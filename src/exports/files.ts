/**
 * The text of each export file from a scale and where it comes from. Every file opens with the
 * same comment lines: its name, the archive and what it holds, the tuning system with its
 * sources and pages, and the API URL it is served at.
 */
import type { Catalog } from "../theory/catalog.js";
import type { TuningSystem } from "../theory/tuningSystem.js";
import { writeKbm, writeScl, decimalText } from "./scala.js";
import { writeTun, MIDI_NOTES } from "./anamark.js";
import { ascii } from "./ascii.js";
import { attachedCache } from "../theory/memo.js";
import { keyCents, type ExportScale } from "./scales.js";
import { noteAbove, writeAscl } from "./ableton.js";
import { bulkTuningDump, scaleOctaveTuning, type OctaveOffsets } from "./mts.js";

export interface Provenance {
  /** What the file holds, e.g. `maqam rast on rast, ascending`. */
  title: string;
  ts: TuningSystem;
  /** Display name of the starting note. */
  startingNote: string;
  /** Further comment lines (the entity's own sources, what fills a set). */
  notes: readonly string[];
  /** Absolute URL the file is served at. */
  url: string;
  /** The name the file downloads as. */
  fileName: string;
  /** A short name (a MIDI tuning dump keeps 16 characters of it). */
  label: string;
}

type PageReference = { sourceId: string; page: string };

/** `Farmer 1937, p. 249; Land 1885, p. 134-137`: authors, year and page (the titles are at /api/sources/{id}); or a note that the archive lists none. */
export function sourcesText(cat: Catalog, references: readonly PageReference[]): string {
  if (references.length === 0) return "none listed in the archive";
  return sourcesTexts(cat.sources, () => attachedCache())(references, () => listedSources(cat, references));
}

/** The text of a record's references, kept with them (every file of a tuning system repeats its own), per list of sources. */
const sourcesTexts = attachedCache<Catalog["sources"], (references: readonly PageReference[], compute: () => string) => string>();

function listedSources(cat: Catalog, references: readonly PageReference[]): string {
  return references
    .map(({ sourceId, page }) => {
      const source = cat.sources.find((s) => s.id === sourceId);
      const authors = source?.contributors.filter((c) => c.type === "Author").map((c) => c.lastNameEnglish) ?? [];
      return `${authors.length ? `${authors.join(" and ")} ${source!.publicationDateEnglish}` : sourceId}, p. ${page}`;
    })
    .join("; ");
}

function header(cat: Catalog, p: Provenance): string[] {
  return [
    p.fileName,
    `Arabic Maqam Archive: ${p.title}`,
    `Tuning system: ${p.ts.displayName} (${p.ts.id}), starting note ${p.startingNote}`,
    `Tuning system source: ${sourcesText(cat, p.ts.record.sourcePageReferences)}`,
    ...p.notes,
    `From ${p.url}`,
  ].map(ascii);
}

const names = (scale: ExportScale): string => [scale.tonic, ...scale.degrees.map((d) => d.pc)].map((pc) => (pc ? pc.noteName : "(octave)")).join(", ");

const scalaScale = (cat: Catalog, scale: ExportScale, p: Provenance) => ({
  comments: [...header(cat, p), `Degrees from 0: ${ascii(names(scale))}`],
  description: `${p.title} (${p.ts.displayName})`,
  pitches: scale.degrees,
});

export function sclText(cat: Catalog, scale: ExportScale, p: Provenance): string {
  return writeScl(scalaScale(cat, scale, p));
}

/**
 * An Ableton Live tuning: the .scl with Live's directives. Live lays the notes on consecutive
 * keys, so a twelve-key set (whose keys take its degrees in order) and the linear scales sound
 * on the keys of their .kbm: degree 0 at its frequency on its key, the note range starting on
 * key 0. Octave numbers count as MIDI's (the tonic's key 43, G2, is in octave 2).
 */
export function asclText(cat: Catalog, scale: ExportScale, p: Provenance): string {
  const size = scale.degrees.length;
  if (scale.keys !== "linear" && scale.keys.some((degree, key) => degree !== key)) throw new Error(`${p.fileName}: Live lays degrees on consecutive keys only`);
  const reference = { octave: Math.floor(scale.tonicKey / 12) - 1, index: 0, frequency: scale.tonic.frequency };
  return writeAscl({
    scale: scalaScale(cat, scale, p),
    noteNames: [scale.tonic, ...scale.degrees.slice(0, -1).map((d) => d.pc)].map((pc) => pc?.noteName ?? ""),
    reference,
    range: { first: noteAbove(reference, -scale.tonicKey, size), last: noteAbove(reference, MIDI_NOTES - 1 - scale.tonicKey, size) },
    source: `${p.ts.displayName}: ${sourcesText(cat, p.ts.record.sourcePageReferences)}`,
    link: p.url,
  });
}

/**
 * The pitch of every MIDI key, in cents above MIDI note 0 (what the .scl with the .kbm tune):
 * kept with the scale, which a rendering's .tun and MIDI dump share.
 */
const allKeyCents = (scale: ExportScale): readonly number[] => keyCentsOf(scale, () => Array.from({ length: MIDI_NOTES }, (_, key) => keyCents(scale, key)));
const keyCentsOf = attachedCache<ExportScale, readonly number[]>();

/** A MIDI Tuning Standard bulk dump of every key's pitch (keys the format cannot tune are left unchanged). */
export const syxBytes = (_cat: Catalog, scale: ExportScale, p: Provenance): Uint8Array<ArrayBuffer> => bulkTuningDump(p.label, allKeyCents(scale));

/**
 * The offsets from 12-TET of the twelve pitch classes C … B of a scale that repeats every twelve
 * keys at the octave (a 12-pitch-class set): each key of the tonic's octave less 100 × its number.
 */
export function octaveOffsets(scale: ExportScale): OctaveOffsets {
  return Array.from({ length: 12 }, (_, chroma) => {
    const key = scale.tonicKey + ((((chroma - scale.tonicKey) % 12) + 12) % 12);
    return keyCents(scale, key) - 100 * key;
  });
}

/** A set's scale/octave tuning message in its 1- or 2-byte form. */
export const scaleOctaveBytes = (scale: ExportScale, form: 1 | 2): Uint8Array<ArrayBuffer> => scaleOctaveTuning(octaveOffsets(scale), form);

const keyLine = (scale: ExportScale): string => `Degree 0 (${scale.tonic.noteName}) on MIDI key ${scale.tonicKey} at ${decimalText(scale.tonic.frequency)} Hz`;

/** `Keys by note name: rast (C3) 48, dugah (D3) 50, ...`: the key of each degree of a scale mapped by note name. */
export function noteKeysLine(scale: ExportScale): string {
  if (scale.keys === "linear") throw new Error("a linear mapping has no keys by note name");
  const keys = scale.keys;
  const pcs = [scale.tonic, ...scale.degrees.map((d) => d.pc)];
  const placed = pcs.flatMap((pc, degree) => {
    const offset = keys.indexOf(degree);
    return pc && offset >= 0 ? [`${pc.noteName} (${pc.englishName}) ${scale.tonicKey + offset}`] : [];
  });
  return ascii(`Keys by note name: ${placed.join(", ")}`);
}

export function kbmText(cat: Catalog, scale: ExportScale, p: Provenance): string {
  // A linear scale is written as an explicit map (one key per degree): readers built on the
  // AnaMark library take map size 0 for "no mapping" and play 12-TET.
  const mapping = scale.keys === "linear" ? scale.degrees.map((_, degree) => degree) : scale.keys;
  return writeKbm({
    comments: [...header(cat, p), keyLine(scale)],
    size: mapping.length,
    firstKey: scale.range?.first ?? 0,
    lastKey: scale.range?.last ?? MIDI_NOTES - 1,
    middleKey: scale.tonicKey,
    referenceKey: scale.tonicKey,
    referenceFrequency: scale.tonic.frequency,
    octaveDegree: scale.degrees.length,
    mapping,
  });
}

export function tunText(cat: Catalog, scale: ExportScale, p: Provenance): string {
  return writeTun({
    comments: [...header(cat, p), keyLine(scale)],
    name: `${p.title} (${p.ts.displayName})`,
    id: p.fileName.replace(/\.tun$/, ""),
    fileName: p.fileName,
    description: `${p.title}, in ${p.ts.displayName}, from ${p.url}`,
    keywords: ["Arabic maqam", p.ts.id],
    cents: allKeyCents(scale),
  });
}
