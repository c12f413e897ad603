/**
 * GET /maqamat/classification/maqam-pitch-class-sets and GET /maqamat/classification/12-pitch-class-sets:
 * maqām transpositions grouped into pitch-class sets (computation brief §11), with the
 * transpositions that cannot be reduced to one pitch class per 12-tone key.
 */
import { apiError, ok, type ApiResponse } from "./errors.js";
import { defineRoute, type Route } from "./route.js";
import { centsTolerance, flag, includeArabic, optionalPitchClassDataType, optionalText , tuningContextParams } from "./declare.js";
import { isResponse, resolveTuning, type TuningContext } from "./resolve.js";
import { PITCH_CLASS_DATA_TYPES, noteRef, num } from "./format.js";
import { std } from "../theory/std.js";
import { noteNameToArabic } from "../theory/arabic.js";
import { transpositionIdName, type EntityReference, type Maqam } from "../theory/entity.js";
import type { Catalog } from "../theory/catalog.js";
import type { PitchClass } from "../theory/pitchClass.js";
import { findStartingNote, type TuningSystem } from "../theory/tuningSystem.js";
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
import { alKindiOf, setFromC, twelveToneGrouping } from "../theory/twelveToneSets.js";

const MAQAM_SETS_PATH = "/maqamat/classification/maqam-pitch-class-sets";
const TWELVE_TONE_PATH = "/maqamat/classification/12-pitch-class-sets";

// ── Filters ────────────────────────────────────────────────────────────────────────────────

type MaqamFilter = EntityReference<Maqam>;

/** A maqām by idName, numeric id or transposition idName (older spellings too); 404 when unknown. */
function resolveMaqamFilter(cat: Catalog, maqamId: string): MaqamFilter | ApiResponse {
  const found = cat.findMaqam(maqamId);
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
function canonicalSetId(cat: Catalog, setId: string): string {
  const ref = setId.endsWith("_set") ? cat.findMaqam(setId.slice(0, -"_set".length)) : undefined;
  return ref ? `${filterIdName(ref)}_set` : setId;
}

interface ListedSet {
  set: PitchClassSet;
  /** Members as listed (deduplicated), in output order. */
  members: ClassifiedTransposition[];
}

/** The one set `setId` names (any spelling), or a 404 listing the set idNames. */
function selectSet(cat: Catalog, listed: ListedSet[], setId: string): { sets: ListedSet[]; setId: string } | ApiResponse {
  const canonical = canonicalSetId(cat, setId);
  const sets = listed.filter((s) => setIdNameOf(s.set) === canonical);
  if (sets.length > 0) return { sets, setId: canonical };
  const available = listed.map((s) => setIdNameOf(s.set));
  return apiError({
    status: 404,
    error: `Set '${setId}' not found`,
    message: `No pitch-class set has the idName '${setId}' in this tuning system and starting note.`,
    hint: `Set idNames are a source transposition's idName plus '_set', e.g. ${available[0] ?? "maqam_rast_set"}; leave setId out to list every set.`,
    extra: { validOptions: available },
  });
}

/** Keeps the first member per identity. */
function distinctBy(members: readonly ClassifiedTransposition[], identity: (e: ClassifiedTransposition) => string): ClassifiedTransposition[] {
  const seen = new Set<string>();
  return members.filter((e) => {
    const id = identity(e);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

const byMemberCount = (a: ListedSet, b: ListedSet) => b.members.length - a.members.length;

const memberCount = (sets: readonly ListedSet[]) => sets.reduce((n, s) => n + s.members.length, 0);

// ── Shared output pieces ───────────────────────────────────────────────────────────────────

const maqamSummary = (m: Maqam) => ({ id: m.id, idName: m.idName, displayName: m.name });

const tuningSystemSummary = (ts: TuningSystem) => ({ id: ts.id, idName: ts.id, displayName: ts.displayName });

const tuningParameters = ({ ts, startingNote }: TuningContext) => ({
  tuningSystem: tuningSystemSummary(ts),
  startingNote: noteRef(startingNote, false),
});

const setDisplayName = (set: PitchClassSet): string => `${set.source.transposition.name} set`;

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
  const tonic = entry.cells[0];
  const described = clashes.map(({ key, cells }) => {
    const names = cells.map((c) => `${c.noteName} (${centsInOctave(c, tonic).toFixed(1)} cents above the tonic)`);
    return `${names.join(" and ")} share the key ${key}`;
  });
  return `${entry.transposition.name} cannot be reduced to one pitch class per 12-tone key: ${described.join("; ")}.`;
}

/** An incompatible transposition in the specification's `shared_key` form. */
function incompatibleEntry(item: Incompatible, arabic: boolean) {
  const { maqam, transposition: t, cells } = item.entry;
  return {
    maqam: maqamSummary(maqam),
    transposition: { idName: t.idName, displayName: t.name, isTransposed: t.isTransposed, isBaseForm: t.isBaseForm },
    compatible: false,
    reason: "shared_key",
    explanation: clashExplanation(item),
    clashes: item.clashes.map((clash) => ({ key: clash.key, notes: clashNotes(clash, cells[0], arabic) })),
  };
}

const incompatibleList = (grouping: Grouping, arabic: boolean) => ({
  incompatibleMaqamat: grouping.incompatible.map((i) => incompatibleEntry(i, arabic)),
  incompatibleMaqamatCount: grouping.incompatible.length,
});

const filterEcho = (setId: string | undefined, filter: MaqamFilter | undefined) => ({
  ...(setId !== undefined ? { setId } : {}),
  ...(filter ? { maqamId: filterIdName(filter) } : {}),
});

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
    (a, b) => Number(a.transposition.isTransposed) - Number(b.transposition.isTransposed) || a.transposition.name.localeCompare(b.transposition.name),
  );

function maqamSetMember({ transposition: t, cells }: ClassifiedTransposition) {
  const tonic = cells[0];
  return {
    maqamIdName: t.idName,
    maqamDisplayName: t.name,
    isTransposed: t.isTransposed,
    isBaseForm: t.isBaseForm,
    tonic: { ipnReferenceNoteName: twelveToneKey(tonic), noteNameIdName: std(tonic.noteName), noteNameDisplayName: tonic.noteName },
  };
}

/** Sets with at least two distinct members, largest first (stable). */
const listedMaqamSets = (grouping: Grouping): ListedSet[] =>
  grouping.sets
    .map((set) => ({ set, members: maqamSetMembers(set) }))
    .filter((s) => s.members.length >= 2)
    .sort(byMemberCount);

const setFilters = {
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

const includeIncompatible = () => flag("Also list the transpositions that fit no set, with the reason.");

const maqamSetsRoute = defineRoute({
  path: MAQAM_SETS_PATH,
  summary: "Maqām transpositions grouped into sets that share the same pitch classes, in one tuning system and starting note.",
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
    if (isResponse(tuning)) return tuning;
    const filter = p.maqamId === undefined ? undefined : resolveMaqamFilter(cat, p.maqamId);
    if (isResponse(filter)) return filter;
    const grouping = maqamSetGrouping(cat, tuning.ts, tuning.startingNote, p.centsTolerance);
    const selected = p.setId === undefined ? { sets: listedMaqamSets(grouping), setId: undefined } : selectSet(cat, listedMaqamSets(grouping), p.setId);
    if (isResponse(selected)) return selected;
    const sets = filter ? selected.sets.filter((s) => s.set.members.some(matchesFilter(filter))) : selected.sets;
    if (filter && sets.length === 0)
      return apiError({
        status: 404,
        error: `No sets found containing maqam '${p.maqamId}'`,
        message: `No maqām pitch-class set of '${tuning.ts.id}' on '${std(tuning.startingNote)}' lists '${filterIdName(filter)}'${selected.setId ? ` in '${selected.setId}'` : ""}.`,
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

/** The tuning the 12-tone sets default to when none is named. */
const DEFAULT_TUNING = { tuningSystem: "cairocongresstuningcommittee_1929", startingNote: "yegah" } as const;

const TWELVE_TONE_DATA_TYPES = [...PITCH_CLASS_DATA_TYPES, "relativeCents"] as const;
type TwelveToneDataType = (typeof TWELVE_TONE_DATA_TYPES)[number];

/** Tuning system (exact id; 400 when unknown, as the archive answers here), starting note, and al-Kindī's tuning on it. */
function resolveTwelveToneTuning(cat: Catalog, tuningSystem: string, startingNote: string): TuningContext | ApiResponse {
  const ts = cat.findTuningSystem(tuningSystem);
  if (!ts)
    return apiError({
      error: `Tuning system '${tuningSystem}' not found`,
      message: `No tuning system has the id '${tuningSystem}'.`,
      hint: `Use one of the ids in validOptions, e.g. tuningSystem=${DEFAULT_TUNING.tuningSystem}.`,
      extra: { availableTuningSystems: cat.tuningSystems.map(tuningSystemSummary), validOptions: cat.tuningSystems.map((t) => t.id) },
    });
  const validOptions = ts.startingNotes.map(std);
  const resolved = findStartingNote(ts, startingNote);
  if (!resolved)
    return apiError({
      error: `Starting note '${startingNote}' is not valid for tuning system '${ts.id}'`,
      message: `'${startingNote}' is not a starting note of tuning system '${ts.id}'.`,
      hint: `Use one of: ${validOptions.join(", ")}.`,
      extra: { validOptions },
    });
  const alKindi = alKindiOf(cat);
  if (!findStartingNote(alKindi, resolved)) {
    const alKindiNotes = alKindi.startingNotes.map(std);
    return apiError({
      error: `Starting note '${std(resolved)}' is not valid for ${alKindi.id} tuning system`,
      message: `12-tone sets are completed from al-Kindī's tuning on the same starting note, which only has: ${alKindiNotes.join(", ")}.`,
      hint: `Use a starting note of ${ts.id} that al-Kindī's tuning also has, or /api/maqamat/classification/maqam-pitch-class-sets.`,
      extra: { validOptions: validOptions.filter((n) => alKindiNotes.includes(n)), validAlKindiNotes: alKindiNotes },
    });
  }
  return { ts, startingNote: resolved };
}

/** A set's keys in output order: from the tonic upwards, or from C. */
const orderedKeys = (cat: Catalog, set: PitchClassSet, { ts, startingNote }: TuningContext, fromC: boolean): [string, PitchClass][] =>
  fromC ? setFromC(cat, set.pitchClasses, ts, startingNote) : [...set.pitchClasses];

type SingleDataType = Exclude<TwelveToneDataType, "all" | "relativeCents">;

/** The value each single data type shows. */
function dataValues(pc: PitchClass): Record<SingleDataType, string | number | null> {
  return {
    englishName: pc.englishName,
    solfege: pc.solfege,
    fraction: pc.fraction,
    cents: pc.cents,
    decimalRatio: pc.decimalRatio,
    // The string form, as the 12-tone sets print it (§11.4).
    stringLength: String(pc.stringLength),
    frequency: pc.frequency,
    abjadName: pc.abjadName,
    fretDivision: pc.fretDivision,
    midiNoteNumber: pc.midiNoteDecimal,
    midiNoteDeviation: pc.midiNotePlusCentsDeviation,
    centsDeviation: num(pc.centsDeviation),
    referenceNoteName: pc.ipnReferenceNoteName,
  };
}

/** Every field of `pitchClassDataType=all`; empty strings (a tuning without abjad names) are left out. */
function allDataFields(pc: PitchClass, relativeCents: number): Record<string, unknown> {
  const v = dataValues(pc);
  const fields = {
    cents: v.cents,
    relativeCents,
    fraction: v.fraction,
    decimalRatio: v.decimalRatio,
    frequency: v.frequency,
    octave: pc.octave,
    englishName: v.englishName,
    solfege: v.solfege,
    abjadName: v.abjadName,
    stringLength: v.stringLength,
    fretDivision: v.fretDivision,
    midiNoteDecimal: v.midiNoteNumber,
    midiNoteDeviation: v.midiNoteDeviation,
    centsDeviation: v.centsDeviation,
    referenceNoteName: v.referenceNoteName,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ""));
}

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
  const value = dataValues(pc)[type];
  return { ...head, [type]: value === "" ? null : value };
}

/**
 * Cents above the tonic; read from C, keys below the tonic are counted from the octave below
 * so that every value stays within the octave above it.
 */
function relativeCentsOf(pc: PitchClass, tonic: PitchClass, fromC: boolean): number {
  const relative = pc.cents - tonic.cents;
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
      noteNameIdName: std(tonic.noteName),
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
  const tonic = set.pitchClasses.values().next().value!;
  const listed = members
    .map((e) => twelveToneMember(e, keys))
    // Untransposed first, then by the tonic's place in the set (a tonic outside it first, at -1).
    .sort((a, b) => Number(a.isTransposed) - Number(b.isTransposed) || a.tonic.positionInSet - b.tonic.positionInSet);
  return {
    setIdName: setIdNameOf(set),
    setDisplayName: setDisplayName(set),
    sourceMaqam: maqamSummary(set.source.maqam),
    pitchClassSet: order.map(([key, pc]) => twelveTonePitchClass(key, pc, relativeCentsOf(pc, tonic, o.fromC), o.type, o.arabic)),
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

const twelveToneRoute = defineRoute({
  path: TWELVE_TONE_PATH,
  summary: "Maqām transpositions grouped into 12-pitch-class sets (one pitch class per 12-tone key), for keyboards and MIDI.",
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
    if (isResponse(tuning)) return tuning;
    const filter = p.maqamId === undefined ? undefined : resolveMaqamFilter(cat, p.maqamId);
    if (isResponse(filter)) return filter;
    const grouping = twelveToneGrouping(cat, tuning.ts, tuning.startingNote, p.centsTolerance);
    const all = listedTwelveToneSets(grouping);
    const selected = p.setId === undefined ? { sets: all, setId: undefined } : selectSet(cat, all, p.setId);
    if (isResponse(selected)) return selected;
    const sets = filter ? selected.sets.filter((s) => s.set.members.some(matchesFilter(filter))) : selected.sets;
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

export const routes: readonly Route[] = [twelveToneRoute, maqamSetsRoute];

/**
 * Each tuning system × starting note: both endpoints in default form and with the incompatible
 * transpositions, the maqām sets also with their pitch classes; and the bare 12-tone request,
 * which answers for the default tuning (canonical queries: parameters sorted by name).
 */
export function* prerender(cat: Catalog): Generator<string> {
  yield TWELVE_TONE_PATH;
  const alKindi = alKindiOf(cat);
  for (const ts of cat.tuningSystems)
    for (const note of ts.startingNotes) {
      const tuning = `startingNote=${std(note)}&tuningSystem=${ts.id}`;
      if (findStartingNote(alKindi, note)) for (const extra of ["", "includeIncompatible=true&"]) yield `${TWELVE_TONE_PATH}?${extra}${tuning}`;
      for (const extra of ["", "includeIncompatible=true&", "includePitchClassData=true&"]) yield `${MAQAM_SETS_PATH}?${extra}${tuning}`;
    }
}
