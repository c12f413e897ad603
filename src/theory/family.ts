/**
 * Family classification of a maqām realisation (algorithms.md §7.1): the family is named after
 * the first jins on scale degree I, read upwards from the tonic (ascending scale first, then the
 * descending scale read from its bottom note).
 *
 * The specification allows 16 families, while the archive's ajnās name more (ḥuzām, ḥiṣār,
 * mahrān, mustaʿār, …). Only ajnās that name one of the 16 take part in the classification, so
 * the answer is always one of them (docs/deviations.md, "Family classification"); jins nawā athar
 * names the nikrīz family, whose tetrachord it is. A maqām with no such jins on degree I is `no jins`.
 */
import { std } from "./std.js";
import { pitchClassesOf } from "./pitchClass.js";
import { pitchClassesPerOctave, type TuningSystem } from "./tuningSystem.js";
import type { Transposition } from "./transposition.js";
import { candidateAjnas, extendedScales, jinsOnDegree, type CandidateJins } from "./jinsDetection.js";

export interface Family {
  idName: string;
  /** Display name, e.g. `ṣabā zamzam`. */
  name: string;
}

/** The family idNames the specification allows. */
export const FAMILY_ID_NAMES = [
  "ajam",
  "athar_kurd",
  "awj_ara",
  "bayyat",
  "buselik",
  "chahargah",
  "hijaz",
  "iraq",
  "kurd",
  "nahawand",
  "nikriz",
  "no_jins",
  "rast",
  "saba",
  "saba_zamzam",
  "segah",
] as const;

const ALLOWED = new Set<string>(FAMILY_ID_NAMES);

export const NO_JINS: Family = { idName: "no_jins", name: "no jins" };

/** jins nawā athar (rāst dūgāh kurdī ḥijāz) is the nikrīz tetrachord; the archive calls the family `athar`. */
const NAWA_ATHAR_FAMILY = "nikrīz";

/** §7.1 steps 2-4: the family a jins name stands for (`jins ṣabā zamzam al-nawā` → `ṣabā zamzam`). */
export function familyNameOfJins(jinsName: string): string {
  const cut = jinsName.indexOf(" al-");
  const name = (cut >= 0 ? jinsName.slice(0, cut) : jinsName).replace(/^(jins |جنس )/i, "");
  if (name.includes("ṣabā")) return name.includes("zamzam") ? "ṣabā zamzam" : "ṣabā";
  if (name.includes("athar")) return name.includes("kurd") ? "athar kurd" : NAWA_ATHAR_FAMILY;
  if (name.includes("awj")) return name.includes("ʾārāʾ") || name.includes("araa") ? "awj ʾārāʾ" : "awj";
  return name.split(/\s+/)[0];
}

/** The family of a jins name as `{idName, name}`. */
export function familyOfJinsName(jinsName: string): Family {
  const name = familyNameOfJins(jinsName);
  return { idName: std(name), name };
}

const classifyingCache = new WeakMap<readonly CandidateJins[], CandidateJins[]>();

/** The candidate ajnās that name one of the allowed families, in file order. */
function classifyingAjnas(candidates: readonly CandidateJins[]): CandidateJins[] {
  let result = classifyingCache.get(candidates);
  if (!result) {
    result = candidates.filter(({ jins }) => ALLOWED.has(familyOfJinsName(jins.name).idName));
    classifyingCache.set(candidates, result);
  }
  return result;
}

/**
 * The family of a maqām realisation (the detail routes pass transposition-list entry 0) in a
 * tuning system × starting note, with the request's tolerance.
 */
export function familyOf(t: Transposition, ts: TuningSystem, startingNote: string, tolerance: number): Family {
  const pcs = pitchClassesOf(ts, startingNote);
  const candidates = classifyingAjnas(candidateAjnas(pcs));
  const scales = extendedScales(t, pcs, pitchClassesPerOctave(ts));
  const jins = jinsOnDegree(scales.ascending, 0, candidates, tolerance) ?? jinsOnDegree(scales.descending, 0, candidates, tolerance);
  return jins ? familyOfJinsName(jins.jins.name) : NO_JINS;
}
