/**
 * Family classification of a maqām realisation (docs/algorithms.md §7.1): the family is named after
 * the first jins on scale degree I, read upwards from the tonic (ascending scale first, then the
 * descending scale read from its bottom note); `no jins` when neither has one.
 *
 * The specification lists 16 families, while the archive's ajnās name more (athar, ḥuzām, ḥiṣār,
 * mahrān, …). Those are kept as the jins names them rather than forced into the 16: merging them
 * would misname the maqām and regroup `/maqamat/families` (docs/deviations.md, "Family classification").
 */
import { toIdName } from "./idName.js";
import { pitchClassesOf } from "./pitchClass.js";
import { pitchClassesPerOctave, type TuningSystem } from "./tuningSystem.js";
import type { Transposition } from "./transposition.js";
import type { Catalog } from "./catalog.js";
import { candidateAjnas, extendedScales, jinsOnDegree } from "./jinsDetection.js";

export interface Family {
  idName: string;
  /** Display name, e.g. `ṣabā zamzam`. */
  name: string;
}

/** The family idNames the specification lists (the classification may also yield others, see above). */
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

export const NO_JINS: Family = { idName: "no_jins", name: "no jins" };

/** §7.1 steps 2-4: the family a jins name stands for (`jins ṣabā zamzam al-nawā` → `ṣabā zamzam`). */
export function familyNameOfJins(jinsName: string): string {
  const cut = jinsName.indexOf(" al-");
  const name = (cut >= 0 ? jinsName.slice(0, cut) : jinsName).replace(/^(jins |جنس )/i, "");
  if (name.includes("ṣabā")) return name.includes("zamzam") ? "ṣabā zamzam" : "ṣabā";
  if (name.includes("athar")) return name.includes("kurd") ? "athar kurd" : "athar";
  if (name.includes("awj")) return name.includes("ʾārāʾ") || name.includes("araa") ? "awj ʾārāʾ" : "awj";
  return name.split(/\s+/)[0];
}

/** The family of a jins name as `{idName, name}`. */
function familyOfJinsName(jinsName: string): Family {
  const name = familyNameOfJins(jinsName);
  return { idName: toIdName(name), name };
}

/**
 * The family of a maqām realisation (the detail routes pass transposition-list entry 0) in a
 * tuning system × starting note, with the request's tolerance.
 */
export function familyOf(cat: Catalog, t: Transposition, ts: TuningSystem, startingNote: string, tolerance: number): Family {
  const pcs = pitchClassesOf(cat, ts, startingNote);
  const candidates = candidateAjnas(cat, pcs);
  const scales = extendedScales(t, pcs, pitchClassesPerOctave(ts));
  const jins = jinsOnDegree(cat.notes, scales.ascending, 0, candidates, tolerance) ?? jinsOnDegree(cat.notes, scales.descending, 0, candidates, tolerance);
  return jins ? familyOfJinsName(jins.jins.name) : NO_JINS;
}
