import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { ROUTES_SERVED_LIMIT } from "../src/api/modulations/routes.js";

import { modulationGraphOf, nodeKey, EDGE_CATEGORIES } from "../src/theory/modulationGraph.js";
import { routesThrough, searchBudget, type SearchOptions } from "../src/theory/routeSearch.js";

interface Node {
  maqamIdName: string;
  tonicId: string;
}
interface Step {
  from: Node;
  to: Node;
  modulationDegree: string;
  modulationCategory: string;
}
interface Body {
  error?: string;
  message?: string;
  hint?: string;
  validOptions?: string[];
  searchLimitReached?: boolean;
  totalPossibleRoutes: {
    outboundRoutesCount: number;
    returnRoutesCount?: number;
    data: { routeNumber: number; outboundRoute: { hops: number; steps: Step[] } }[];
  };
  possibleReturnRoutes?: { data: { routeNumber: number; hops: number; steps: Step[] }[] };
  context: { sourceNode: Node; targetNode: Node; waypoints?: Node[]; searchConstraints: Record<string, unknown> };
}

const BASE = "tuningSystem=alsabbagh_1954&startingNote=rast";

function get(query: string): { status: number; body: Body } {
  const response = dispatch(routes, { catalog, baseUrl: "http://localhost:3000", path: "/modulation-routes", query: new URLSearchParams(query) });
  return response as { status: number; body: Body };
}

const outbound = (body: Body) => body.totalPossibleRoutes.data.map((d) => d.outboundRoute);
const label = (steps: Step[]) => steps.map((s) => `${s.to.maqamIdName} ${s.modulationDegree}`).join(" → ");

describe("GET /modulation-routes", () => {
  it("answers the §9.5 shape: rāst to ṣabā through sullam krūmātīkī (I) then III", () => {
    const { status, body } = get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3`);
    expect(status).toBe(200);
    expect(body.totalPossibleRoutes.outboundRoutesCount).toBe(10);
    const [first] = body.totalPossibleRoutes.data;
    expect(first.routeNumber).toBe(1);
    expect(label(first.outboundRoute.steps)).toBe("sullam_krumatiki_al_rast I → maqam_saba III");
    expect(first.outboundRoute.steps[0].from).toEqual({
      maqamId: "1",
      maqamIdName: "maqam_rast",
      maqamDisplayName: "maqām rāst",
      tonicId: "rast",
      tonicDisplay: "rāst",
      isTransposition: false,
    });
    expect(first.outboundRoute.steps[1]).toMatchObject({ modulationDegree: "III", modulationCategory: "thirdDegree" });
    expect(body.context.targetNode).toMatchObject({ maqamIdName: "maqam_saba", tonicId: "dugah" });
    expect(body.context.searchConstraints).toEqual({
      maxHops: 3,
      maxRoutes: 10,
      returnToStartingMaqam: false,
      limitToShortestHops: false,
      allowOctaveJumps: false,
      allowDownwardModulation: false,
      centsTolerance: 5,
    });
  });

  it("limitToShortestHops=true keeps only the minimum hop count; false fills with longer simple routes, shortest first", () => {
    const shortest = outbound(get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&limitToShortestHops=true`).body);
    expect(shortest.map((r) => r.hops)).toEqual([2]);
    const all = outbound(get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&limitToShortestHops=false`).body);
    expect(all.map((r) => r.hops)).toEqual([2, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
    expect(all[0].steps).toEqual(shortest[0].steps);
  });

  it("a register shift is used only with allowOctaveJumps", () => {
    const query = `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_rast&toTonic=qarar_rast&maxHops=1`;
    expect(get(query).body.totalPossibleRoutes.outboundRoutesCount).toBe(0);
    const steps = outbound(get(`${query}&allowOctaveJumps=true`).body)[0].steps;
    expect(steps.map((s) => [s.to.maqamIdName, s.modulationDegree, s.modulationCategory])).toEqual([["maqam_rast_al_qarar_rast", "8vb", "octaveBelow"]]);
  });

  it("a modulation landing an octave below is used only with allowDownwardModulation", () => {
    const query = `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_segah&toTonic=qarar_segah&maxHops=1`;
    expect(get(query).body.totalPossibleRoutes.outboundRoutesCount).toBe(0);
    expect(get(`${query}&allowOctaveJumps=true`).body.totalPossibleRoutes.outboundRoutesCount).toBe(0);
    const steps = outbound(get(`${query}&allowDownwardModulation=true`).body)[0].steps;
    expect(steps.map((s) => [s.to.maqamIdName, s.modulationDegree, s.modulationCategory])).toEqual([
      ["maqam_segah_al_qarar_segah", "III-8vb", "thirdDegreeOctaveBelow"],
    ]);
  });

  it("routes through waypoints visit them in order; legs share maxHops (⌈4/3⌉ = 2 each)", () => {
    const { body } = get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=4&waypoints=maqam_bayyat:dugah,maqam_hijaz&maxRoutes=3`);
    expect(body.context.waypoints?.map((w) => `${w.maqamIdName}:${w.tonicId}`)).toEqual(["maqam_bayyat:dugah", "maqam_hijaz:dugah"]);
    const routesFound = outbound(body);
    expect(routesFound.map((r) => r.hops)).toEqual([4, 5, 5]);
    for (const route of routesFound) {
      const visited = route.steps.map((s) => s.to.maqamIdName);
      const bayyat = visited.indexOf("maqam_bayyat");
      expect(bayyat).toBeGreaterThanOrEqual(0);
      expect(visited.indexOf("maqam_hijaz", bayyat)).toBeGreaterThan(bayyat);
      expect(visited.at(-1)).toBe("maqam_saba");
    }
  });

  it("returnToStartingMaqam adds routes from the target back to the source", () => {
    const { body } = get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_nahawand&maxHops=3&returnToStartingMaqam=true&maxRoutes=3`);
    expect(body.totalPossibleRoutes.returnRoutesCount).toBe(3);
    const back = body.possibleReturnRoutes!.data;
    expect(back.map((r) => [r.routeNumber, r.hops])).toEqual([
      [1, 1],
      [2, 2],
      [3, 2],
    ]);
    for (const r of back) {
      expect(r.steps[0].from.maqamIdName).toBe("maqam_nahawand");
      expect(r.steps.at(-1)!.to.maqamIdName).toBe("maqam_rast");
    }
  });

  it("reports returnRoutesCount 0 with an empty list when only the return fails", () => {
    const { body } = get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&returnToStartingMaqam=true`);
    expect(body.totalPossibleRoutes.returnRoutesCount).toBe(0);
    expect(body.possibleReturnRoutes).toEqual({ data: [] });
  });

  it("a maqām to itself is one route of 0 hops, both ways", () => {
    const { body } = get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_rast&maxHops=3&returnToStartingMaqam=true`);
    expect(outbound(body)).toEqual([{ hops: 0, steps: [] }]);
    expect(body.possibleReturnRoutes!.data).toEqual([{ routeNumber: 1, hops: 0, steps: [] }]);
  });

  it("no route: 200 with a message, the context and no return search", () => {
    const { status, body } = get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=1&returnToStartingMaqam=true`);
    expect(status).toBe(200);
    expect(body.totalPossibleRoutes).toEqual({ outboundRoutesCount: 0, data: [] });
    expect(body.message).toBe("No path found from 'maqam_rast' to 'maqam_saba' within 1 hops");
    expect(body.possibleReturnRoutes).toBeUndefined();
    expect(body.context.sourceNode.maqamIdName).toBe("maqam_rast");
  });

  it("includeArabic adds Arabic names to nodes and context", () => {
    const { body } = get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=2&limitToShortestHops=true&includeArabic=true`);
    expect(body.context.sourceNode).toMatchObject({ maqamDisplayNameAr: "مقام راست", tonicDisplayAr: "راست" });
    expect(body.context).toMatchObject({ startingNote: { idName: "rast", displayName: "rast", displayNameAr: "رَست" } });
  });

  it("serves at most ROUTES_SERVED_LIMIT routes and says so", () => {
    const { body } = get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=20&maxRoutes=5000&allowOctaveJumps=true`);
    expect(body.totalPossibleRoutes.outboundRoutesCount).toBe(ROUTES_SERVED_LIMIT);
    expect(body.searchLimitReached).toBe(true);
    expect(body.message).toMatch(/At most 1000 routes/);
    expect(body.context.searchConstraints.maxRoutes).toBe(5000);
  });

  it("maxHops=20 with waypoints, return routes and every flag answers within the time bound", () => {
    const started = performance.now();
    const { status, body } = get(
      "tuningSystem=ronzevalle_1904&startingNote=ushayran&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=20&maxRoutes=1000&returnToStartingMaqam=true&allowOctaveJumps=true&allowDownwardModulation=true&waypoints=maqam_bayyat,maqam_hijaz,maqam_kurd,maqam_nahawand,maqam_segah",
    );
    expect(status).toBe(200);
    expect(body.totalPossibleRoutes.outboundRoutesCount).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe("GET /modulation-routes errors (§9.1 order, then §9.3)", () => {
  const cases: [string, string, number, RegExp][] = [
    ["negative centsTolerance", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&centsTolerance=-1`, 400, /centsTolerance/],
    ["centsTolerance before a missing tuningSystem", "fromMaqam=maqam_rast&maxHops=3&centsTolerance=abc", 400, /centsTolerance/],
    ["empty includeArabic", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&includeArabic=`, 400, /includeArabic/],
    ["includeArabic neither true nor false", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&includeArabic=yes`, 400, /includeArabic/],
    ["missing tuningSystem", "startingNote=rast&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3", 400, /tuningSystem parameter is required/],
    ["missing startingNote", "tuningSystem=alsabbagh_1954&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3", 400, /startingNote parameter is required/],
    ["missing fromMaqam", `${BASE}&toMaqam=maqam_saba&maxHops=3`, 400, /fromMaqam parameter is required/],
    ["blank fromMaqam", `${BASE}&fromMaqam=&toMaqam=maqam_saba&maxHops=3`, 400, /fromMaqam parameter is required/],
    ["blank toMaqam", `${BASE}&fromMaqam=maqam_rast&toMaqam=%20&maxHops=3`, 400, /toMaqam parameter is required/],
    ["missing maxHops", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba`, 400, /maxHops parameter is required/],
    ["blank maxHops", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=%20`, 400, /maxHops parameter is required/],
    ["maxHops 0", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=0`, 400, /maxHops must be a positive integer/],
    ["maxHops not a number", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=many`, 400, /maxHops must be a positive integer/],
    ["maxHops 21", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=21`, 400, /maxHops cannot exceed 20/],
    ["maxHops before a bad waypoint", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=21&waypoints=:rast`, 400, /maxHops cannot exceed 20/],
    ["maxRoutes 0", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&maxRoutes=0`, 400, /maxRoutes must be a positive integer/],
    ["maxRoutes not a number", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&maxRoutes=x`, 400, /maxRoutes must be a positive integer/],
    [
      "waypoint without a maqām",
      `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&waypoints=maqam_bayyat,:dugah`,
      400,
      /Invalid waypoint format: ':dugah'/,
    ],
    ["waypoint with two colons", `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&waypoints=maqam_bayyat:dugah:x`, 400, /Invalid waypoint format/],
    [
      "more waypoints than hops allow",
      `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&waypoints=${Array(20).fill("maqam_bayyat").join(",")}`,
      400,
      /Too many waypoints/,
    ],
    ["unknown tuning system", "tuningSystem=nope&startingNote=rast&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3", 404, /Tuning system 'nope' not found/],
    [
      "invalid starting note",
      "tuningSystem=alsabbagh_1954&startingNote=dugah&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3",
      400,
      /Invalid starting note 'dugah'/,
    ],
    ["unknown source maqām", `${BASE}&fromMaqam=maqam_nope&toMaqam=maqam_saba&maxHops=3`, 404, /^Source maqam: Maqam 'maqam_nope' not found/],
    ["numeric id", `${BASE}&fromMaqam=1&toMaqam=15&maxHops=3`, 404, /^Source maqam: Maqam '1' not found/],
    ["transposed idName", `${BASE}&fromMaqam=maqam_rast_al_nawa&toMaqam=maqam_saba&maxHops=3`, 400, /^Source maqam: 'maqam_rast_al_nawa' is a transposition/],
    [
      "source not realisable",
      "tuningSystem=alkindi_874&startingNote=rast&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3",
      400,
      /^Source maqam: Maqam 'maqam_rast' is not available/,
    ],
    [
      "target tonic not available",
      `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3&toTonic=husayni`,
      400,
      /^Target maqam: Maqam 'maqam_saba' with tonic 'husayni' is not available/,
    ],
    [
      "waypoint tonic not available",
      `${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=4&waypoints=maqam_bayyat,maqam_nahawand:nawa`,
      400,
      /^Waypoint maqam 'maqam_nahawand': Maqam 'maqam_nahawand' with tonic 'nawa'/,
    ],
  ];
  for (const [name, query, status, error] of cases)
    it(`${name} → ${status}`, () => {
      const response = get(query);
      expect(response.status).toBe(status);
      expect(Object.keys(response.body).slice(0, 3)).toEqual(["error", "message", "hint"]);
      expect(response.body.error).toMatch(error);
    });

  it("the startingNote error lists the system's starting notes, or none for an unknown system", () => {
    expect(get("tuningSystem=alsabbagh_1954&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3").body.validOptions).toEqual(["rāst"]);
    expect(get("tuningSystem=nope&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3").body.validOptions).toEqual([]);
  });

  it("parses maxHops like parseInt (3abc is 3, 1e1 is 1) and defaults an empty maxRoutes to 10", () => {
    expect(get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=3abc&maxRoutes=`).body.context.searchConstraints).toMatchObject({
      maxHops: 3,
      maxRoutes: 10,
    });
    expect(get(`${BASE}&fromMaqam=maqam_rast&toMaqam=maqam_saba&maxHops=1e1`).body.context.searchConstraints.maxHops).toBe(1);
  });
});

describe("modulation graph and search (§9.2, §9.4)", () => {
  const ts = catalog.findTuningSystem("alsabbagh_1954")!;
  const graph = modulationGraphOf(catalog, ts, "rāst", 5);
  const rast = catalog.maqamat.find((m) => m.idName === "maqam_rast")!;
  const options: SearchOptions = { maxHops: 20, maxRoutes: 1000, shortestOnly: false, allowOctaveJumps: true, allowDownwardModulation: true };

  it("has one node per rendering and the 18 edge categories", () => {
    expect(EDGE_CATEGORIES).toHaveLength(18);
    expect(graph.nodes.length).toBe(924);
    expect(graph.analyticalNode.get(rast)).toBe(graph.byKey.get(nodeKey(rast, "rāst")));
  });

  it("links register neighbours both ways after the modulation edges", () => {
    const u = graph.byKey.get(nodeKey(rast, "rāst"))!;
    const { offset, node, category } = graph.outgoing;
    const names = Array.from(category.subarray(offset[u], offset[u + 1]), (c) => EDGE_CATEGORIES[c].name);
    expect(names.slice(-2)).toEqual(["octaveBelow", "octaveAbove"]);
    expect(graph.nodes[node[offset[u + 1] - 1]].transposition.tonic).toBe("kurdān");
  });

  it("is built once per tuning system × starting note × tolerance", () => {
    expect(modulationGraphOf(catalog, ts, "rāst", 5)).toBe(graph);
    const small = catalog.findTuningSystem("alfarabi_950j")!;
    const g5 = modulationGraphOf(catalog, small, "rāst", 5);
    expect(modulationGraphOf(catalog, small, "rāst", 5)).toBe(g5);
    expect(modulationGraphOf(catalog, small, "rāst", 6)).not.toBe(g5);
  });

  it("stops when the budget of examined edges is spent and keeps what it found, shortest first", () => {
    const start = graph.analyticalNode.get(rast)!;
    const end = graph.analyticalNode.get(catalog.maqamat.find((m) => m.idName === "maqam_saba")!)!;
    const unbounded = routesThrough(graph, [start, end], options, searchBudget(Number.MAX_SAFE_INTEGER));
    const budget = searchBudget(200_000);
    const bounded = routesThrough(graph, [start, end], options, budget);
    expect(budget.exhausted).toBe(true);
    expect(bounded.length).toBeGreaterThan(0);
    expect(bounded.length).toBeLessThan(unbounded.length);
    expect(bounded).toEqual(unbounded.slice(0, bounded.length));
  });

  it("every route is a simple path of allowed edges", () => {
    const start = graph.analyticalNode.get(rast)!;
    const end = graph.analyticalNode.get(catalog.maqamat.find((m) => m.idName === "maqam_hijaz")!)!;
    const found = routesThrough(graph, [start, end], { ...options, allowOctaveJumps: false, allowDownwardModulation: false, maxHops: 4 }, searchBudget(1e9));
    expect(found.length).toBe(1000);
    for (const route of found) {
      const visited = [start, ...route.map((h) => h.to)];
      expect(new Set(visited).size).toBe(visited.length);
      expect(route.every((h) => EDGE_CATEGORIES[h.category].kind === "modulation")).toBe(true);
      expect(route.every((h, i) => i === 0 || h.from === route[i - 1].to)).toBe(true);
    }
  });
});
