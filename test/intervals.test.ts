import { describe, it, expect } from "vitest";
import { ask } from "./support/api.js";

const RAST_DUGAH = {
  fraction: "9/8",
  cents: 203.91000173077492,
  decimalRatio: 1.125,
  stringLength: -83.33333333333337,
  fretDivision: 83.33300000000003,
  originalValue: "9/8",
  originalValueType: "fraction",
};

describe("GET /intervals (algorithms.md §10.2)", () => {
  it("one tuning system and starting note: consecutive intervals (the §10.1 worked example), reference frequency recomputed", () => {
    const { status, body } = ask("/intervals", "noteNames=rast,dugah,rast&tuningSystem=ibnsina_1037&startingNote=yegah");
    expect(status).toBe(200);
    expect(body.intervals).toHaveLength(2);
    expect(body.intervals[0].intervalData).toEqual(RAST_DUGAH);
    expect(body.intervals[1].intervalData.fraction).toBe("8/9");
    expect(body.intervals[0].tuningSystemContext).toMatchObject({ startingNote: { idName: "yegah" }, referenceFrequency: 97.99899999999998 });
    expect(body.links.compare).toBe("http://localhost:3000/api/intervals/compare?noteNames=rast,dugah,rast");
  });

  it("without a tuning system, every tuning context that holds all the names, one flat list", () => {
    const { body } = ask("/intervals", "noteNames=R%C4%81st,D%C5%ABg%C4%81h");
    expect(body.context.noteNames).toEqual([
      { idName: "rast", displayName: "rāst" },
      { idName: "dugah", displayName: "dūgāh" },
    ]);
    expect(body.intervals.length).toBeGreaterThan(20);
    expect(body.intervals.every((i: any) => i.fromNote.idName === "rast" && i.toNote.idName === "dugah")).toBe(true);
  });

  it("answers 400 for missing, too few or unknown names and a missing or invalid starting note; 404 for unknown systems and absent notes", () => {
    expect(ask("/intervals").status).toBe(400);
    expect(ask("/intervals", "noteNames=rast").status).toBe(400);
    expect(ask("/intervals", "noteNames=%20,%20,%20").status).toBe(400);
    expect(ask("/intervals", "noteNames=rast,none").body.error).toBe("Invalid note name(s): none");
    expect(ask("/intervals", "noteNames=rast,dugah&tuningSystem=alsabbagh_1954").status).toBe(400);
    expect(ask("/intervals", "noteNames=rast,dugah&tuningSystem=alsabbagh_1954&startingNote=yegah").status).toBe(400);
    expect(ask("/intervals", "noteNames=rast,dugah&tuningSystem=nope&startingNote=rast").status).toBe(404);
    expect(ask("/intervals", "noteNames=rast,qarar_qarar_nim_hisar&tuningSystem=alkindi_874&startingNote=rast").status).toBe(404);
  });
});

describe("GET /intervals/compare (algorithms.md §10.3)", () => {
  it("one cell per tuning system, failed cells reported with an error", () => {
    const { status, body } = ask("/intervals/compare", "noteNames=rast,dugah&tuningSystems=ibnsina_1037,nope&startingNote=yegah");
    expect(status).toBe(200);
    expect(body.meta).toEqual({ totalComparisons: 2, successfulComparisons: 1, failedComparisons: 1 });
    expect(body.comparisons[0].intervals).toEqual([
      { from: { idName: "rast", displayName: "rāst" }, to: { idName: "dugah", displayName: "dūgāh" }, interval: RAST_DUGAH },
    ]);
    expect(body.comparisons[1].error).toBe("Tuning system 'nope' not found");
    expect(body.links.intervals).toBe("http://localhost:3000/api/intervals?noteNames=rast,dugah");
  });

  it("startingNote=all gives one cell per starting note", () => {
    expect(ask("/intervals/compare", "noteNames=rast,dugah&tuningSystems=alkindi_874&startingNote=all").body.meta.totalComparisons).toBe(3);
  });

  it("answers 400 for each missing parameter, all with ids, and unknown names", () => {
    expect(ask("/intervals/compare").status).toBe(400);
    expect(ask("/intervals/compare", "noteNames=rast,dugah&tuningSystems=&startingNote=rast").status).toBe(400);
    expect(ask("/intervals/compare", "noteNames=rast,dugah&tuningSystems=alsabbagh_1954&startingNote=").status).toBe(400);
    expect(ask("/intervals/compare", "noteNames=rast,dugah&tuningSystems=all,ibnsina_1037&startingNote=rast").status).toBe(400);
    expect(ask("/intervals/compare", "noteNames=rast,nowhere&tuningSystems=alsabbagh_1954&startingNote=rast").status).toBe(400);
  });
});

describe("GET /intervals/calculate (algorithms.md §10.4)", () => {
  const calculate = (query: string) => ask("/intervals/calculate", query);

  it("between note names: rounded units, the calculator's pitch classes, links with idNames", () => {
    const { status, body } = calculate("from=rast&to=dugah&tuningSystem=ibnsina_1037&startingNote=yegah&unit=cents");
    expect(status).toBe(200);
    expect(body.interval).toEqual({
      value: 203.91,
      unit: "cents",
      allUnits: { fraction: "9/8", cents: 203.91, decimalRatio: 1.125, stringLength: -83.333, fretDivision: 83.333 },
    });
    expect(body.context.tuningSystem).not.toHaveProperty("version");
    expect(body.from.pitchClass).toMatchObject({ noteName: "rast", fraction: "4/3", fretDivision: 250 });
    expect(body.links.intervals).toBe("http://localhost:3000/api/intervals?noteNames=rast,dugah&tuningSystem=ibnsina_1037&startingNote=yegah");
  });

  it("between values: formats auto-detected or given; centsFromZero is cents", () => {
    const { body } = calculate("from=4%2F3&to=701.955&tuningSystem=alsabbagh_1954&startingNote=rast&unit=centsFromZero");
    expect(body.from.identifier).toEqual({ idName: "4/3", displayName: "4/3" });
    expect(body.to.pitchClass.noteName).toBe("nawa");
    expect(body.interval.value).toBe(body.interval.allUnits.cents);
    expect(
      calculate("from=10000&to=6666.666666666667&tuningSystem=alsabbagh_1954&startingNote=rast&unit=fraction&fromType=stringLength&toType=stringLength").body
        .interval.value,
    ).toBe("3/2");
  });

  it("answers 400 for missing, blank or invalid parameters, 404 for unknown systems and values", () => {
    const base = "from=rast&to=nawa&tuningSystem=alsabbagh_1954&startingNote=rast";
    expect(calculate(base).status).toBe(400);
    expect(calculate(`${base}&unit=bogus`).body.validOptions).toContain("centsFromZero");
    expect(calculate("from=&to=nawa&tuningSystem=alsabbagh_1954&startingNote=rast&unit=cents").status).toBe(400);
    expect(calculate("from=rast&to=%20&tuningSystem=alsabbagh_1954&startingNote=rast&unit=cents").status).toBe(400);
    expect(calculate(`${base}&unit=cents&toType=bogus`).status).toBe(400);
    expect(calculate(`${base}&unit=cents&includeArabic=`).status).toBe(400);
    expect(calculate("from=rast&to=nawa&tuningSystem=nope&startingNote=rast&unit=cents").status).toBe(404);
    expect(calculate("from=rast&to=nawa&tuningSystem=alsabbagh_1954&startingNote=yegah&unit=cents").status).toBe(400);
    expect(calculate("from=nowhere&to=nawa&tuningSystem=alsabbagh_1954&startingNote=rast&unit=cents").status).toBe(404);
    // A string length is never detected: without toType it is read as a fret division.
    expect(calculate("from=rast&to=6666.666666666667&tuningSystem=alsabbagh_1954&startingNote=rast&unit=cents").status).toBe(404);
  });
});
