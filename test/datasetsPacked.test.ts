/**
 * Rows packed as numbers (src/api/datasets/packed.ts), over every sliced table of two tuning
 * systems of the archive: unpacked, they are the rows as JSON keeps them; coded for the
 * database, they are the rows coded one cell at a time (codingOf); a cell of the wrong kind is
 * refused, not packed as something else.
 */
import { describe, expect, it } from "vitest";
import { SLICED_TABLES } from "../scripts/datasetSlices.js";
import { codingOf, countsOf, newCodes, storedSlots } from "../src/api/datasets/coded.js";
import type { Cell } from "../src/api/datasets/columns.js";
import { codedRowsOf, packRows, unpackRows } from "../src/api/datasets/packed.js";
import { cellsOf } from "../src/api/datasets/write.js";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";

const cat = createCatalog(readFacts(), "build");
const systems = [cat.tuningSystems[0], cat.tuningSystems[cat.tuningSystems.length - 1]];

describe("rows packed as numbers", () => {
  it("unpack to the rows as JSON keeps them, and code as the rows coded cell by cell", () => {
    for (const table of SLICED_TABLES) {
      const codes = newCodes();
      for (const ts of systems) {
        const { rows } = cellsOf(cat, table, ts);
        expect(rows.length, `${table.name} of ${ts.id}`).toBeGreaterThan(0);
        const { packed, counts } = packRows(table, rows);
        // The counts of the one pass are countsOf's, in the same order (a packed index is a place in that order).
        expect([...counts.labels], `${table.name} of ${ts.id}`).toEqual([...countsOf(table, rows).labels]);
        expect([...counts.groups].map(([name, c]) => [name, [...c]])).toEqual([...countsOf(table, rows).groups].map(([name, c]) => [name, [...c]]));
        expect(packed.length).toBe(rows.length * storedSlots(table).length);
        expect(unpackRows(table, packed, counts), `${table.name} of ${ts.id}`).toEqual(JSON.parse(JSON.stringify(rows)));
        // The second tuning system codes after the first, as the database does part after part.
        const { code } = codingOf(codes, table, counts);
        expect([...codedRowsOf(table, packed, counts, codes)], `${table.name} of ${ts.id}`).toEqual(rows.map(code));
      }
    }
  });

  it("keeps a number as JSON does, and a null as null", () => {
    const table = SLICED_TABLES.find((t) => t.columns.some((c) => c.type === "real" && !c.group));
    if (!table) throw new Error("no sliced table with a real column of its own");
    const at = table.columns.findIndex((c) => c.type === "real" && !c.group);
    const [row] = cellsOf(cat, table, systems[0]).rows;
    const variants: [Cell, Cell][] = [
      [-0, 0],
      [Number.POSITIVE_INFINITY, null],
      [null, null],
      [1200.5, 1200.5],
    ];
    for (const [given, kept] of variants) {
      const rows = [row.map((cell, k) => (k === at ? given : cell))];
      const { packed, counts } = packRows(table, rows);
      const [back] = unpackRows(table, packed, counts);
      expect(Object.is(back[at], kept), `${String(given)} kept as ${String(back[at])}`).toBe(true);
    }
    const text = table.columns.findIndex((c) => c.type === "text" && !c.group);
    const wrong = [row.map((cell, k) => (k === text ? 7 : cell))];
    expect(() => packRows(table, wrong)).toThrowError(/text column .* holds the number 7/);
  });
});
