/**
 * Seeded requests for the parameter combinations no pre-rendered file holds: the detail routes
 * with Arabic, intervals, suyūr, modulations and every data type; discovery mode; every compare
 * route; the interval routes; the classification filters and data types; modulation routes. The
 * contract test validates their answers as it validates the files.
 */
import type { Catalog } from "../../src/theory/catalog.js";
import { PITCH_CLASS_DATA_TYPES } from "../../src/api/shared/pitchClassValues.js";
import { toIdName } from "../../src/theory/idName.js";
import { pitchClassesOf } from "../../src/theory/pitchClass.js";
import { findStartingNote } from "../../src/theory/tuningSystem.js";
import { random } from "./api.js";

/** The query string of pairs, undefined values left out. */
const query = (pairs: [string, string | undefined][]) => {
  const q = new URLSearchParams();
  for (const [k, v] of pairs) if (v !== undefined) q.append(k, v);
  return q.toString();
};

const MAQAM_DATA_TYPES = [...PITCH_CLASS_DATA_TYPES, "pitchClassIndex", "scaleDegree"];
const TWELVE_TONE_DATA_TYPES = [...PITCH_CLASS_DATA_TYPES, "relativeCents"];
const UNITS = ["fraction", "cents", "centsFromZero", "decimalRatio", "stringLength", "fretDivision"];

/**
 * `count` requests of each kind below, drawn with `seed`. The detail variants start from a
 * pre-rendered maqām or jins detail request (`prerendered`), so that most answers are 200s.
 */
export function requestVariants(cat: Catalog, prerendered: readonly string[], count: number, seed: number): string[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const maybe = (value: string) => (next() < 0.5 ? value : undefined);
  const flag = (name: string): [string, string | undefined] => [name, maybe("true")];
  const details = (prefix: string) => prerendered.filter((r) => r.startsWith(prefix) && r.includes("tuningSystem="));
  const maqamDetails = details("/maqamat/maqam_").filter((r) => !/\/(availability|transpositions)\?/.test(r));
  const jinsDetails = details("/ajnas/jins_").filter((r) => !/\/(availability|transpositions)\?/.test(r));
  const systems = cat.tuningSystems;
  const noteIds = cat.notes.allNoteNames.map((n) => n.idName);
  const namesIn = (id: string, startingNote: string) => {
    const ts = systems.find((t) => t.id === id)!;
    const names = pitchClassesOf(cat, ts, findStartingNote(ts, startingNote)!).map((pc) => pc.noteName);
    return names.filter((n) => n !== "none").map(toIdName);
  };
  const tuning = () => {
    const ts = pick(systems);
    return { ts: ts.id, startingNote: toIdName(pick(ts.startingNotes)) };
  };
  const systemList = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => (next() < 0.1 ? "no_such_system" : pick(systems).id)).join(",");
  const startingNoteList = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => toIdName(pick(pick(systems).startingNotes))).join(",");
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const [path, base] = pick(maqamDetails).split("?");
    out.push(
      `${path}?${base}&${query([
        ["pitchClassDataType", maybe(pick(MAQAM_DATA_TYPES))],
        flag("includeArabic"),
        flag("includeIntervals"),
        flag("includeSources"),
        flag("includeSuyur"),
        // Modulations are the costly block: one request in four.
        ["includeModulations", next() < 0.25 ? "true" : undefined],
        flag("includeModulations8vb"),
      ])}`,
    );
    const t = tuning();
    out.push(
      `/maqamat/all?${query([["tuningSystem", t.ts], ["startingNote", t.startingNote], ["pitchClassDataType", maybe(pick(MAQAM_DATA_TYPES))], flag("includeArabic"), flag("includeIntervals")])}`,
    );
    const [jinsPath, jinsQuery] = pick(jinsDetails).split("?");
    out.push(
      `${jinsPath}?${jinsQuery}&${query([["pitchClassDataType", maybe(pick(PITCH_CLASS_DATA_TYPES))], flag("includeArabic"), flag("includeIntervals"), flag("includeSources")])}`,
    );
    // Discovery mode takes a base idName and the tuning system, the starting note optionally.
    const dt = tuning();
    const discovery = query([
      ["tuningSystem", dt.ts],
      ["startingNote", maybe(dt.startingNote)],
      ["options", "true"],
    ]);
    out.push(`/maqamat/${pick(cat.maqamat).idName}?${discovery}`, `/ajnas/${pick(cat.ajnas).idName}?${discovery}`);
    for (const [collection, ids] of [
      ["/maqamat", cat.maqamat.map((m) => m.idName)],
      ["/ajnas", cat.ajnas.map((j) => j.idName)],
    ] as const) {
      const id = pick(ids);
      out.push(
        `${collection}/${id}/compare?${query([
          ["tuningSystems", systemList()],
          ["startingNotes", startingNoteList()],
          ["pitchClassDataType", maybe(pick(PITCH_CLASS_DATA_TYPES))],
          ["includeIntervals", maybe("true")],
          ["transposeTo", maybe(pick(noteIds))],
          flag("includeArabic"),
        ])}`,
      );
      out.push(`${collection}/${id}/availability?${query([["transpositionNoteName", maybe(pick(noteIds))], flag("includeArabic")])}`);
      const tt = tuning();
      out.push(
        `${collection}/${id}/transpositions?${query([
          ["tuningSystem", tt.ts],
          ["startingNote", tt.startingNote],
          ["includeArabic", "true"],
        ])}`,
      );
    }
    const nt = tuning();
    // Note names the tuning system has from that starting note, so that most answers are 200s.
    const named = namesIn(nt.ts, nt.startingNote);
    const note = pick(named);
    out.push(
      `/pitch-classes/note-names/${note}?${query([
        ["tuningSystem", nt.ts],
        ["startingNote", next() < 0.3 ? "all" : nt.startingNote],
        ["pitchClassDataType", maybe(pick(PITCH_CLASS_DATA_TYPES))],
        flag("includeArabic"),
      ])}`,
    );
    out.push(
      `/pitch-classes/note-names/${note}/compare?${query([["tuningSystems", systemList()], ["startingNote", next() < 0.3 ? "all" : nt.startingNote], ["pitchClassDataType", maybe(pick(PITCH_CLASS_DATA_TYPES))], flag("includeArabic")])}`,
    );
    out.push(
      `/tuning-systems/${nt.ts}/${nt.startingNote}/pitch-classes?${query([["pitchClassDataType", maybe(pick(PITCH_CLASS_DATA_TYPES))], flag("includeArabic"), flag("includeSources")])}`,
    );
    out.push(
      `/tuning-systems/${nt.ts}/${nt.startingNote}/maqamat?${query([flag("includeMaqamDegrees"), flag("includeDegreeDetails"), flag("includeTranspositions"), flag("includeArabic")])}`,
    );
    out.push(`/tuning-systems/${nt.ts}/${nt.startingNote}/ajnas?${query([flag("includeJinsDegrees"), flag("includeTranspositions"), flag("includeArabic")])}`);
    const notes = Array.from({ length: 2 + Math.floor(next() * 3) }, () => pick(named)).join(",");
    out.push(
      `/intervals?${query([["noteNames", notes], ["tuningSystem", maybe(nt.ts)], ["startingNote", next() < 0.3 ? "all" : nt.startingNote], flag("includeArabic")])}`,
    );
    out.push(
      `/intervals/compare?${query([["noteNames", notes], ["tuningSystems", systemList()], ["startingNote", next() < 0.3 ? "all" : nt.startingNote], flag("includeArabic")])}`,
    );
    out.push(
      `/intervals/calculate?${query([["from", pick(named)], ["to", pick(named)], ["tuningSystem", nt.ts], ["startingNote", nt.startingNote], ["unit", pick(UNITS)], flag("includeArabic")])}`,
    );
    const maqamId = maybe(pick(cat.maqamat).idName);
    out.push(
      `/maqamat/classification/12-pitch-class-sets?${query([
        ["maqamId", maqamId],
        ["pitchClassDataType", maybe(pick(TWELVE_TONE_DATA_TYPES))],
        flag("startSetFromC"),
        flag("includeIncompatible"),
        flag("includeArabic"),
      ])}`,
    );
    out.push(
      `/maqamat/classification/maqam-pitch-class-sets?${query([["tuningSystem", nt.ts], ["startingNote", nt.startingNote], ["maqamId", maqamId], flag("includePitchClassData"), flag("includeIncompatible"), flag("includeArabic")])}`,
    );
    out.push(
      `/modulation-routes?${query([
        ["tuningSystem", "alsabbagh_1954"],
        ["startingNote", "rast"],
        ["fromMaqam", pick(cat.maqamat).idName],
        ["toMaqam", pick(cat.maqamat).idName],
        ["maxHops", String(1 + Math.floor(next() * 3))],
        ["maxRoutes", maybe("3")],
        ["waypoints", next() < 0.2 ? pick(cat.maqamat).idName : undefined],
        flag("returnToStartingMaqam"),
        flag("limitToShortestHops"),
        flag("allowOctaveJumps"),
        flag("allowDownwardModulation"),
        flag("includeArabic"),
      ])}`,
    );
  }
  return out;
}
