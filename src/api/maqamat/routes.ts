/**
 * The maqām collection group: GET /maqamat (summary list), /maqamat/families, and per maqām
 * /availability, /transpositions and /compare (built by ../entities/, which the ajnās group
 * shares), and the maqām response pieces (family, ajnās per degree, named degrees,
 * characteristics) the detail and per-tuning-system routes reuse. A transposed idName may name a
 * tonic containing `/`, so the path parameter is greedy, and these routes are registered before
 * the maqām detail route.
 */
import { notFound, ok } from "../errors.js";
import { defineRoute } from "../route.js";
import { centsTolerance, includeArabic, includeSources, oneOf, optionalText, requiredText } from "../declare.js";
import { apiUrl, queryString } from "../links.js";
import { entityObject, noteRef, sourcesOf, type EntityObject } from "../shared/format.js";
import { tuningSystemNotFound, unknownStartingNote, type TuningContext } from "../resolve.js";
import { COMPARE_NUMERALS, compareSpec, type CompareCell, type CompareParameters } from "../entities/compare.js";
import {
  INTERVAL_FIELD,
  SORT_OPTIONS,
  availabilitySummary,
  degreePitchClass,
  scalePitchData,
  scaleSteps,
  selectionObject,
  sortByNameOrTonic,
} from "../entities/views.js";
import { availabilitySpec } from "../entities/availability.js";
import { transpositionsSpec } from "../entities/transpositions.js";
import { entityNameToArabic } from "../../theory/arabic.js";
import type { Maqam } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import { familyOf, NO_JINS, type Family } from "../../theory/family.js";
import { ajnasOf, type DegreeAjnas, type JinsInstance } from "../../theory/jinsDetection.js";
import { namedDegreesOf, type NamedDegree, type NamedDegrees } from "../../theory/degrees.js";
import type { Interval } from "../../theory/interval.js";
import { pitchClassesOf, type PitchClass } from "../../theory/pitchClass.js";
import { toIdName } from "../../theory/idName.js";
import { UNKNOWN_FAMILY, familiesIn, listFamilies } from "../../theory/maqamFamilies.js";
import type { Transposition } from "../../theory/transposition.js";
import { findStartingNote } from "../../theory/tuningSystem.js";
import { maqamSchemas } from "./schemas.js";

const COLLECTION = "/maqamat";

// ---------------------------------------------------------------------------------------------
// Maqām response pieces (shared with the detail route and GET /tuning-systems/{id}/{startingNote}/maqamat)

/**
 * `{idName, displayName, [displayNameAr]}` of a family. `unknown` has no Arabic; `withNoJinsArabic`
 * false also leaves it off `no jins`, whose converted name is half Latin (`نo جنس`, Q17), as the
 * families route does.
 */
export function familyRef(family: Family, includeArabic: boolean, withNoJinsArabic = true) {
  const arabic = includeArabic && family !== UNKNOWN_FAMILY && (withNoJinsArabic || family.idName !== NO_JINS.idName);
  return { idName: family.idName, displayName: family.name, ...(arabic ? { displayNameAr: entityNameToArabic(family.name) } : {}) };
}

const sameSequence = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Note names of both directions of a scale (descending top-down). */
interface ScaleNames {
  ascending: readonly string[];
  descending: readonly string[];
}

/**
 * `characteristics` of a maqām, read on its data or on a rendering's note names. The descending
 * scale is asymmetric when it is not the ascending one read backwards (`reversed`), or, in the
 * per-tuning-system list, when it differs from the ascending one as written (Q15, see
 * docs/deviations.md).
 */
export const characteristicsOf = (m: Maqam, scale: ScaleNames = m, reversed = true) => ({
  isOctaveRepeating: scale.ascending.length <= 7,
  hasAsymmetricDescending: !sameSequence(scale.ascending, reversed ? [...scale.descending].reverse() : scale.descending),
  hasSuyur: m.record.suyur.length > 0,
});

/** `{noteName, noteNameDisplay, [noteNameDisplayAr], maqamDegree}` of a named degree. */
function degreeNote(d: NamedDegree, includeArabic: boolean) {
  const note = noteRef(d.noteName, includeArabic);
  return {
    noteName: note.idName,
    noteNameDisplay: note.displayName,
    ...(includeArabic ? { noteNameDisplayAr: note.displayNameAr } : {}),
    maqamDegree: d.degree,
  };
}

/** A degree's note and the jins on it (null fields where there is none). */
const jinsDegree = (d: NamedDegree, includeArabic: boolean) => ({
  ...degreeNote(d, includeArabic),
  jinsId: d.jins?.jins.id ?? null,
  jinsIdName: d.jins?.idName ?? null,
  jinsDisplayName: d.jins?.name ?? null,
  ...(includeArabic ? { jinsDisplayNameAr: d.jins ? entityNameToArabic(d.jins.name) : null } : {}),
});

/** primaryJins … ghammaz (§6.5), each an array of degree objects or null; the ghammāz names no jins. */
export function namedDegreeBlocks(named: NamedDegrees, includeArabic: boolean) {
  const withJins = (degrees: NamedDegree[] | null) => degrees?.map((d) => jinsDegree(d, includeArabic)) ?? null;
  return {
    primaryJins: withJins(named.primaryJins),
    secondaryJins: withJins(named.secondaryJins),
    tertiaryJins: withJins(named.tertiaryJins),
    ghammaz: named.ghammaz?.map((d) => degreeNote(d, includeArabic)) ?? null,
  };
}

/** `{<display note name>: [] | [{id, idName, displayName, [displayNameAr]}]}` of one direction (§6.4, spec arrays). */
function ajnasMap(cells: readonly PitchClass[], ajnas: readonly (JinsInstance | null)[], includeArabic: boolean) {
  return Object.fromEntries(
    cells.map((pc, k) => {
      const j = ajnas[k];
      return [
        pc.noteName,
        j ? [{ id: j.jins.id, idName: j.idName, displayName: j.name, ...(includeArabic ? { displayNameAr: entityNameToArabic(j.name) } : {}) }] : [],
      ];
    }),
  );
}

/** `ajnas` of a rendering: the jins on each degree of both directions. */
export const degreeAjnasBlock = (t: Transposition, ajnas: DegreeAjnas, includeArabic: boolean) => ({
  ascending: ajnasMap(t.ascending, ajnas.ascending, includeArabic),
  descending: ajnasMap(t.descending, ajnas.descending, includeArabic),
});

/** Sorting keys of a maqām: its idName and its tonic's. */
export const maqamSortKey = (m: Maqam) => ({ idName: m.idName, tonicIdName: toIdName(m.ascending[0]) });

// ---------------------------------------------------------------------------------------------
// GET /maqamat

const listRoute = defineRoute({
  path: COLLECTION,
  summary: "Every maqām with its family, tonic, characteristics and the tuning systems that realise it.",
  response: () => maqamSchemas().maqamatList,
  exampleQuery: { filterByTonic: "segah" },
  params: {
    filterByFamily: optionalText({
      blank: "error",
      description: "Only the maqāmāt of this family (idName).",
      example: "rast",
      hint: "Leave filterByFamily out, or give a family idName such as filterByFamily=rast.",
    }),
    filterByTonic: optionalText({
      blank: "error",
      description: "Only the maqāmāt on this tonic (idName).",
      example: "rast",
      hint: "Leave filterByTonic out, or give a tonic idName such as filterByTonic=rast.",
    }),
    sortBy: oneOf(SORT_OPTIONS, { fallback: "alphabetical", description: "`alphabetical` or `tonic` (by tonic, then name).", example: "tonic" }),
    includeSources: includeSources(),
    includeArabic: includeArabic(),
    centsTolerance: centsTolerance(),
  },
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    const family = p.filterByFamily === undefined ? undefined : toIdName(p.filterByFamily);
    const tonic = p.filterByTonic === undefined ? undefined : toIdName(p.filterByTonic);
    const families = listFamilies(cat, p.centsTolerance);
    const items = cat.maqamat
      .map((m, i) => ({ m, family: families[i] }))
      .filter((item) => (family === undefined || item.family.idName === family) && (tonic === undefined || toIdName(item.m.ascending[0]) === tonic));
    const data = sortByNameOrTonic(cat, items, p.sortBy, ({ m }) => maqamSortKey(m)).map(({ m, family }) => {
      const { count, availability } = availabilitySummary(cat, m, p.includeArabic);
      return {
        maqam: entityObject(m, p.includeArabic),
        family: familyRef(family, p.includeArabic),
        tonic: noteRef(m.ascending[0], p.includeArabic),
        stats: { numberOfPitchClasses: m.ascending.length, availableInTuningSystems: count },
        characteristics: characteristicsOf(m),
        availability,
        links: { detail: apiUrl(ctx, `${COLLECTION}/${m.idName}`) },
        ...(p.includeSources ? { sources: sourcesOf(m) } : {}),
      };
    });
    return ok({ count: data.length, data });
  },
});

// ---------------------------------------------------------------------------------------------
// GET /maqamat/families

const TUNING_HINT = "Use ?tuningSystem=ibnsina_1037&startingNote=yegah (see /api/tuning-systems for the ids and starting notes).";

const familiesRoute = defineRoute({
  path: `${COLLECTION}/families`,
  summary: "The maqām families (by the jins on the first degree) in one tuning system and starting note.",
  response: () => maqamSchemas().maqamFamilies,
  params: {
    tuningSystem: requiredText({ description: "Tuning-system id.", example: "ibnsina_1037", hint: TUNING_HINT }),
    startingNote: requiredText({ description: "Starting note of the tuning system.", example: "yegah", hint: TUNING_HINT }),
    includeArabic: includeArabic(),
    centsTolerance: centsTolerance(),
  },
  handle: (p, { catalog: cat }) => {
    const ts = cat.findTuningSystem(p.tuningSystem);
    if (!ts) return tuningSystemNotFound(p.tuningSystem);
    const startingNote = findStartingNote(ts, p.startingNote);
    // The spec makes an unknown starting note a 404 on this route (elsewhere it is a 400).
    if (!startingNote) return notFound(unknownStartingNote(ts, p.startingNote));
    const data = familiesIn(cat, ts, startingNote, p.centsTolerance).map((family) => ({
      family: familyRef(family, p.includeArabic, false),
      links: { maqamat: `/api${COLLECTION}${queryString([["filterByFamily", family.idName]])}` },
    }));
    return ok({ count: data.length, data });
  },
});

// ---------------------------------------------------------------------------------------------
// GET /maqamat/{idName}/transpositions and /compare (availability: ../entities/)

/** The named degrees of a rendering in a tuning context. */
const namedDegreesIn = (cat: Catalog, m: Maqam, t: Transposition, { ts, startingNote }: TuningContext, tolerance: number) =>
  namedDegreesOf(m, t, pitchClassesOf(cat, ts, startingNote), ajnasOf(cat, t, ts, startingNote, tolerance));

/** §10.5, compare routes: the 6-key object for `all`, one key for cents/fraction/decimalRatio, else cents (plus the type's own field). */
function compareInterval(interval: Interval, type: string) {
  const { fraction, cents, decimalRatio, stringLength, fretDivision, pitchClassIndex } = interval;
  switch (type) {
    case "all":
      return { fraction, cents, decimalRatio, stringLength, fretDivision, pitchClassIndex };
    case "cents":
    case "fraction":
    case "decimalRatio":
      return INTERVAL_FIELD[type](interval);
    case "stringLength":
      return { cents, stringLength };
    case "fretDivision":
      return { cents, fretDivision };
    default:
      return { cents };
  }
}

/** The maqām's parts of a compare cell: the rendering with its family, both directions with their ajnās, and steps. */
function compareParts(t: Transposition, p: CompareParameters, { cat, entity, list, tuning: { ts, startingNote } }: CompareCell<Maqam>) {
  // The family is that of entry 0, the taḥlīl, whichever transposition is shown (§7.1).
  const family = familyOf(cat, list[0], ts, startingNote, p.centsTolerance);
  const familyFields = {
    maqamFamilyId: family.idName,
    maqamFamilyDisplayName: family.name,
    ...(p.includeArabic ? { maqamFamilyDisplayNameAr: entityNameToArabic(family.name) } : {}),
  };
  const pitchClass = (pc: PitchClass, numeral: string) => degreePitchClass(pc, numeral, p.pitchClassDataType, p.includeArabic, true);
  return {
    selection: { maqam: selectionObject(entity, t, p.includeArabic, familyFields) },
    stats: { maqam: { numberOfPitchClasses: t.ascending.length, isOctaveRepeating: t.ascending.length <= 7 } },
    data: {
      pitchData: scalePitchData(t.ascending, t.descending, pitchClass, COMPARE_NUMERALS),
      ajnas: degreeAjnasBlock(t, ajnasOf(cat, t, ts, startingNote, p.centsTolerance), p.includeArabic),
    },
    intervals: () => scaleSteps(t, (i) => compareInterval(i, p.pitchClassDataType)),
  };
}

/** The maqām under its key in the answers the maqām and jins groups share. */
const withMaqam = (maqam: EntityObject) => ({ maqam });

/** The named degrees of each detailed transposition. */
const transpositionDegrees = (cat: Catalog, m: Maqam, t: Transposition, tuning: TuningContext, tolerance: number, includeArabic: boolean) =>
  namedDegreeBlocks(namedDegreesIn(cat, m, t, tuning, tolerance), includeArabic);

export const routes = [
  familiesRoute,
  defineRoute({ ...availabilitySpec("maqam", withMaqam), response: () => maqamSchemas().maqamAvailability }),
  defineRoute({ ...transpositionsSpec("maqam", withMaqam, transpositionDegrees), response: () => maqamSchemas().maqamTranspositions }),
  defineRoute({ ...compareSpec("maqam", withMaqam, compareParts), response: () => maqamSchemas().maqamCompare }),
  listRoute,
];
