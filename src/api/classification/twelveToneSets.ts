/**
 * GET /maqamat/classification/12-pitch-class-sets: maqām transpositions grouped into sets of one
 * pitch class per 12-tone key, on al-Kindī's tuning.
 */
import { apiError, ok, type ErrorAnswer, isAnswer } from "../errors.js";
import { defineRoute } from "../route.js";
import { centsTolerance, flag, includeArabic, optionalPitchClassDataType, optionalText } from "../declare.js";
import type { TuningContext } from "../resolve.js";
import { noteRef } from "../shared/format.js";
import { PITCH_CLASS_DATA_TYPES, PITCH_CLASS_VALUES, num, singleField, type SinglePitchClassDataType } from "../shared/pitchClassValues.js";
import { toIdName } from "../../theory/idName.js";
import { noteNameToArabic } from "../../theory/arabic.js";
import type { Catalog } from "../../theory/catalog.js";
import type { PitchClass } from "../../theory/pitchClass.js";
import { findStartingNote } from "../../theory/tuningSystem.js";
import type { ClassifiedTransposition, Grouping, PitchClassSet } from "../../theory/pitchClassSets.js";
import { alKindiOf, setFromC, twelveToneGrouping } from "../../theory/twelveToneSets.js";
import {
  type ListedSet,
  type MaqamFilter,
  TWELVE_TONE_PATH,
  byMemberCount,
  distinctBy,
  filterEcho,
  includeIncompatible,
  incompatibleEntry,
  incompatibleList,
  maqamSummary,
  matchesFilter,
  memberCount,
  setDisplayName,
  setFilters,
  setIdNameOf,
  tuningParameters,
  tuningSystemSummary,
  selectSets,
  alKindiRefusal,
} from "./views.js";
import { classificationSchemas } from "./schemas.js";

/** The tuning the 12-tone sets default to when none is named. */
const DEFAULT_TUNING = { tuningSystem: "cairocongresstuningcommittee_1929", startingNote: "yegah" } as const;

const TWELVE_TONE_DATA_TYPES = [...PITCH_CLASS_DATA_TYPES, "relativeCents"] as const;
type TwelveToneDataType = (typeof TWELVE_TONE_DATA_TYPES)[number];

/** Tuning system (exact id; 400 when unknown, as the archive answers here), starting note, and al-Kindī's tuning on it. */
function resolveTwelveToneTuning(cat: Catalog, tuningSystem: string, startingNote: string): TuningContext | ErrorAnswer {
  const ts = cat.findTuningSystem(tuningSystem);
  if (!ts)
    return apiError({
      error: `Tuning system '${tuningSystem}' not found`,
      message: `No tuning system has the id '${tuningSystem}'.`,
      hint: `Use one of the ids in validOptions, e.g. tuningSystem=${DEFAULT_TUNING.tuningSystem}.`,
      extra: { availableTuningSystems: cat.tuningSystems.map(tuningSystemSummary), validOptions: cat.tuningSystems.map((t) => t.id) },
    });
  const validOptions = ts.startingNotes.map(toIdName);
  const resolved = findStartingNote(ts, startingNote);
  if (!resolved)
    return apiError({
      error: `Starting note '${startingNote}' is not valid for tuning system '${ts.id}'`,
      message: `'${startingNote}' is not a starting note of tuning system '${ts.id}'.`,
      hint: `Use one of: ${validOptions.join(", ")}.`,
      extra: { validOptions },
    });
  const refused = alKindiRefusal(cat, ts, resolved);
  if (refused) return refused;
  return { ts, startingNote: resolved };
}

/** A set's keys in output order: from the tonic upwards, or from C. */
const orderedKeys = (cat: Catalog, set: PitchClassSet, { ts, startingNote }: TuningContext, fromC: boolean): [string, PitchClass][] =>
  fromC ? setFromC(cat, set.pitchClasses, ts, startingNote) : [...set.pitchClasses];

/**
 * The field each single data type shows: the table's (pitchClassValues.ts), but the deviation and
 * reference note under their types' names, stringLength in its string form, as the 12-tone sets
 * print it, and a missing abjad name null.
 */
const TWELVE_TONE_FIELD = {
  stringLength: (pc: PitchClass) => ({ stringLength: String(pc.stringLength) }),
  abjadName: (pc: PitchClass) => ({ abjadName: pc.abjadName || null }),
  midiNoteDeviation: (pc: PitchClass) => ({ midiNoteDeviation: pc.midiNotePlusCentsDeviation }),
  referenceNoteName: (pc: PitchClass) => ({ referenceNoteName: pc.ipnReferenceNoteName }),
} satisfies Partial<Record<SinglePitchClassDataType, (pc: PitchClass) => object>>;
const hasTwelveToneField = (type: string): type is keyof typeof TWELVE_TONE_FIELD => Object.hasOwn(TWELVE_TONE_FIELD, type);

/** Every field of `pitchClassDataType=all`; a missing abjad name (a tuning without them) is left out. */
const allDataFields = (pc: PitchClass, relativeCents: number) => ({
  cents: pc.cents,
  relativeCents,
  fraction: pc.fraction,
  decimalRatio: pc.decimalRatio,
  frequency: pc.frequency,
  octave: pc.octave,
  englishName: pc.englishName,
  solfege: pc.solfege,
  ...(pc.abjadName === "" ? {} : { abjadName: pc.abjadName }),
  stringLength: String(pc.stringLength),
  fretDivision: PITCH_CLASS_VALUES.fretDivision.value(pc),
  midiNoteDecimal: pc.midiNoteDecimal,
  midiNoteDeviation: pc.midiNotePlusCentsDeviation,
  centsDeviation: num(pc.centsDeviation),
  referenceNoteName: pc.ipnReferenceNoteName,
});

/** `{ipnReferenceNoteName, noteName, …}` of a 12-tone set's pitch class for a data type (default: relativeCents and octave). */
function twelveTonePitchClass(key: string, pc: PitchClass, relativeCents: number, type: TwelveToneDataType | undefined, arabic: boolean) {
  const head = {
    ipnReferenceNoteName: key,
    noteName: pc.noteName,
    ...(arabic ? { noteNameDisplayAr: noteNameToArabic(pc.noteName) } : {}),
  };
  if (type === undefined) return { ...head, relativeCents, octave: pc.octave };
  if (type === "relativeCents") return { ...head, relativeCents };
  if (type === "all") return { ...head, ...allDataFields(pc, relativeCents) };
  return { ...head, ...(hasTwelveToneField(type) ? TWELVE_TONE_FIELD[type](pc) : singleField(type, pc)) };
}

/**
 * Cents above the first listed pitch class: the tonic, or read from C the C entry (§11.4: cents
 * − cents of the first entry); read from C, a pitch class below it counts an octave up.
 */
function relativeCentsOf(pc: PitchClass, first: PitchClass, fromC: boolean): number {
  const relative = pc.cents - first.cents;
  return fromC && relative < 0 ? relative + 1200 : relative;
}

/**
 * The tonic as the tuning system spells it (not folded to a sharp), and its index among the
 * set's keys: a flat-spelled tonic (`Bb`) finds no sharp key (`A#`) and gets -1 (QUIRK Q20).
 */
const tonicReference = (e: ClassifiedTransposition): string => e.transposition.ascending[0].ipnReferenceNoteName;

function twelveToneMember(e: ClassifiedTransposition, keys: readonly string[]) {
  const { transposition: t } = e;
  const tonic = t.ascending[0];
  return {
    maqamIdName: t.idName,
    maqamDisplayName: t.name,
    baseMaqamIdName: e.maqam.idName,
    isTransposed: t.isTransposed,
    tonic: {
      ipnReferenceNoteName: tonicReference(e),
      noteNameIdName: toIdName(tonic.noteName),
      noteNameDisplayName: tonic.noteName,
      positionInSet: keys.indexOf(tonicReference(e)),
    },
  };
}

/** Every set, members one per display name and tonic, largest set first (stable). */
const listedTwelveToneSets = (grouping: Grouping): ListedSet[] =>
  grouping.sets.map((set) => ({ set, members: distinctBy(set.members, (e) => `${e.transposition.name}:${tonicReference(e)}`) })).sort(byMemberCount);

interface TwelveToneOptions {
  type: TwelveToneDataType | undefined;
  fromC: boolean;
  arabic: boolean;
}

function twelveToneSet(cat: Catalog, { set, members }: ListedSet, tuning: TuningContext, o: TwelveToneOptions) {
  const order = orderedKeys(cat, set, tuning, o.fromC);
  const keys = order.map(([key]) => key);
  const first = order[0][1];
  const listed = members
    .map((e) => twelveToneMember(e, keys))
    // Untransposed first, then by the tonic's place in the set (a tonic outside it first, at -1).
    .sort((a, b) => Number(a.isTransposed) - Number(b.isTransposed) || a.tonic.positionInSet - b.tonic.positionInSet);
  return {
    setIdName: setIdNameOf(set),
    setDisplayName: setDisplayName(set),
    sourceMaqam: maqamSummary(set.source.maqam),
    pitchClassSet: order.map(([key, pc]) => twelveTonePitchClass(key, pc, relativeCentsOf(pc, first, o.fromC), o.type, o.arabic)),
    compatibleMaqamat: listed,
    compatibleMaqamatCount: listed.length,
  };
}

/** Why a maqām named by maqamId is in none of the returned sets. */
function notInAnySet(filter: MaqamFilter, grouping: Grouping, setId: string | undefined): string {
  const name = filter.tonic === undefined ? filter.entity.name : `${filter.entity.name} al-${filter.tonic}`;
  const matches = matchesFilter(filter);
  if (grouping.sets.some((s) => s.members.some(matches))) return `${name} fits other 12-pitch-class sets, but not ${setId}.`;
  if (grouping.incompatible.some((i) => matches(i.entry)))
    return `${name} fits no 12-pitch-class set: each of its transpositions has different pitch classes on one 12-tone key.`;
  return `${name} cannot be built in this tuning system and starting note, so it has no 12-pitch-class set.`;
}

export const twelveToneRoute = defineRoute({
  path: TWELVE_TONE_PATH,
  summary: "Maqām transpositions grouped into 12-pitch-class sets (one pitch class per 12-tone key), for keyboards and MIDI.",
  response: () => classificationSchemas().twelvePitchClassSets,
  exampleQuery: { startingNote: "yegah", tuningSystem: "ibnsina_1037" },
  params: {
    tuningSystem: optionalText({
      blank: "absent",
      default: DEFAULT_TUNING.tuningSystem,
      description: "Tuning-system id of the maqām pitches.",
      example: "ibnsina_1037",
    }),
    startingNote: optionalText({ blank: "absent", default: DEFAULT_TUNING.startingNote, description: "Starting note of the tuning system.", example: "yegah" }),
    centsTolerance: centsTolerance(),
    includeIncompatible: includeIncompatible(),
    includeArabic: includeArabic(),
    pitchClassDataType: optionalPitchClassDataType(TWELVE_TONE_DATA_TYPES),
    startSetFromC: flag("Rotate each set to start on C (relativeCents measured from its C entry)."),
    ...setFilters,
  },
  handle: (p, { catalog: cat }) => {
    const tuning = resolveTwelveToneTuning(cat, p.tuningSystem, p.startingNote);
    if (isAnswer(tuning)) return tuning;
    const grouping = twelveToneGrouping(cat, tuning.ts, tuning.startingNote, p.centsTolerance);
    const all = listedTwelveToneSets(grouping);
    const selected = selectSets(cat, all, p);
    if (isAnswer(selected)) return selected;
    const { sets, filter } = selected;
    const options = { type: p.pitchClassDataType, fromC: p.startSetFromC, arabic: p.includeArabic };
    const totalCompatible = memberCount(all);
    return ok({
      statistics: {
        totalSets: sets.length,
        totalCompatibleMaqamat: memberCount(sets),
        incompatibleMaqamatCount: grouping.incompatible.length,
        global: { totalSets: all.length, totalCompatibleMaqamat: totalCompatible, totalProcessed: totalCompatible + grouping.incompatible.length },
      },
      ...(filter ? { compatible: sets.length > 0 } : {}),
      sets: sets.map((s) => twelveToneSet(cat, s, tuning, options)),
      ...(filter && sets.length === 0 ? { explanation: notInAnySet(filter, grouping, selected.setId) } : {}),
      ...(filter
        ? { incompatibleTranspositions: grouping.incompatible.filter((i) => matchesFilter(filter)(i.entry)).map((i) => incompatibleEntry(i, p.includeArabic)) }
        : {}),
      parameters: {
        ...tuningParameters(tuning),
        alKindiTuningSystem: tuningSystemSummary(alKindiOf(cat)),
        alKindiStartingNote: noteRef(tuning.startingNote, false),
        centsTolerance: p.centsTolerance,
        startSetFromC: p.startSetFromC,
        ...filterEcho(selected.setId, filter),
      },
      ...(p.includeIncompatible ? incompatibleList(grouping, p.includeArabic) : {}),
    });
  },
});
