/**
 * Maqāmāt and ajnās as the theory sees them: a name and note sequences. Identifiers follow the
 * specification: `toIdName(name)` with an `al-` closed up (`maqam_rahat_alarwah`), and a transposition
 * is `<base idName>_al_<tonic idName>`.
 */
import type { MaqamRecord, JinsRecord } from "../data/schemas.js";
import { toIdName } from "./idName.js";
import type { NoteNameIndex } from "./noteName.js";

export interface Maqam {
  kind: "maqam";
  id: string;
  idName: string;
  name: string;
  ascending: string[];
  descending: string[];
  record: MaqamRecord;
}

export interface Jins {
  kind: "jins";
  id: string;
  idName: string;
  /** Trimmed display name. */
  name: string;
  notes: string[];
  record: JinsRecord;
}

export type Entity = Maqam | Jins;

/** idName of a maqām or jins display name: toIdName with `al-` closed up. */
export const entityIdName = (name: string): string => toIdName(name).replace(/al-/g, "al");

/** idName of a transposition: `<base idName>_al_<tonic idName>`. */
export const transpositionIdName = (base: Entity, tonic: string): string => `${base.idName}_al_${toIdName(tonic)}`;

/** Display name of a transposition: `<name> al-<tonic>`. */
export const transpositionDisplayName = (base: Entity, tonic: string): string => `${base.name} al-${tonic}`;

export const maqamOf = (record: MaqamRecord): Maqam => ({
  kind: "maqam",
  id: record.id,
  idName: entityIdName(record.name),
  name: record.name,
  ascending: record.ascendingNoteNames,
  descending: record.descendingNoteNames,
  record,
});

export const jinsOf = (record: JinsRecord): Jins => ({
  kind: "jins",
  id: record.id,
  idName: entityIdName(record.name.trim()),
  name: record.name.trim(),
  notes: record.noteNames,
  record,
});

/** The entity's note names (ascending for a maqām), first is the data tonic. */
export const firstNoteOf = (e: Entity): string => (e.kind === "maqam" ? e.ascending[0] : e.notes[0]);

export interface EntityReference<E extends Entity> {
  entity: E;
  /** Tonic (display note name) named inside the idName, when the idName is a transposition. */
  tonic?: string;
}

/**
 * Looks an entity up by numeric id, idName, or a transposition idName in the current or an older
 * spelling; undefined when nothing matches (the handler answers 404).
 */
export function entityFinder<E extends Entity>(entities: readonly E[], notes: NoteNameIndex): (param: string) => EntityReference<E> | undefined {
  const byKey = new Map<string, E>();
  for (const e of entities) {
    byKey.set(e.id, e);
    byKey.set(e.idName, e);
    // The older spelling with a hyphen after `al` (`maqam_rahat_al-arwah`) is still accepted.
    if (!byKey.has(toIdName(e.name))) byKey.set(toIdName(e.name), e);
  }
  // Each entity's base spellings, worked out once, ranked in the order a transposed idName tries
  // them (longest idName first): a lookup reads the bases its `_al`s end rather than trying every entity.
  const byBase = new Map<string, { e: E; rank: number }[]>();
  let rank = 0;
  for (const e of [...entities].sort((a, b) => b.idName.length - a.idName.length))
    for (const base of new Set([e.idName, toIdName(e.name)])) byBase.set(base, [...(byBase.get(base) ?? []), { e, rank: rank++ }]);
  return (param: string): EntityReference<E> | undefined => {
    const direct = byKey.get(param);
    if (direct) return { entity: direct };
    const starts: { e: E; rank: number; at: number }[] = [];
    for (let at = param.indexOf("_al"); at >= 0; at = param.indexOf("_al", at + 1))
      for (const b of byBase.get(param.slice(0, at)) ?? []) starts.push({ ...b, at });
    for (const { e, at } of starts.sort((a, b) => a.rank - b.rank)) {
      // `_al_<tonic>` (current), `_al-<tonic>` and `_al<tonic>` (older spellings).
      const rest = param.slice(at + 3);
      for (const candidate of [rest.replace(/^[_-]/, ""), rest]) {
        const note = candidate ? notes.findNoteName(candidate) : undefined;
        if (note && note.idName === candidate) return { entity: e, tonic: note.name };
      }
    }
    return undefined;
  };
}
