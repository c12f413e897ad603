/**
 * What both pitch-class-set endpoints share: the maqām and set filters, set listing and the
 * transpositions that fit no set.
 */
import { apiError, type ErrorAnswer, isAnswer, notFound } from "../errors.js";
import { flag, optionalText } from "../declare.js";
import type { TuningContext } from "../resolve.js";
import { noteRef } from "../shared/format.js";
import { toIdName } from "../../theory/idName.js";
import { noteNameToArabic } from "../../theory/arabic.js";
import { transpositionIdName, type EntityReference, type Maqam } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import type { PitchClass } from "../../theory/pitchClass.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import { foldedCents, type ClassifiedTransposition, type Clash, type Grouping, type Incompatible, type PitchClassSet } from "../../theory/pitchClassSets.js";
import { findStartingNote } from "../../theory/tuningSystem.js";
import { alKindiOf } from "../../theory/twelveToneSets.js";

export const MAQAM_SETS_PATH = "/maqamat/classification/maqam-pitch-class-sets";
export const TWELVE_TONE_PATH = "/maqamat/classification/12-pitch-class-sets";

// ── Filters ────────────────────────────────────────────────────────────────────────────────

export type MaqamFilter = EntityReference<Maqam>;

/** A maqām by idName, numeric id or transposition idName (older spellings too); 404 when unknown. */
export function resolveMaqamFilter(cat: Catalog, maqamId: string): MaqamFilter | ErrorAnswer {
  const found = cat.findMaqam(maqamId);
  if (found) return found;
  return notFound({
    error: `Maqām '${maqamId}' not found`,
    message: `No maqām has the id, idName or transposition idName '${maqamId}'.`,
    hint: "Use /api/maqamat to see all maqām idNames, e.g. maqamId=maqam_rast or maqamId=maqam_rast_al_nawa.",
  });
}

/** The idName the filter names, in the current spelling (echoed in `parameters`). */
export const filterIdName = (f: MaqamFilter): string => (f.tonic === undefined ? f.entity.idName : transpositionIdName(f.entity, f.tonic));

/**
 * Exact matching: a base idName selects that maqām's transpositions (not another maqām whose
 * idName merely starts with it); a transposition idName selects the transposition on that tonic.
 */
export const matchesFilter =
  (f: MaqamFilter) =>
  (e: ClassifiedTransposition): boolean =>
    e.maqam === f.entity && (f.tonic === undefined || e.transposition.tonic === f.tonic);

export const setIdNameOf = (set: PitchClassSet): string => `${set.source.transposition.idName}_set`;

/** A set idName in the current spelling: as given, or read through an older transposition spelling. */
function canonicalSetId(cat: Catalog, setId: string): string {
  const ref = setId.endsWith("_set") ? cat.findMaqam(setId.slice(0, -"_set".length)) : undefined;
  return ref ? `${filterIdName(ref)}_set` : setId;
}

export interface ListedSet {
  set: PitchClassSet;
  /** Members as listed (deduplicated), in output order. */
  members: ClassifiedTransposition[];
}

/** The one set `setId` names (any spelling), or a 404 listing the set idNames. */
export function selectSet(cat: Catalog, listed: ListedSet[], setId: string): { sets: ListedSet[]; setId: string } | ErrorAnswer {
  const canonical = canonicalSetId(cat, setId);
  const sets = listed.filter((s) => setIdNameOf(s.set) === canonical);
  if (sets.length > 0) return { sets, setId: canonical };
  const available = listed.map((s) => setIdNameOf(s.set));
  return notFound({
    error: `Set '${setId}' not found`,
    message: `No pitch-class set has the idName '${setId}' in this tuning system and starting note.`,
    hint: `Set idNames are a source transposition's idName plus '_set', e.g. ${available[0] ?? "maqam_rast_set"}; leave setId out to list every set.`,
    extra: { validOptions: available },
  });
}

/**
 * The listed sets a request keeps: the one `setId` names (when given), then those that list the
 * `maqamId` maqām (when given); a 404 for an unknown maqām, then for an unknown set.
 */
export function selectSets(
  cat: Catalog,
  listed: ListedSet[],
  { maqamId, setId }: { maqamId?: string; setId?: string },
): { sets: ListedSet[]; setId?: string; filter?: MaqamFilter } | ErrorAnswer {
  const filter = maqamId === undefined ? undefined : resolveMaqamFilter(cat, maqamId);
  if (isAnswer(filter)) return filter;
  const selected = setId === undefined ? { sets: listed, setId: undefined } : selectSet(cat, listed, setId);
  if (isAnswer(selected)) return selected;
  return { sets: filter ? selected.sets.filter((s) => s.set.members.some(matchesFilter(filter))) : selected.sets, setId: selected.setId, filter };
}

/**
 * 12-pitch-class sets are completed from al-Kindī's tuning on the same starting note: a 400 when
 * it has no such starting note, listing the starting notes of `ts` it does have.
 */
export function alKindiRefusal(cat: Catalog, ts: TuningSystem, startingNote: string): ErrorAnswer | undefined {
  const alKindi = alKindiOf(cat);
  if (findStartingNote(alKindi, startingNote)) return undefined;
  const alKindiNotes = alKindi.startingNotes.map(toIdName);
  return apiError({
    error: `Starting note '${toIdName(startingNote)}' is not valid for ${alKindi.id} tuning system`,
    message: `12-tone sets are completed from al-Kindī's tuning on the same starting note, which only has: ${alKindiNotes.join(", ")}.`,
    hint: `Use a starting note of ${ts.id} that al-Kindī's tuning also has, or /api/maqamat/classification/maqam-pitch-class-sets.`,
    extra: { validOptions: ts.startingNotes.map(toIdName).filter((n) => alKindiNotes.includes(n)), validAlKindiNotes: alKindiNotes },
  });
}

/** Keeps the first member per identity. */
export function distinctBy(members: readonly ClassifiedTransposition[], identity: (e: ClassifiedTransposition) => string): ClassifiedTransposition[] {
  const seen = new Set<string>();
  return members.filter((e) => {
    const id = identity(e);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export const byMemberCount = (a: ListedSet, b: ListedSet) => b.members.length - a.members.length;

export const memberCount = (sets: readonly ListedSet[]) => sets.reduce((n, s) => n + s.members.length, 0);

// ── Shared output pieces ───────────────────────────────────────────────────────────────────

export const maqamSummary = (m: Maqam) => ({ id: m.id, idName: m.idName, displayName: m.name });

export const tuningSystemSummary = (ts: TuningSystem) => ({ id: ts.id, idName: ts.id, displayName: ts.displayName });

export const tuningParameters = ({ ts, startingNote }: TuningContext) => ({
  tuningSystem: tuningSystemSummary(ts),
  startingNote: noteRef(startingNote, false),
});

export const setDisplayName = (set: PitchClassSet): string => `${set.source.transposition.name} set`;

/** Position above the tonic, octave ignored, to the clash test's six decimals (octave copies agree). */
const centsInOctave = (cell: PitchClass, tonic: PitchClass): number => Number(foldedCents(cell.cents - tonic.cents).toFixed(6)) % 1200;

function clashNotes(clash: Clash, tonic: PitchClass, arabic: boolean) {
  return clash.cells.map((cell) => ({
    noteName: toIdName(cell.noteName),
    displayName: cell.noteName,
    ...(arabic ? { displayNameAr: noteNameToArabic(cell.noteName) } : {}),
    englishName: cell.englishName,
    cents: cell.cents,
    centsInOctave: centsInOctave(cell, tonic),
  }));
}

/** One sentence naming, key by key, the pitch classes that compete for it. */
function clashExplanation({ entry, clashes }: Incompatible): string {
  const tonic = entry.cells[0];
  const described = clashes.map(({ key, cells }) => {
    const names = cells.map((c) => `${c.noteName} (${centsInOctave(c, tonic).toFixed(1)} cents above the tonic)`);
    return `${names.join(" and ")} share the key ${key}`;
  });
  return `${entry.transposition.name} cannot be reduced to one pitch class per 12-tone key: ${described.join("; ")}.`;
}

/** An incompatible transposition in the specification's `shared_key` form. */
export function incompatibleEntry(item: Incompatible, arabic: boolean) {
  const { maqam, transposition: t, cells } = item.entry;
  return {
    maqam: maqamSummary(maqam),
    transposition: { idName: t.idName, displayName: t.name, isTransposed: t.isTransposed, isBaseForm: t.isBaseForm },
    compatible: false as const,
    reason: "shared_key" as const,
    explanation: clashExplanation(item),
    clashes: item.clashes.map((clash) => ({ key: clash.key, notes: clashNotes(clash, cells[0], arabic) })),
  };
}

export const incompatibleList = (grouping: Grouping, arabic: boolean) => ({
  incompatibleMaqamat: grouping.incompatible.map((i) => incompatibleEntry(i, arabic)),
  incompatibleMaqamatCount: grouping.incompatible.length,
});

export const filterEcho = (setId: string | undefined, filter: MaqamFilter | undefined) => ({
  ...(setId !== undefined ? { setId } : {}),
  ...(filter ? { maqamId: filterIdName(filter) } : {}),
});

export const setFilters = {
  setId: optionalText({
    blank: "error",
    description: "Only this set (its idName).",
    example: "maqam_rast_set",
    hint: "Give a set idName such as setId=maqam_rast_set, or leave setId out.",
  }),
  maqamId: optionalText({
    blank: "error",
    description: "Only the sets containing this maqām (idName, or a transposition's idName).",
    example: "maqam_rast",
    hint: "Give a maqām idName such as maqamId=maqam_rast, or leave maqamId out.",
  }),
};

export const includeIncompatible = () => flag("Also list the transpositions that fit no set, with the reason.");
