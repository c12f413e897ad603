/**
 * GET /maqamat/classification/maqam-pitch-class-sets: maqām transpositions grouped into sets with
 * the same pitch classes (docs/algorithms.md §11).
 */
import { ok, isAnswer, notFound } from "../errors.js";
import { defineRoute } from "../route.js";
import { centsTolerance, flag, includeArabic, tuningContextParams } from "../declare.js";
import { resolveTuning } from "../resolve.js";
import { toIdName } from "../../theory/idName.js";
import { compareNames } from "../../theory/collation.js";
import { noteNameToArabic } from "../../theory/arabic.js";
import type { PitchClass } from "../../theory/pitchClass.js";
import { maqamSetGrouping, twelveToneKey, type ClassifiedTransposition, type Grouping, type PitchClassSet } from "../../theory/pitchClassSets.js";
import {
  type ListedSet,
  MAQAM_SETS_PATH,
  byMemberCount,
  distinctBy,
  filterEcho,
  filterIdName,
  includeIncompatible,
  incompatibleList,
  maqamSummary,
  memberCount,
  setDisplayName,
  setFilters,
  setIdNameOf,
  tuningParameters,
  selectSets,
} from "./views.js";
import { classificationSchemas } from "./schemas.js";

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
const maqamSetMembers = (set: PitchClassSet): ClassifiedTransposition[] =>
  distinctBy(set.members, (e) => `${e.maqam.idName}:${twelveToneKey(e.cells[0])}`).sort(
    (a, b) => Number(a.transposition.isTransposed) - Number(b.transposition.isTransposed) || compareNames(a.transposition.name, b.transposition.name),
  );

function maqamSetMember({ transposition: t, cells }: ClassifiedTransposition) {
  const tonic = cells[0];
  return {
    maqamIdName: t.idName,
    maqamDisplayName: t.name,
    isTransposed: t.isTransposed,
    isBaseForm: t.isBaseForm,
    tonic: { ipnReferenceNoteName: twelveToneKey(tonic), noteNameIdName: toIdName(tonic.noteName), noteNameDisplayName: tonic.noteName },
  };
}

/** Sets with at least two distinct members, largest first (stable). */
const listedMaqamSets = (grouping: Grouping): ListedSet[] =>
  grouping.sets
    .map((set) => ({ set, members: maqamSetMembers(set) }))
    .filter((s) => s.members.length >= 2)
    .sort(byMemberCount);

export const maqamSetsRoute = defineRoute({
  path: MAQAM_SETS_PATH,
  summary: "Maqām transpositions grouped into sets that share the same pitch classes, in one tuning system and starting note.",
  response: () => classificationSchemas().maqamPitchClassSets,
  params: {
    ...tuningContextParams(),
    centsTolerance: centsTolerance(),
    includeIncompatible: includeIncompatible(),
    includeArabic: includeArabic(),
    includePitchClassData: flag("Include each set's pitch classes with their cents."),
    ...setFilters,
  },
  handle: (p, { catalog: cat }) => {
    const tuning = resolveTuning(cat, p.tuningSystem, p.startingNote);
    if (isAnswer(tuning)) return tuning;
    const grouping = maqamSetGrouping(cat, tuning.ts, tuning.startingNote, p.centsTolerance);
    const selected = selectSets(cat, listedMaqamSets(grouping), p);
    if (isAnswer(selected)) return selected;
    const { sets, filter } = selected;
    if (filter && sets.length === 0)
      return notFound({
        error: `No sets found containing maqam '${p.maqamId}'`,
        message: `No maqām pitch-class set of '${tuning.ts.id}' on '${toIdName(tuning.startingNote)}' lists '${filterIdName(filter)}'${selected.setId ? ` in '${selected.setId}'` : ""}.`,
        hint: "Leave maqamId out to list every set, or try /api/maqamat/classification/12-pitch-class-sets, whose sets are completed to twelve keys.",
      });
    const totalCompatible = memberCount(sets);
    const incompatibleCount = grouping.incompatible.length;
    return ok({
      statistics: {
        totalSets: sets.length,
        totalCompatibleMaqamat: totalCompatible,
        incompatibleMaqamatCount: incompatibleCount,
        totalProcessed: totalCompatible + incompatibleCount,
      },
      sets: sets.map(({ set, members }) => ({
        setIdName: setIdNameOf(set),
        setDisplayName: setDisplayName(set),
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
      parameters: { ...tuningParameters(tuning), centsTolerance: p.centsTolerance, ...filterEcho(selected.setId, filter) },
      ...(p.includeIncompatible ? incompatibleList(grouping, p.includeArabic) : {}),
    });
  },
});

// ── 12-pitch-class-sets ────────────────────────────────────────────────────────────────────
