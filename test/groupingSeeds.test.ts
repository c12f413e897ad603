/**
 * 12-tone groupings made back from their shapes (the seeds a build's planning hands its render
 * workers, src/theory/caches.ts): the same sets, members, pitch classes and clashes as the grouping
 * itself, for every tuning system × starting note, and the same answers' bytes.
 */
import { describe, expect, it } from "vitest";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { serialize } from "../src/serve/handler.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog, type Catalog } from "../src/theory/catalog.js";
import { DEFAULT_CENTS_TOLERANCE } from "../src/theory/defaults.js";
import type { Grouping, GroupingShape } from "../src/theory/pitchClassSets.js";
import { alKindiOf, twelveToneGrouping, twelveToneSeed } from "../src/theory/twelveToneSets.js";
import { findStartingNote } from "../src/theory/tuningSystem.js";

const facts = readFacts();
const computing = createCatalog(facts, "build");
const alKindi = alKindiOf(computing);
const pairs = computing.tuningSystems.flatMap((ts) => ts.startingNotes.filter((note) => findStartingNote(alKindi, note)).map((note) => ({ ts, note })));

/** What an answer reads of a grouping, by the entries' places and the pitch classes' names and cents. */
const readable = (g: Grouping) => ({
  entries: g.entries,
  sets: g.sets.map((s) => ({
    source: s.source.index,
    members: s.members.map((m) => m.index),
    pitchClasses: [...s.pitchClasses].map(([key, pc]) => `${key} ${pc.noteName} ${pc.englishName} ${pc.cents} ${pc.midiNotePlusCentsDeviation}`),
  })),
  incompatible: g.incompatible.map((i) => ({
    entry: i.entry.index,
    clashes: i.clashes.map((c) => `${c.key}: ${c.cells.map((pc) => pc.noteName).join(", ")}`),
  })),
});

const seeded = (seeds: [string, GroupingShape][]): Catalog => createCatalog(facts, "build", { twelveToneGroupings: new Map(seeds) });

describe("a 12-tone grouping made from its shape", () => {
  it("is the grouping itself for every tuning system × starting note al-Kindī's tuning has", () => {
    expect(pairs.length).toBeGreaterThan(40);
    const seeds = pairs.map(({ ts, note }) => twelveToneSeed(computing, ts, note, DEFAULT_CENTS_TOLERANCE));
    const fromSeeds = seeded(seeds);
    let incompatible = 0;
    for (const { ts, note } of pairs) {
      const grouping = twelveToneGrouping(computing, ts, note, DEFAULT_CENTS_TOLERANCE);
      incompatible += grouping.incompatible.length;
      expect(readable(twelveToneGrouping(fromSeeds, ts, note, DEFAULT_CENTS_TOLERANCE)), `${ts.id} ${note}`).toEqual(readable(grouping));
    }
    // The shapes carry incompatible entries too, whose clashes are read again.
    expect(incompatible).toBeGreaterThan(0);
  });

  const cairo = computing.findTuningSystem("cairocongresstuningcommittee_1929")!;
  const [key, shape] = twelveToneSeed(computing, cairo, "yegāh", DEFAULT_CENTS_TOLERANCE);

  it("is read from the seed, not grouped again: sets given in another order come in that order", () => {
    // The first two sets swapped in the shape.
    const first = shape.sets[0] + 1;
    const second = shape.sets[first] + 1;
    const swapped = Int32Array.from([...shape.sets.subarray(first, first + second), ...shape.sets.subarray(0, first), ...shape.sets.subarray(first + second)]);
    const grouping = twelveToneGrouping(seeded([[key, { ...shape, sets: swapped }]]), cairo, "yegāh", DEFAULT_CENTS_TOLERANCE);
    const computed = twelveToneGrouping(computing, cairo, "yegāh", DEFAULT_CENTS_TOLERANCE);
    expect(grouping.sets.map((s) => s.source.index)).toEqual([computed.sets[1], computed.sets[0], ...computed.sets.slice(2)].map((s) => s.source.index));
  });

  it("is grouped again when the shape cannot be the grouping's: another count of entries, a place out of range, an incompatible entry without a clash", () => {
    const computed = readable(twelveToneGrouping(computing, cairo, "yegāh", DEFAULT_CENTS_TOLERANCE));
    const compatible = shape.sets[1];
    for (const wrong of [
      { ...shape, entries: shape.entries + 1 },
      { ...shape, sets: Int32Array.from([2, 0, shape.entries]) },
      { ...shape, incompatible: Int32Array.of(compatible) },
    ])
      expect(readable(twelveToneGrouping(seeded([[key, wrong]]), cairo, "yegāh", DEFAULT_CENTS_TOLERANCE))).toEqual(computed);
  });

  it("gives the same bytes: the classification with its incompatible transpositions, read from C, and a set's tuning files", () => {
    const fromSeed = seeded([[key, shape]]);
    const answer = (cat: Catalog, path: string, query: string) =>
      serialize(dispatch(routes, { catalog: cat, baseUrl: "http://localhost:3000", path, query: new URLSearchParams(query) }));
    const setId = `${twelveToneGrouping(computing, cairo, "yegāh", DEFAULT_CENTS_TOLERANCE).sets[0].source.transposition.idName}_set`;
    for (const [path, query] of [
      [
        "/maqamat/classification/12-pitch-class-sets",
        "includeIncompatible=true&startSetFromC=true&startingNote=yegah&tuningSystem=cairocongresstuningcommittee_1929",
      ],
      [`/exports/pitch-class-sets/cairocongresstuningcommittee_1929/yegah/${setId}.scl`, ""],
      [`/exports/pitch-class-sets/cairocongresstuningcommittee_1929/yegah/${setId}.syx`, ""],
    ]) {
      const bytes = answer(computing, path, query);
      expect(bytes.length).toBeGreaterThan(100);
      expect(Buffer.from(answer(fromSeed, path, query)).equals(Buffer.from(bytes)), path).toBe(true);
    }
  });
});
