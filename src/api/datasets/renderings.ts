/**
 * The tables of values: pitch classes per tuning system × starting note, every pre-rendered maqām
 * and jins rendering degree by degree (the renderings the detail answers are written for), the
 * ajnās on each degree, the intervals between consecutive pitch classes and the modulations.
 * Cells come from the functions the JSON answers call (respellScale, ajnasOf, modulationsOf…).
 */
import { defineTable, integer, noteNameColumns, perTuningSystem, pitchValueColumns, real, text, type Column } from "./columns.js";
import { tuningColumns, tuningContexts, type StartingNoteRow } from "./reference.js";
import { realisable } from "../exports/routes.js";
import { prerenderedRenderings } from "../shared/prerender.js";
import type { Catalog } from "../../theory/catalog.js";
import type { Entity } from "../../theory/entity.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import { pitchClassesOf, type PitchClass } from "../../theory/pitchClass.js";
import { transpositionsOf, type Transposition } from "../../theory/transposition.js";
import { respellScale } from "../../theory/respell.js";
import { descendingNumeral, romanNumeral } from "../../theory/degrees.js";
import { ajnasOf, type JinsInstance } from "../../theory/jinsDetection.js";
import { intervalBetween, type Interval } from "../../theory/interval.js";
import { MODULATION_CATEGORIES, modulationsOf, type ModulationTarget } from "../../theory/modulation.js";
import { DEFAULT_CENTS_TOLERANCE } from "../../theory/defaults.js";
import { toIdName } from "../../theory/idName.js";

// ── Pitch classes ─────────────────────────────────────────────────────────────────────────

interface PitchClassRow extends StartingNoteRow {
  pc: PitchClass;
}

export const pitchClasses = defineTable<PitchClassRow>({
  name: "pitch_classes",
  about: "Every pitch class of every tuning system from every starting note, over octaves 0–3, with every value format.",
  row: "a tuning system × starting note × pitch class",
  indexes: [["tuning_system_id", "starting_note", "note_name_id"]],
  ...perTuningSystem<PitchClassRow>(function* (cat, ts) {
    for (const tuning of tuningContexts(ts)) for (const pc of pitchClassesOf(cat, tuning.ts, tuning.startingNote)) yield { ...tuning, pc };
  }),
  columns: [...tuningColumns<PitchClassRow>(), ...noteNameColumns<PitchClassRow>((r) => r.pc), ...pitchValueColumns<PitchClassRow>((r) => r.pc)],
});

// ── Renderings ────────────────────────────────────────────────────────────────────────────

/** A rendering of a maqām or jins in a tuning context: the entity and its transposition. */
interface Rendering extends StartingNoteRow {
  entity: Entity;
  t: Transposition;
}

/**
 * Every rendering the detail answers are pre-rendered for in one tuning system, in the build's
 * order: starting note × entity (catalog order) × the taḥlīl and one register per transposed degree.
 */
export function* renderingsOf(cat: Catalog, ts: TuningSystem, kind: Entity["kind"]): Generator<Rendering> {
  const entities: readonly Entity[] = kind === "maqam" ? cat.maqamat : cat.ajnas;
  for (const tuning of tuningContexts(ts))
    for (const entity of entities) {
      if (!realisable(cat, entity, tuning)) continue;
      for (const t of prerenderedRenderings(cat, transpositionsOf(cat, entity, tuning.ts, tuning.startingNote), { full: false }))
        yield { ...tuning, entity, t };
    }
}

type Direction = "ascending" | "descending";

/** One degree of a rendering in one direction: the cell as the detail answer spells it. */
interface DegreeRow extends Rendering {
  direction: Direction;
  position: number;
  scaleDegree: string;
  pc: PitchClass;
  tonic: PitchClass;
}

/**
 * The degrees of a rendering as its detail answer lists them: a maqām re-spelled (respellScale),
 * ascending I, II, … then descending top-down; a jins's cells as they are.
 */
function* degreesOf(r: Rendering): Generator<DegreeRow> {
  const spelled = r.entity.kind === "maqam" ? respellScale(r.t.ascending, r.t.descending) : { ascending: r.t.ascending, descending: [] };
  const tonic = spelled.ascending[0];
  yield* spelled.ascending.map((pc, k) => ({ ...r, direction: "ascending" as const, position: k, scaleDegree: romanNumeral(k), pc, tonic }));
  const { length } = spelled.descending;
  yield* spelled.descending.map((pc, j) => ({ ...r, direction: "descending" as const, position: j, scaleDegree: descendingNumeral(j, length), pc, tonic }));
}

const renderingColumns = <R extends Rendering>(kind: Entity["kind"]): Column<R>[] => [
  ...tuningColumns<R>(),
  text<R>(`${kind}_id`, `${kind === "maqam" ? "Maqām" : "Jins"} idName of the analytical form`, (r) => r.entity.idName),
  text<R>("rendering_id", "idName of the rendering (the taḥlīl's own, or `<idName>_al_<tonic>`), as the detail answer's path takes it", (r) => r.t.idName),
  text<R>("rendering_name", "Display name of the rendering", (r) => r.t.name),
  text<R>("tonic", "Tonic of the rendering as an idName", (r) => toIdName(r.t.tonic)),
  integer<R>("is_transposed", "1 for a transposition, 0 for the taḥlīl", (r) => Number(r.t.isTransposed)),
];

const degreeColumns = (kind: Entity["kind"]): Column<DegreeRow>[] => [
  ...renderingColumns<DegreeRow>(kind),
  ...(kind === "maqam" ? [text<DegreeRow>("direction", "ascending or descending", (r) => r.direction)] : []),
  integer<DegreeRow>("position", "Order of the degree in its direction as the detail answer lists it (0 …; descending top-down)", (r) => r.position),
  text<DegreeRow>("scale_degree", "Scale degree numeral (I, II, …; descending ones counted from the bottom)", (r) => r.scaleDegree),
  ...noteNameColumns<DegreeRow>((r) => r.pc),
  ...pitchValueColumns<DegreeRow>((r) => r.pc),
  real<DegreeRow>("cents_from_tonic", "Distance above the rendering's tonic", "cents", (r) => r.pc.cents - r.tonic.cents),
];

const RENDERING_INDEXES = [["tuning_system_id", "starting_note", "rendering_id"], ["note_name_id"]] as const;

export const maqamRenderings = defineTable<DegreeRow>({
  name: "maqam_renderings",
  about:
    "Every maqām rendering the detail answers are written for (tuning system × starting note × maqām × taḥlīl and each transposed tonic), degree by degree in both directions, with every value format.",
  row: "a degree of a maqām rendering in one direction",
  // The last: a degree of every rendering (the thirds) read from the index alone, which holds the
  // columns a query reads and those the view joins (src/api/datasets/coded.ts).
  indexes: [
    ...RENDERING_INDEXES,
    ["maqam_id"],
    ["position", "direction", "is_transposed", "maqam_id", "tuning_system_id", "starting_note", "rendering_id", "note_name_id", "cents_from_tonic"],
  ],
  ...perTuningSystem<DegreeRow>(function* (cat, ts) {
    for (const r of renderingsOf(cat, ts, "maqam")) yield* degreesOf(r);
  }),
  columns: degreeColumns("maqam"),
});

export const jinsRenderings = defineTable<DegreeRow>({
  name: "jins_renderings",
  about: "Every jins rendering the detail answers are written for, note by note, with every value format.",
  row: "a note of a jins rendering",
  indexes: [...RENDERING_INDEXES, ["jins_id"]],
  ...perTuningSystem<DegreeRow>(function* (cat, ts) {
    for (const r of renderingsOf(cat, ts, "jins")) yield* degreesOf(r);
  }),
  columns: degreeColumns("jins"),
});

// ── Ajnās on the degrees ──────────────────────────────────────────────────────────────────

interface DegreeJinsRow extends Rendering {
  direction: Direction;
  position: number;
  pc: PitchClass;
  jins: JinsInstance;
}

/** The jins found on each degree of each maqām rendering (`ajnas` of the detail answer), degrees without one left out. */
function* degreeAjnasOf(cat: Catalog, ts: TuningSystem): Generator<DegreeJinsRow> {
  for (const r of renderingsOf(cat, ts, "maqam")) {
    const found = ajnasOf(cat, r.t, r.ts, r.startingNote, DEFAULT_CENTS_TOLERANCE);
    for (const direction of ["ascending", "descending"] as const)
      for (const [position, jins] of found[direction].entries()) if (jins) yield { ...r, direction, position, pc: r.t[direction][position], jins };
  }
}

export const degreeAjnas = defineTable<DegreeJinsRow>({
  name: "degree_ajnas",
  about: "The jins on each degree of each maqām rendering (at the default cents tolerance); degrees on which no jins is found have no row.",
  row: "a jins on a degree of a maqām rendering in one direction",
  indexes: [["tuning_system_id", "starting_note", "rendering_id"], ["jins_id"]],
  ...perTuningSystem(degreeAjnasOf),
  columns: [
    ...tuningColumns<DegreeJinsRow>(),
    text("maqam_id", "Maqām idName of the analytical form", (r) => r.entity.idName),
    text("rendering_id", "idName of the maqām rendering (maqam_renderings.rendering_id)", (r) => r.t.idName),
    text("direction", "ascending or descending", (r) => r.direction),
    integer("position", "Position of the degree (maqam_renderings.position)", (r) => r.position),
    text("note_name", "Note name of the degree, as the tuning system names it", (r) => r.pc.noteName),
    text("jins_id", "idName of the jins's analytical form", (r) => r.jins.jins.idName),
    text("jins_rendering_id", "idName of the jins on this degree (`<idName>_al_<tonic>` when transposed)", (r) => r.jins.idName),
  ],
});

// ── Intervals ─────────────────────────────────────────────────────────────────────────────

interface IntervalRow extends StartingNoteRow {
  from: PitchClass;
  to: PitchClass;
  interval: Interval;
}

export const intervals = defineTable<IntervalRow>({
  name: "intervals",
  about: "The interval between each pair of consecutive pitch classes of every tuning system from every starting note (octaves 0–3).",
  row: "a step between consecutive pitch classes",
  indexes: [["tuning_system_id", "starting_note", "from_note_name_id"]],
  ...perTuningSystem<IntervalRow>(function* (cat, ts) {
    for (const tuning of tuningContexts(ts)) {
      const pcs = pitchClassesOf(cat, tuning.ts, tuning.startingNote);
      for (const [k, to] of pcs.slice(1).entries()) yield { ...tuning, from: pcs[k], to, interval: intervalBetween(pcs[k], to) };
    }
  }),
  columns: [
    ...tuningColumns<IntervalRow>(),
    text("from_note_name_id", "Lower note name as an idName", (r) => toIdName(r.from.noteName)),
    text("to_note_name_id", "Upper note name as an idName", (r) => toIdName(r.to.noteName)),
    integer("from_octave", "Octave of the lower pitch class", (r) => r.from.octave),
    integer("from_pitch_class_index", "Index of the lower pitch class in its octave", (r) => r.from.index),
    text("fraction", "Frequency ratio of the step, exact or approximated below denominator 100", (r) => r.interval.fraction),
    real("cents", "Size of the step", "cents", (r) => r.interval.cents),
    real("decimal_ratio", "Frequency ratio of the step as a decimal", "ratio", (r) => r.interval.decimalRatio),
    real("string_length", "Difference of string lengths (negative going up)", "the tuning system's string-length units", (r) => r.interval.stringLength),
    real("fret_division", "Difference of fret divisions", "the tuning system's string-length units", (r) => r.interval.fretDivision),
  ],
});

// ── Modulations ───────────────────────────────────────────────────────────────────────────

interface ModulationRow extends StartingNoteRow {
  entity: Entity;
  targetKind: "maqam" | "jins";
  category: string;
  target: ModulationTarget;
}

/** al-Shawwā's modulations of each maqām's taḥlīl (the analytical form the detail answer counts them on). */
function* modulationsRows(cat: Catalog, ts: TuningSystem): Generator<ModulationRow> {
  for (const tuning of tuningContexts(ts))
    for (const entity of cat.maqamat) {
      const t = transpositionsOf(cat, entity, tuning.ts, tuning.startingNote)[0];
      if (!t || !realisable(cat, entity, tuning)) continue;
      const found = modulationsOf(cat, entity, t, tuning.ts, tuning.startingNote, DEFAULT_CENTS_TOLERANCE);
      for (const targetKind of ["maqam", "jins"] as const)
        for (const category of MODULATION_CATEGORIES)
          for (const target of found[targetKind === "maqam" ? "maqamat" : "ajnas"][category]) yield { ...tuning, entity, targetKind, category, target };
    }
}

export const modulations = defineTable<ModulationRow>({
  name: "modulations",
  about: "al-Shawwā's modulations (intiqālāt) of each maqām's analytical form in each tuning system × starting note, by degree rule.",
  row: "a modulation from a maqām to a maqām or jins rendering",
  indexes: [["tuning_system_id", "starting_note", "maqam_id"], ["target_id"]],
  ...perTuningSystem(modulationsRows),
  columns: [
    ...tuningColumns<ModulationRow>(),
    text("maqam_id", "Maqām idName; the modulations are those of its taḥlīl", (r) => r.entity.idName),
    text("category", `Degree rule: ${MODULATION_CATEGORIES.join(", ")}`, (r) => r.category),
    text("target_kind", "maqam or jins", (r) => r.targetKind),
    text("target_id", "idName of the target's analytical form", (r) => r.target.entity.idName),
    text("target_rendering_id", "idName of the target rendering", (r) => r.target.transposition.idName),
    text("target_tonic", "Tonic of the target rendering as an idName (the degree modulated on)", (r) => toIdName(r.target.transposition.tonic)),
  ],
});
