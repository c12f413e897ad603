/**
 * GET /maqamat/classification/maqam-pitch-class-sets and GET /maqamat/classification/12-pitch-class-sets:
 * maqām transpositions grouped into pitch-class sets (computation brief §11), with the
 * transpositions that cannot be reduced to one pitch class per 12-tone key.
 */
import { z } from "zod";
import { apiError, ok, type ApiResponse } from "./errors.js";
import { defineRoute, type Route } from "./route.js";
import { centsTolerance, flag, includeArabic, optionalNonBlank } from "./params.js";
import { isResponse, resolveTuning, type TuningContext } from "./resolve.js";
import { noteRef } from "./format.js";
import { std } from "../theory/std.js";
import { noteNameToArabic } from "../theory/arabic.js";
import { findMaqam, transpositionIdName, type EntityReference, type Maqam } from "../theory/entity.js";
import type { PitchClass } from "../theory/pitchClass.js";
import { tuningSystems } from "../theory/tuningSystem.js";
import {
  foldedCents,
  maqamSetGrouping,
  twelveToneKey,
  type ClassifiedTransposition,
  type Clash,
  type Grouping,
  type Incompatible,
  type PitchClassSet,
} from "../theory/pitchClassSets.js";

const MAQAM_SETS_PATH = "/maqamat/classification/maqam-pitch-class-sets";

// ── Filters ────────────────────────────────────────────────────────────────────────────────

type MaqamFilter = EntityReference<Maqam>;

/** A maqām by idName, numeric id or transposition idName (older spellings too); 404 when unknown. */
function resolveMaqamFilter(maqamId: string): MaqamFilter | ApiResponse {
  const found = findMaqam(maqamId);
  if (found) return found;
  return apiError({
    status: 404,
    error: `Maqām '${maqamId}' not found`,
    message: `No maqām has the id, idName or transposition idName '${maqamId}'.`,
    hint: "Use /api/maqamat to see all maqām idNames, e.g. maqamId=maqam_rast or maqamId=maqam_rast_al_nawa.",
  });
}

/** The idName the filter names, in the current spelling (echoed in `parameters`). */
const filterIdName = (f: MaqamFilter): string => (f.tonic === undefined ? f.entity.idName : transpositionIdName(f.entity, f.tonic));

/**
 * Exact matching: a base idName selects that maqām's transpositions (not another maqām whose
 * idName merely starts with it); a transposition idName selects the transposition on that tonic.
 */
const matchesFilter = (f: MaqamFilter) => (e: ClassifiedTransposition): boolean =>
  e.maqam === f.entity && (f.tonic === undefined || e.transposition.tonic === f.tonic);

const setIdNameOf = (set: PitchClassSet): string => `${set.source.transposition.idName}_set`;

/** A set idName in the current spelling: as given, or read through an older transposition spelling. */
function canonicalSetId(setId: string): string {
  const ref = setId.endsWith("_set") ? findMaqam(setId.slice(0, -"_set".length)) : undefined;
  return ref ? `${filterIdName(ref)}_set` : setId;
}

function setNotFound(setId: string, available: readonly string[]): ApiResponse {
  return apiError({
    status: 404,
    error: `Set '${setId}' not found`,
    message: `No pitch-class set has the idName '${setId}' in this tuning system and starting note.`,
    hint: `Set idNames are a source transposition's idName plus '_set', e.g. ${available[0] ?? "maqam_rast_set"}; leave setId out to list every set.`,
    extra: { validOptions: [...available] },
  });
}

// ── Shared output pieces ───────────────────────────────────────────────────────────────────

const maqamSummary = (m: Maqam) => ({ id: m.id, idName: m.idName, displayName: m.name });

const tuningParameters = ({ ts, startingNote }: TuningContext) => ({
  tuningSystem: { id: ts.id, idName: ts.id, displayName: ts.displayName },
  startingNote: noteRef(startingNote, false),
});

/** Position above the tonic, octave ignored, to the clash test's six decimals (octave copies agree). */
const centsInOctave = (cell: PitchClass, tonic: PitchClass): number => Number(foldedCents(cell.cents - tonic.cents).toFixed(6)) % 1200;

function clashNotes(clash: Clash, tonic: PitchClass, arabic: boolean) {
  return clash.cells.map((cell) => ({
    noteName: std(cell.noteName),
    displayName: cell.noteName,
    ...(arabic ? { displayNameAr: noteNameToArabic(cell.noteName) } : {}),
    englishName: cell.englishName,
    cents: cell.cents,
    centsInOctave: centsInOctave(cell, tonic),
  }));
}

/** One sentence naming, key by key, the pitch classes that compete for it. */
function clashExplanation({ entry, clashes }: Incompatible): string {
  const tonic = entry.transposition.ascending[0];
  const described = clashes.map(({ key, cells }) => {
    const names = cells.map((c) => `${c.noteName} (${centsInOctave(c, tonic).toFixed(1)} cents above the tonic)`);
    return `${names.join(" and ")} share the key ${key}`;
  });
  return `${entry.transposition.name} cannot be reduced to one pitch class per 12-tone key: ${described.join("; ")}.`;
}

/** An incompatible transposition in the specification's `shared_key` form. */
function incompatibleEntry(item: Incompatible, arabic: boolean) {
  const { maqam, transposition: t } = item.entry;
  return {
    maqam: maqamSummary(maqam),
    transposition: { idName: t.idName, displayName: t.name, isTransposed: t.isTransposed, isBaseForm: t.isBaseForm },
    compatible: false,
    reason: "shared_key",
    explanation: clashExplanation(item),
    clashes: item.clashes.map((clash) => ({ key: clash.key, notes: clashNotes(clash, t.ascending[0], arabic) })),
  };
}

// ── maqam-pitch-class-sets ─────────────────────────────────────────────────────────────────

/** `{englishName, noteName, cents, …}` of a set's pitch class. */
const maqamSetPitchClass = (pc: PitchClass, arabic: boolean) => ({
  englishName: pc.englishName,
  noteName: pc.noteName,
  cents: pc.cents,
  fraction: pc.fraction,
  decimalRatio: pc.decimalRatio,
  frequency: pc.frequency,
  octave: pc.octave,
  ...(arabic ? { noteNameDisplayAr: noteNameToArabic(pc.noteName) } : {}),
});

/**
 * A set's members as listed: one per maqām and tonic key (octave renderings collapse onto their
 * taḥlīl), untransposed first, then by display name.
 */
function distinctMembers(set: PitchClassSet): ClassifiedTransposition[] {
  const seen = new Set<string>();
  const members = set.members.filter((e) => {
    const key = `${e.maqam.idName}:${twelveToneKey(e.transposition.ascending[0])}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return members.sort(
    (a, b) => Number(a.transposition.isTransposed) - Number(b.transposition.isTransposed) || a.transposition.name.localeCompare(b.transposition.name),
  );
}

function maqamSetMember({ transposition: t }: ClassifiedTransposition) {
  const tonic = t.ascending[0];
  return {
    maqamIdName: t.idName,
    maqamDisplayName: t.name,
    isTransposed: t.isTransposed,
    isBaseForm: t.isBaseForm,
    tonic: { ipnReferenceNoteName: twelveToneKey(tonic), noteNameIdName: std(tonic.noteName), noteNameDisplayName: tonic.noteName },
  };
}

interface ListedSet {
  set: PitchClassSet;
  members: ClassifiedTransposition[];
}

/** Sets with at least two distinct members, largest first (stable). */
function listedMaqamSets(grouping: Grouping): ListedSet[] {
  return grouping.sets
    .map((set) => ({ set, members: distinctMembers(set) }))
    .filter((s) => s.members.length >= 2)
    .sort((a, b) => b.members.length - a.members.length);
}

const maqamSetsRoute = defineRoute(
  MAQAM_SETS_PATH,
  z.object({
    tuningSystem: z.string().optional(),
    startingNote: z.string().optional(),
    centsTolerance: centsTolerance(),
    includeIncompatible: flag(),
    includeArabic: includeArabic(),
    includePitchClassData: flag(),
    setId: optionalNonBlank("setId", "Give a set idName such as setId=maqam_rast_set, or leave setId out."),
    maqamId: optionalNonBlank("maqamId", "Give a maqām idName such as maqamId=maqam_rast, or leave maqamId out."),
  }),
  (p) => {
    const tuning = resolveTuning(p.tuningSystem, p.startingNote);
    if (isResponse(tuning)) return tuning;
    const filter = p.maqamId === undefined ? undefined : resolveMaqamFilter(p.maqamId);
    if (isResponse(filter)) return filter;
    const grouping = maqamSetGrouping(tuning.ts, tuning.startingNote, p.centsTolerance);
    let listed = listedMaqamSets(grouping);
    const setId = p.setId === undefined ? undefined : canonicalSetId(p.setId);
    if (setId !== undefined) {
      const chosen = listed.filter((s) => setIdNameOf(s.set) === setId);
      if (chosen.length === 0) return setNotFound(p.setId!, listed.map((s) => setIdNameOf(s.set)));
      listed = chosen;
    }
    if (filter) {
      listed = listed.filter((s) => s.members.some(matchesFilter(filter)));
      if (listed.length === 0)
        return apiError({
          status: 404,
          error: `No sets found containing maqam '${p.maqamId}'`,
          message: `No maqām pitch-class set of '${tuning.ts.id}' on '${std(tuning.startingNote)}' lists '${filterIdName(filter)}'${setId ? ` in '${setId}'` : ""}.`,
          hint: "Leave maqamId out to list every set, or use /api/maqamat/classification/12-pitch-class-sets for the 12-tone grouping.",
        });
    }
    const totalCompatible = listed.reduce((n, s) => n + s.members.length, 0);
    const incompatibleCount = grouping.incompatible.length;
    return ok({
      statistics: {
        totalSets: listed.length,
        totalCompatibleMaqamat: totalCompatible,
        incompatibleMaqamatCount: incompatibleCount,
        totalProcessed: totalCompatible + incompatibleCount,
      },
      sets: listed.map(({ set, members }) => ({
        setIdName: setIdNameOf(set),
        setDisplayName: `${set.source.transposition.name} set`,
        compatibleMaqamatCount: members.length,
        sourceMaqam: maqamSummary(set.source.maqam),
        ...(p.includePitchClassData
          ? {
              pitchClassSet: [...set.pitchClasses.values()].sort((a, b) => a.cents - b.cents).map((pc) => maqamSetPitchClass(pc, p.includeArabic)),
              pitchClassCount: set.pitchClasses.size,
            }
          : {}),
        compatibleMaqamat: members.map(maqamSetMember),
      })),
      parameters: {
        ...tuningParameters(tuning),
        centsTolerance: p.centsTolerance,
        ...(setId !== undefined ? { setId } : {}),
        ...(filter ? { maqamId: filterIdName(filter) } : {}),
      },
      ...(p.includeIncompatible
        ? { incompatibleMaqamat: grouping.incompatible.map((i) => incompatibleEntry(i, p.includeArabic)), incompatibleMaqamatCount: incompatibleCount }
        : {}),
    });
  },
);

export const routes: readonly Route<any>[] = [maqamSetsRoute];

/** Each tuning system × starting note: every set with its pitch classes and the incompatible transpositions. */
export function* prerender(): Generator<string> {
  for (const ts of tuningSystems)
    for (const note of ts.startingNotes)
      yield `${MAQAM_SETS_PATH}?includeIncompatible=true&includePitchClassData=true&startingNote=${std(note)}&tuningSystem=${ts.id}`;
}
