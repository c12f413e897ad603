/** GET /modulation-routes: routes of al-Shawwā modulations between two maqām renderings. */
import { apiError, ok, type ErrorAnswer, type ErrorExtras, type ErrorSpec, type ErrorStatus, isAnswer } from "../errors.js";
import { defineRoute, type RequestContext } from "../route.js";
import { splitList, type ParsedParams } from "../params.js";
import { centsTolerance, flag, handlerChecked, includeArabic } from "../declare.js";
import { findTransposition, resolveTuning } from "../resolve.js";
import { noteRef } from "../shared/format.js";
import type { TuningSystem } from "../../theory/tuningSystem.js";
import type { Maqam } from "../../theory/entity.js";
import type { Catalog } from "../../theory/catalog.js";
import { isPossibleIn } from "../../theory/realisation.js";
import { transpositionsOf } from "../../theory/transposition.js";
import { EDGE_CATEGORIES, modulationGraphOf, nodeKey, type ModulationGraph } from "../../theory/modulationGraph.js";
import { routesThrough, searchBudget, type Route, type SearchOptions } from "../../theory/routeSearch.js";
import { entityNameToArabic, noteNameToArabic } from "../../theory/arabic.js";
import { toIdName } from "../../theory/idName.js";
import { modulationSchemas } from "./schemas.js";

/** The specification's ceiling on hops per request. */
const MAX_HOPS = 20;
/**
 * Edges the searches of one direction may examine (a few tenths of a second): iterative
 * deepening over simple paths through several waypoints could otherwise run for minutes.
 */
export const EXPLORED_EDGES_LIMIT = 50_000_000;
/** Routes served per direction whatever maxRoutes asks for, to keep answers to a few MB. */
export const ROUTES_SERVED_LIMIT = 1000;

interface Endpoint {
  maqam: string;
  tonic?: string;
}

interface RouteQuery {
  tuningSystem: string;
  startingNote: string;
  from: Endpoint;
  to: Endpoint;
  waypoints: Endpoint[];
  maxHops: number;
  maxRoutes: number;
}

const blankToUndefined = (raw: string | undefined): string | undefined => (raw === undefined || raw.trim() === "" ? undefined : raw);

const requiredParameter = (name: string, hint: string, extra?: Record<string, unknown>): ErrorAnswer =>
  apiError({
    error: `${name} parameter is required`,
    message: `The query parameter '${name}' is required and must not be blank.`,
    hint,
    extra,
  });

/** `parseInt` semantics (`3.7` → 3, `3abc` → 3) and at least 1. */
function positiveInteger(raw: string): number | undefined {
  const n = parseInt(raw, 10);
  return Number.isNaN(n) || n < 1 ? undefined : n;
}

/** `maqamId` or `maqamId:tonicId`; blank items are skipped. */
function parseWaypoints(raw: string | undefined): Endpoint[] | ErrorSpec {
  const waypoints: Endpoint[] = [];
  for (const item of splitList(raw ?? "")) {
    const parts = item.split(":").map((p) => p.trim());
    if (parts[0] === "" || parts.length > 2)
      return {
        error: `Invalid waypoint format: '${item}'`,
        message: "Each waypoint is a maqām idName, optionally followed by ':' and a tonic note name.",
        hint: "Use e.g. waypoints=maqam_bayyat:dugah,maqam_hijaz",
      };
    waypoints.push({ maqam: parts[0], tonic: blankToUndefined(parts[1]) });
  }
  // Every waypoint adds a leg of at least one hop, so more than this cannot fit in MAX_HOPS hops.
  if (waypoints.length > MAX_HOPS - 1)
    return {
      error: `Too many waypoints: ${waypoints.length}`,
      message: `A route through more than ${MAX_HOPS - 1} waypoints would need more than ${MAX_HOPS} hops.`,
      hint: `Give at most ${MAX_HOPS - 1} waypoints.`,
    };
  return waypoints;
}

type RawQuery = Partial<
  Record<"tuningSystem" | "startingNote" | "fromMaqam" | "fromTonic" | "toMaqam" | "toTonic" | "maxHops" | "maxRoutes" | "waypoints", string>
>;

/** The checks of §9.1 in their order; the first failure is the answer. */
function checkQuery(cat: Catalog, raw: RawQuery): RouteQuery | ErrorAnswer {
  const tuningSystem = blankToUndefined(raw.tuningSystem);
  if (!tuningSystem) return requiredParameter("tuningSystem", "Add tuningSystem=<id>; /api/tuning-systems lists the ids.");
  const startingNote = blankToUndefined(raw.startingNote);
  if (!startingNote) {
    const validOptions = cat.findTuningSystem(tuningSystem)?.startingNotes ?? [];
    return requiredParameter(
      "startingNote",
      `Add startingNote=<note>; '${tuningSystem}' has: ${validOptions.map(toIdName).join(", ") || "(unknown tuning system)"}.`,
      {
        validOptions,
      },
    );
  }
  const fromMaqam = blankToUndefined(raw.fromMaqam);
  if (!fromMaqam) return requiredParameter("fromMaqam", "Give the source maqām's base idName, e.g. fromMaqam=maqam_rast.");
  const toMaqam = blankToUndefined(raw.toMaqam);
  if (!toMaqam) return requiredParameter("toMaqam", "Give the target maqām's base idName, e.g. toMaqam=maqam_hijaz.");
  const hops = blankToUndefined(raw.maxHops);
  if (!hops) return requiredParameter("maxHops", `Add maxHops=<1…${MAX_HOPS}>; most modulation routes take 2 to 4 hops.`);
  const maxHops = positiveInteger(hops);
  if (maxHops === undefined)
    return apiError({ error: "maxHops must be a positive integer", message: `maxHops is '${raw.maxHops}'.`, hint: "Use e.g. maxHops=3." });
  if (maxHops > MAX_HOPS)
    return apiError({
      error: `maxHops cannot exceed ${MAX_HOPS}`,
      message: `maxHops is ${maxHops}; longer searches are refused to keep the search bounded.`,
      hint: `Use maxHops=${MAX_HOPS} or lower.`,
    });
  const maxRoutes = raw.maxRoutes === undefined || raw.maxRoutes === "" ? 10 : positiveInteger(raw.maxRoutes);
  if (maxRoutes === undefined)
    return apiError({
      error: "maxRoutes must be a positive integer",
      message: `maxRoutes is '${raw.maxRoutes}'.`,
      hint: "Use e.g. maxRoutes=10 (the default).",
    });
  const waypoints = parseWaypoints(raw.waypoints);
  if (!Array.isArray(waypoints)) return apiError(waypoints);
  return {
    tuningSystem,
    startingNote,
    from: { maqam: fromMaqam, tonic: blankToUndefined(raw.fromTonic) },
    to: { maqam: toMaqam, tonic: blankToUndefined(raw.toTonic) },
    waypoints,
    maxHops,
    maxRoutes,
  };
}

// Field order is the order of the checks: tolerance and includeArabic come first; the search
// parameters are checked by checkQuery in the specification's order (§9.1), whose 400 for a
// missing starting note lists the tuning system's starting notes.
const params = {
  centsTolerance: centsTolerance(),
  includeArabic: includeArabic(),
  tuningSystem: handlerChecked({ required: true, description: "Tuning-system id.", example: "ibnsina_1037" }),
  startingNote: handlerChecked({ required: true, description: "Starting note of the tuning system.", example: "yegah" }),
  fromMaqam: handlerChecked({ required: true, description: "Source maqām (base idName).", example: "maqam_rast" }),
  fromTonic: handlerChecked({ required: false, description: "Tonic of the source maqām's rendering; its taḥlīl when absent.", example: "rast" }),
  toMaqam: handlerChecked({ required: true, description: "Target maqām (base idName).", example: "maqam_bayyat" }),
  toTonic: handlerChecked({ required: false, description: "Tonic of the target maqām's rendering; its taḥlīl when absent.", example: "dugah" }),
  // parseInt reads the leading integer (`3.7` is 3, `3abc` is 3), as the reference does; the
  // patterns say exactly which values that makes 1…MAX_HOPS, or at least 1.
  maxHops: handlerChecked({
    required: true,
    type: "number",
    description: `Most modulations in a route (1 to ${MAX_HOPS}; the leading integer of the value is read).`,
    example: "2",
    pattern: "^\\s*\\+?0*([1-9]|1\\d|20)(\\D.*)?$",
  }),
  maxRoutes: handlerChecked({
    required: false,
    type: "number",
    default: 10,
    description: "Most routes returned (a positive integer; the leading integer of the value is read; absent or empty: 10).",
    example: "10",
    pattern: "^(\\s*\\+?0*[1-9]\\d*(\\D.*)?)?$",
  }),
  waypoints: handlerChecked({
    required: false,
    type: "array",
    description: `Comma-separated maqāmāt the route must pass, each optionally \`:tonic\` (at most ${MAX_HOPS - 1}).`,
    example: "maqam_hijaz",
  }),
  returnToStartingMaqam: flag("Also search the routes back from the target to the source."),
  limitToShortestHops: flag("Only the routes with the fewest hops."),
  allowOctaveJumps: flag("Allow modulations to a rendering an octave away."),
  allowDownwardModulation: flag("Allow modulations to renderings below the source register."),
};

type Params = ParsedParams<typeof params>;

// ---------------------------------------------------------------------------------------------
// Endpoint resolution (§9.3)

const endpointError = (status: ErrorStatus, prefix: string, error: string, hint: string, extra?: ErrorExtras): ErrorAnswer =>
  apiError({ status, error: `${prefix}: ${error}`, message: `${prefix} cannot be used: ${error}.`, hint, extra });

/** A base maqām by its exact idName (or the older `al-` spelling); transposed idNames are refused. */
function maqamOf(cat: Catalog, prefix: string, idName: string): Maqam | ErrorAnswer {
  const maqam = cat.maqamat.find((m) => m.idName === idName || toIdName(m.name) === idName);
  if (maqam) return maqam;
  const transposed = cat.findMaqam(idName);
  if (transposed?.tonic !== undefined)
    return endpointError(
      400,
      prefix,
      `'${idName}' is a transposition, not a base maqām idName`,
      `Give the base idName and the tonic separately, e.g. ${transposed.entity.idName} with tonic ${toIdName(transposed.tonic)}.`,
    );
  return endpointError(404, prefix, `Maqam '${idName}' not found`, "Use /api/maqamat to list the maqām idNames (numeric ids are not accepted here).");
}

interface ResolvedEndpoint {
  maqam: Maqam;
  /** Tonic display name of the requested rendering; undefined = the analytical form. */
  tonic?: string;
}

function resolveEndpoint(
  cat: Catalog,
  prefix: string,
  endpoint: Endpoint,
  ts: TuningSystem,
  startingNote: string,
  tolerance: number,
): ResolvedEndpoint | ErrorAnswer {
  const maqam = maqamOf(cat, prefix, endpoint.maqam);
  if (isAnswer(maqam)) return maqam;
  const where = `/api/tuning-systems/${ts.id}/${toIdName(startingNote)}/maqamat`;
  if (!isPossibleIn(cat, maqam, ts, startingNote))
    return endpointError(
      400,
      prefix,
      `Maqam '${endpoint.maqam}' is not available in this tuning system`,
      `${where} lists the maqāmāt this tuning system and starting note realise.`,
    );
  if (endpoint.tonic === undefined) return { maqam };
  const list = transpositionsOf(cat, maqam, ts, startingNote, tolerance);
  const rendering = findTransposition(list, endpoint.tonic);
  if (!rendering)
    return endpointError(
      400,
      prefix,
      `Maqam '${endpoint.maqam}' with tonic '${endpoint.tonic}' is not available in this tuning system`,
      "Use one of the tonics in validOptions, or leave the tonic out for the analytical form.",
      { validOptions: list.map((t) => toIdName(t.tonic)) },
    );
  return { maqam, tonic: rendering.tonic };
}

/** The node of a rendering; without a tonic the analytical form (first non-transposed node). */
function nodeOf(graph: ModulationGraph, prefix: string, { maqam, tonic }: ResolvedEndpoint): number | ErrorAnswer {
  const index = tonic === undefined ? graph.analyticalNode.get(maqam) : graph.byKey.get(nodeKey(maqam, tonic));
  if (index !== undefined) return index;
  return endpointError(
    404,
    prefix,
    `Maqam '${maqam.idName}'${tonic ? ` with tonic '${toIdName(tonic)}'` : ""} not found in the modulation graph`,
    "Try a larger centsTolerance: no rendering of this maqām matched its own intervals.",
  );
}

// ---------------------------------------------------------------------------------------------
// Response (§9.5)

function nodeObject(graph: ModulationGraph, index: number, includeArabic: boolean) {
  const { maqam, transposition: t } = graph.nodes[index];
  return {
    maqamId: maqam.id,
    maqamIdName: t.idName,
    maqamDisplayName: t.name,
    tonicId: toIdName(t.tonic),
    tonicDisplay: t.tonic,
    isTransposition: t.isTransposed,
    ...(includeArabic ? { maqamDisplayNameAr: entityNameToArabic(t.name), tonicDisplayAr: noteNameToArabic(t.tonic) } : {}),
  };
}

function stepsOf(route: Route, node: (index: number) => ReturnType<typeof nodeObject>) {
  return route.map((hop) => ({
    from: node(hop.from),
    to: node(hop.to),
    modulationDegree: EDGE_CATEGORIES[hop.category].degree,
    modulationCategory: EDGE_CATEGORIES[hop.category].name,
  }));
}

function handle(parsed: Params, { catalog: cat }: RequestContext) {
  // The checks of §9.1 in their order, then the resolution every route shares.
  const query = checkQuery(cat, parsed);
  if (isAnswer(query)) return query;
  const p = { ...parsed, ...query };
  const tuning = resolveTuning(cat, p.tuningSystem, p.startingNote);
  if (isAnswer(tuning)) return tuning;
  const { ts, startingNote } = tuning;

  const tolerance = p.centsTolerance;
  const labelled: [string, Endpoint][] = [
    ["Source maqam", p.from],
    ["Target maqam", p.to],
    ...p.waypoints.map((w): [string, Endpoint] => [`Waypoint maqam '${w.maqam}'`, w]),
  ];
  const resolved: ResolvedEndpoint[] = [];
  for (const [prefix, endpoint] of labelled) {
    const r = resolveEndpoint(cat, prefix, endpoint, ts, startingNote, tolerance);
    if (isAnswer(r)) return r;
    resolved.push(r);
  }
  const graph = modulationGraphOf(cat, ts, startingNote, tolerance);
  const indices: number[] = [];
  for (let i = 0; i < resolved.length; i++) {
    const index = nodeOf(graph, labelled[i][0], resolved[i]);
    if (isAnswer(index)) return index;
    indices.push(index);
  }
  const [source, target, ...waypoints] = indices;

  const options: SearchOptions = {
    maxHops: p.maxHops,
    maxRoutes: Math.min(p.maxRoutes, ROUTES_SERVED_LIMIT),
    shortestOnly: p.limitToShortestHops,
    allowOctaveJumps: p.allowOctaveJumps,
    allowDownwardModulation: p.allowDownwardModulation,
  };
  // Each direction has its own budget, so a costly outbound search leaves the return search whole.
  const outboundBudget = searchBudget(EXPLORED_EDGES_LIMIT);
  const returnBudget = searchBudget(EXPLORED_EDGES_LIMIT);
  const outbound = routesThrough(graph, [source, ...waypoints, target], options, outboundBudget);
  const returns = p.returnToStartingMaqam && outbound.length ? routesThrough(graph, [target, source], options, returnBudget) : undefined;
  const exhausted = outboundBudget.exhausted || returnBudget.exhausted;
  const routesCapped = p.maxRoutes > ROUTES_SERVED_LIMIT && [outbound, returns ?? []].some((r) => r.length === ROUTES_SERVED_LIMIT);

  const nodes = new Map<number, ReturnType<typeof nodeObject>>();
  const node = (index: number) => {
    let n = nodes.get(index);
    if (!n) {
      n = nodeObject(graph, index, p.includeArabic);
      nodes.set(index, n);
    }
    return n;
  };
  const context = {
    tuningSystem: { id: p.tuningSystem, displayName: ts.displayName, ...(p.includeArabic ? { displayNameAr: ts.displayNameAr } : {}) },
    startingNote: noteRef(p.startingNote, p.includeArabic),
    searchConstraints: {
      maxHops: p.maxHops,
      maxRoutes: p.maxRoutes,
      returnToStartingMaqam: p.returnToStartingMaqam,
      limitToShortestHops: p.limitToShortestHops,
      allowOctaveJumps: p.allowOctaveJumps,
      allowDownwardModulation: p.allowDownwardModulation,
      centsTolerance: tolerance,
    },
    sourceNode: node(source),
    targetNode: node(target),
    ...(waypoints.length ? { waypoints: waypoints.map(node) } : {}),
  };
  const noRoute = `No path found from '${p.from.maqam}' to '${p.to.maqam}' within ${p.maxHops} hops`;
  const limitNotice = exhausted
    ? `The search stopped after examining ${EXPLORED_EDGES_LIMIT.toLocaleString("en-US")} modulations in one direction (its limit); the routes listed were found before that, shortest first, and others may exist. A smaller maxHops or maxRoutes, fewer waypoints or limitToShortestHops=true keeps the search within the limit.`
    : `At most ${ROUTES_SERVED_LIMIT} routes are returned per direction; maxRoutes=${p.maxRoutes} was reduced to that.`;

  return ok({
    totalPossibleRoutes: {
      outboundRoutesCount: outbound.length,
      ...(returns ? { returnRoutesCount: returns.length } : {}),
      data: outbound.map((route, i) => ({ routeNumber: i + 1, outboundRoute: { hops: route.length, steps: stepsOf(route, node) } })),
    },
    ...(returns
      ? { possibleReturnRoutes: { data: returns.map((route, i) => ({ routeNumber: i + 1, hops: route.length, steps: stepsOf(route, node) })) } }
      : {}),
    context,
    ...(outbound.length ? {} : { message: noRoute }),
    ...(exhausted || routesCapped
      ? { searchLimitReached: true as const, message: outbound.length ? limitNotice : `${noRoute} before the search limit was reached. ${limitNotice}` }
      : {}),
  });
}

export const routes = [
  defineRoute({
    path: "/modulation-routes",
    summary: "Routes of modulations (al-Shawwā's rules) from one maqām rendering to another, optionally through waypoints.",
    response: () => modulationSchemas().modulationRoutes,
    params,
    handle,
    computed: true,
    // Rāst reaches bayyāt in two hops only through a rendering below it (rāst on qarār chahārgāh or on chahārgāh an octave down).
    exampleQuery: { allowDownwardModulation: "true" },
  }),
];
