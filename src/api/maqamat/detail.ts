/**
 * GET /maqamat/{idName}: one maqām in one tuning system and starting note — its pitch classes
 * (re-spelled), ajnās per degree, family, named degrees, optional intervals, suyūr and
 * modulations — optionally transposed by `transposeTo` or a transposed idName; `options=true`
 * describes the parameters instead; `idName=all` lists every realisable maqām's analytical form.
 * The path parameter is greedy because a transposed idName may name a tonic containing `/`.
 */
import { ok, isAnswer } from "../errors.js";
import { defineRoute, type RequestContext } from "../route.js";
import type { ParamDeclaration, ParsedParams } from "../params.js";
import { centsTolerance, flag, includeArabic, includeSources, optionalPitchClassDataType, tuningContextParams } from "../declare.js";
import { apiUrl, selfUrl } from "../links.js";
import { noteNameArray, noteRef, sourcesOf, tuningSystemEntity } from "../shared/format.js";
import { PITCH_CLASS_DATA_TYPES } from "../shared/pitchClassValues.js";
import { requestedTonic, resolveEntity, resolveTuning, type TuningContext } from "../resolve.js";
import { characteristicsOf, degreeAjnasBlock, familyRef, namedDegreeBlocks } from "./routes.js";
import {
  DISCOVERY_DESCRIPTIONS,
  discoveryEntry,
  detailRendering,
  discoveryOffer,
  flatTuningContextWithStartingNotes,
  optionsConflict,
  transposeToParameter,
} from "../entities/detail.js";
import {
  entityPath,
  availabilityHint,
  commentsOf,
  degreePitchClass,
  INTERVAL_FIELD,
  isIntervalField,
  scalePitchData,
  scaleSteps,
  selectionObject,
  transpositionBlock,
  transpositionSummaries,
} from "../entities/views.js";
import { entityNameToArabic, noteNameToArabic } from "../../theory/arabic.js";
import type { Maqam } from "../../theory/entity.js";
import type { Interval } from "../../theory/interval.js";
import { pitchClassesOf, type PitchClass } from "../../theory/pitchClass.js";
import { isPossibleIn } from "../../theory/realisation.js";
import { toIdName } from "../../theory/idName.js";
import { analyticalForms } from "../../theory/analyticalForms.js";
import type { Catalog } from "../../theory/catalog.js";
import { transposedOnly, type Transposition } from "../../theory/transposition.js";
import { pitchClassesPerOctave, referenceFrequencyOf } from "../../theory/tuningSystem.js";
import { ajnasOf } from "../../theory/jinsDetection.js";
import { familyOf } from "../../theory/family.js";
import { namedDegreesOf } from "../../theory/degrees.js";
import { respellScale, midiLabelOf } from "../../theory/respell.js";
import { suyurOf } from "../../theory/suyur.js";
import { modulationsOf, modulationCounts, lowerOctaveModulations } from "../../theory/modulation.js";
import { modulationsBlock, lowerOctaveModulationsBlock } from "./modulationBlocks.js";
import { maqamDetailSchemas } from "./detailSchemas.js";

const COLLECTION = "/maqamat";

/** The 16 values of `pitchClassDataType` on this endpoint; the last two give the minimal fields. */
export const MAQAM_PITCH_CLASS_DATA_TYPES = [
  "all",
  "abjadName",
  "englishName",
  "solfege",
  "fraction",
  "cents",
  "centsDeviation",
  "decimalRatio",
  "stringLength",
  "fretDivision",
  "midiNoteNumber",
  "midiNoteDeviation",
  "frequency",
  "referenceNoteName",
  "pitchClassIndex",
  "scaleDegree",
] as const;

/** A parameter of an older revision that is refused rather than silently ignored. */
const retiredParameter = (replacement: string): ParamDeclaration<undefined> => ({
  in: "query",
  type: "string",
  accepts: { shape: "retired", replacement },
  required: false,
  description: `No longer supported: use ${replacement}.`,
  hint: `Use ${replacement} instead.`,
});

// Key order is the order of the checks: the first failing parameter answers.
const params = {
  includeLowerOctaveModulations: retiredParameter("includeModulations=true&includeModulations8vb=true"),
  centsTolerance: centsTolerance(),
  includeArabic: includeArabic(),
  // Absent means `all`; discovery mode must see it absent.
  pitchClassDataType: optionalPitchClassDataType(MAQAM_PITCH_CLASS_DATA_TYPES, "all"),
  idName: {
    ...entityPath("maqam"),
    description: "Maqām idName (or numeric id), a transposition's idName such as maqam_rast_al_nawa, or `all` for every maqām realisable in the tuning system.",
  },
  ...tuningContextParams(),
  transposeTo: transposeToParameter(),
  options: flag("Parameter discovery: what this maqām accepts in the tuning system, instead of its data."),
  includeIntervals: flag("Include the steps between consecutive pitch classes."),
  includeModulations: flag("Include the modulations (intiqālāt) of the maqām."),
  includeModulations8vb: flag("With includeModulations, also the modulations an octave below."),
  includeSuyur: flag("Include the documented performance practices (suyūr)."),
  includeSources: includeSources(),
};
type Parameters = ParsedParams<typeof params>;

// ---------------------------------------------------------------------------------------------
// Pitch data and intervals

/**
 * A pitch class of the maqām in the requested data type. The `midiNoteDeviation` label keeps the
 * unrounded deviation (as the reference writes it on this route) and counts from the re-spelled key.
 */
function pitchClassOf(pc: PitchClass, scaleDegree: string, type: string | undefined, arabic: boolean) {
  return {
    ...degreePitchClass(pc, scaleDegree, type ?? "", arabic),
    ...(type === "midiNoteDeviation" ? { midiNotePlusCentsDeviation: midiLabelOf(pc, false) } : {}),
  };
}

/** Pitch data of both directions, numerals not capped (unlike the compare routes). */
const pitchDataOf = (ascending: readonly PitchClass[], descending: readonly PitchClass[], type: string | undefined, arabic: boolean) =>
  scalePitchData(ascending, descending, (pc, numeral) => pitchClassOf(pc, numeral, type, arabic));

const FULL_INTERVAL_TYPES = new Set(["solfege", "pitchClassIndex", "scaleDegree"]);

/** §10.5: which interval fields each data type shows (omitted = `all`). */
function intervalFields(interval: Interval, type = "all") {
  if (type === "all") {
    const { fraction, cents, decimalRatio, stringLength, fretDivision, pitchClassIndex } = interval;
    return { fraction, cents, decimalRatio, stringLength, fretDivision, pitchClassIndex };
  }
  if (isIntervalField(type)) return INTERVAL_FIELD[type](interval);
  if (FULL_INTERVAL_TYPES.has(type)) return { ...interval };
  return { cents: interval.cents };
}

/** Steps of both directions in the fields the data type shows. */
const intervalsOf = (t: Transposition, type: string | undefined) => scaleSteps(t, (i) => intervalFields(i, type));

// ---------------------------------------------------------------------------------------------
// Data mode

/** `context.tuningSystem` of the detail answer. */
function tuningContext(cat: Catalog, { ts, startingNote }: TuningContext, arabic: boolean) {
  return tuningSystemEntity(ts, arabic, {
    startingNotes: noteNameArray(ts.startingNotes, arabic),
    selectedStartingNote: noteRef(startingNote, arabic),
    pitchClassCounts: { singleOctave: pitchClassesPerOctave(ts), allOctaves: pitchClassesOf(cat, ts, startingNote).length },
    originalValueType: ts.valueType,
    referenceFrequency: referenceFrequencyOf(ts, startingNote),
  });
}

/** Display note names of cells. */
const noteNames = (cells: readonly PitchClass[]) => cells.map((pc) => pc.noteName);

function detailBody(
  p: Parameters,
  ctx: RequestContext,
  m: Maqam,
  tuning: TuningContext,
  list: readonly Transposition[],
  t: Transposition,
  tonic: string | undefined,
) {
  const cat = ctx.catalog;
  const { ts, startingNote } = tuning;
  const arabic = p.includeArabic;
  const tolerance = p.centsTolerance;
  const pcs = pitchClassesOf(cat, ts, startingNote);
  const ajnas = ajnasOf(cat, t, ts, startingNote, tolerance);
  const spelled = respellScale(t.ascending, t.descending);
  const counts = modulationCounts(cat, m, ts, startingNote, tolerance);
  const modulations = p.includeModulations ? modulationsOf(cat, m, t, ts, startingNote, tolerance) : undefined;
  return {
    maqam: selectionObject(m, t, arabic, { isBaseForm: t.isBaseForm }),
    // Classified on the analytical form whatever rendering is shown.
    family: familyRef(familyOf(cat, list[0], ts, startingNote, tolerance), arabic),
    tonic: noteRef(t.tonic, arabic),
    ...transpositionBlock(m, t, arabic),
    stats: {
      numberOfTranspositions: transposedOnly(list).length,
      numberOfPitchClasses: t.ascending.length,
      numberOfMaqamModulations: counts.maqamat,
      numberOfAjnasModulations: counts.ajnas,
    },
    // Read on the rendering shown, not on the maqām's data.
    characteristics: characteristicsOf(m, { ascending: noteNames(t.ascending), descending: noteNames(t.descending) }),
    availableTranspositions: transpositionSummaries(transposedOnly(list), arabic),
    comments: commentsOf(m),
    ...(p.includeSources ? { sources: sourcesOf(m) } : {}),
    parameters: {
      pitchClassDataType: p.pitchClassDataType ?? null,
      includeIntervals: p.includeIntervals,
      includeModulations: p.includeModulations,
      includeModulations8vb: p.includeModulations8vb,
      includeSuyur: p.includeSuyur,
      transposeTo: tonic ?? null,
    },
    context: { tuningSystem: tuningContext(cat, tuning, arabic) },
    links: {
      self: selfUrl(ctx),
      detail: apiUrl(ctx, `${COLLECTION}/${m.idName}`),
      availability: apiUrl(ctx, `${COLLECTION}/${m.idName}/availability`),
      compare: apiUrl(ctx, `${COLLECTION}/${m.idName}/compare`),
    },
    pitchData: pitchDataOf(spelled.ascending, spelled.descending, p.pitchClassDataType, arabic),
    ...(p.includeIntervals ? { intervals: intervalsOf(t, p.pitchClassDataType) } : {}),
    ajnas: degreeAjnasBlock(t, ajnas, arabic),
    ...namedDegreeBlocks(namedDegreesOf(m, t, pcs, ajnas), arabic),
    ...(p.includeSuyur ? { suyur: suyurOf(m, t, pcs) } : {}),
    ...(modulations ? { modulations: modulationsBlock(modulations, arabic) } : {}),
    ...(modulations && p.includeModulations8vb
      ? { lowerOctaveModulations: lowerOctaveModulationsBlock(lowerOctaveModulations(cat, modulations, ts, startingNote), arabic) }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Discovery mode (options=true)

// The reference's discovery answer lists every data type but solfege.
const DISCOVERY_TYPES = PITCH_CLASS_DATA_TYPES.filter((type) => type !== "solfege");

const DESCRIPTIONS = {
  ...DISCOVERY_DESCRIPTIONS,
  pitchClassDataType:
    "Output format for pitch data. Optional — when omitted, pitch classes contain only minimal note-name fields. Use 'cents' for tuning analysis or 'all' for complete pitch class information.",
  includeModulations: "Include modulation analysis (maqāmāt and ajnās)",
  includeModulations8vb: "Include available modulations an octave below",
  includeSuyur: "Include documented performance practices (suyūr)",
  centsTolerance: "Tolerance in cents for pitch matching in transposition and modulation calculations (non-negative number)",
  ajnasData: "Ajnās (constituent melodic structures) are always included in the response for maqām analysis",
};

/** `options=true`: the parameters this maqām accepts in a tuning system (and starting note). */
function discovery(cat: Catalog, p: Parameters, m: Maqam, transposed: boolean) {
  const conflicting = [
    ...(p.transposeTo !== undefined || transposed ? ["transposeTo"] : []),
    ...(p.includeModulations ? ["includeModulations"] : []),
    ...(p.includeModulations8vb ? ["includeModulations8vb"] : []),
    ...(p.includeSuyur ? ["includeSuyur"] : []),
    ...(p.pitchClassDataType !== undefined && p.pitchClassDataType !== "cents" ? ["pitchClassDataType"] : []),
    ...(p.includeIntervals ? ["includeIntervals"] : []),
  ];
  if (conflicting.length) return optionsConflict(conflicting, ["tuningSystem", "startingNote", "pitchClassDataType", "centsTolerance"]);
  const offer = discoveryOffer(cat, m, p.idName, p.tuningSystem, p.startingNote, p.centsTolerance);
  if (isAnswer(offer)) return offer;
  const { tuningSystem, startingNotes, tonics, example } = offer;
  return ok({
    maqam: m.name,
    tuningSystem,
    availableParameters: {
      tuningSystem: { required: true as const, description: DESCRIPTIONS.tuningSystem },
      startingNote: { options: startingNotes, required: true as const, description: DESCRIPTIONS.startingNote },
      pitchClassDataType: { options: DISCOVERY_TYPES, required: false as const, description: DESCRIPTIONS.pitchClassDataType },
      includeIntervals: discoveryEntry(params.includeIntervals, DESCRIPTIONS.includeIntervals),
      transposeTo: { options: tonics, description: DESCRIPTIONS.transposeTo },
      includeModulations: discoveryEntry(params.includeModulations, DESCRIPTIONS.includeModulations),
      includeModulations8vb: discoveryEntry(params.includeModulations8vb, DESCRIPTIONS.includeModulations8vb),
      includeSuyur: discoveryEntry(params.includeSuyur, DESCRIPTIONS.includeSuyur),
      centsTolerance: discoveryEntry(params.centsTolerance, DESCRIPTIONS.centsTolerance),
    },
    notes: { ajnasData: DESCRIPTIONS.ajnasData, formatOptions: DESCRIPTIONS.formatOptions },
    examples: [
      `${example}&pitchClassDataType=cents&includeIntervals=true`,
      ...(tonics !== null && tonics.length > 1 ? [`${example}&pitchClassDataType=cents&transposeTo=${tonics[1]}&includeModulations=true`] : []),
      `${example}&pitchClassDataType=all&includeSuyur=true`,
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// idName=all

function allBody(cat: Catalog, p: Parameters, tuning: TuningContext) {
  const arabic = p.includeArabic;
  const maqamatData = analyticalForms(cat, tuning.ts, tuning.startingNote, p.centsTolerance).map(({ maqam, list, family, counts }) => {
    const t = list[0];
    const comments = commentsOf(maqam);
    return {
      id: maqam.id,
      idName: t.idName,
      displayName: t.name,
      version: maqam.record.version,
      tonicId: toIdName(t.tonic),
      tonicDisplay: t.tonic,
      transposition: t.isTransposed,
      familyId: family.idName,
      familyDisplay: family.name,
      // The whole list here (taḥlīl and octave renderings included), as the reference counts it.
      numberOfTranspositions: list.length,
      numberOfMaqamModulations: counts.maqamat,
      numberOfAjnasModulations: counts.ajnas,
      commentsEnglish: comments.english,
      commentsArabic: comments.arabic,
      ...(arabic
        ? { displayNameAr: entityNameToArabic(t.name), tonicDisplayAr: noteNameToArabic(t.tonic), familyDisplayAr: entityNameToArabic(family.name) }
        : {}),
      sources: sourcesOf(maqam),
      // Plain tuning-system spellings here: the list is not re-spelled per maqām.
      pitchData: pitchDataOf(t.ascending, t.descending, p.pitchClassDataType, arabic),
      ...(p.includeIntervals ? { intervals: intervalsOf(t, p.pitchClassDataType) } : {}),
    };
  });
  return {
    context: {
      tuningSystem: flatTuningContextWithStartingNotes(cat, tuning, arabic),
      pitchClassDataType: p.pitchClassDataType ?? null,
      includeIntervals: p.includeIntervals,
    },
    count: maqamatData.length,
    maqamat: maqamatData,
  };
}

// ---------------------------------------------------------------------------------------------
// Route

const detailRoute = defineRoute({
  path: `${COLLECTION}/{idName}`,
  summary: "One maqām realised in a tuning system and starting note (optionally transposed), its parameter discovery, or every maqām (`all`).",
  response: () => maqamDetailSchemas().maqamDetail,
  params,
  unprocessable: true,
  handle: (p, ctx) => {
    const cat = ctx.catalog;
    // `transposeTo`, `options`, modulations and suyūr do not apply to the list of every maqām.
    if (p.idName === "all") {
      const tuning = resolveTuning(cat, p.tuningSystem, p.startingNote);
      return isAnswer(tuning) ? tuning : ok(allBody(cat, p, tuning));
    }
    const ref = resolveEntity(cat, "maqam", p.idName);
    if (isAnswer(ref)) return ref;
    const m = ref.entity;
    if (p.options) return discovery(cat, p, m, ref.tonic !== undefined);
    const tonic = requestedTonic(cat, ref, "transposeTo", p.transposeTo);
    if (isAnswer(tonic)) return tonic;
    const tuning = resolveTuning(cat, p.tuningSystem, p.startingNote, availabilityHint(m));
    if (isAnswer(tuning)) return tuning;
    const rendering = detailRendering(cat, m, tuning, isPossibleIn(cat, m, tuning.ts, tuning.startingNote), tonic, p.centsTolerance, p.includeArabic);
    if (isAnswer(rendering)) return rendering;
    return ok(detailBody(p, ctx, m, tuning, rendering.list, rendering.t, tonic));
  },
});

export const routes = [detailRoute];
