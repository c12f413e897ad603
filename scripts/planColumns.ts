/** The plan as the planning thread sends it to the main thread (scripts/planApart.ts), and as the build takes it back. */
import { VALUE_CLASSES } from "./budget.js";
import type { Job, TwelveToneSeeds } from "./buildWorker.js";
import type { Planned } from "./manifest.js";
import type { Made } from "./renderSlice.js";
import type { ListingCounts } from "./planListing.js";

/**
 * The plan as the thread sends it: by column, each route name and query shape once, the batches as
 * plan indices. A message copies every string it holds, so the plan's objects and the jobs that
 * share their strings would arrive with the strings two or three times over.
 */
export interface PlanSent {
  requests: string[];
  files: string[];
  /** The route names and query shapes, and which one each planned request has. */
  routes: string[];
  routeOf: Uint16Array;
  queries: string[];
  queryOf: Uint16Array;
  /** The cache groups, and which one each planned request is in. */
  groups: string[];
  groupOf: Uint32Array;
  /** Each planned request's value class, by its place in VALUE_CLASSES. */
  classOf: Uint8Array;
  batches: Int32Array[];
  /** Group name → content hash (sliceHash.ts's groupHashes), as entries. */
  hashes: [string, string][];
  seeds: TwelveToneSeeds;
  /** Seconds of the plan (listing, files and routes, batches), of the hashes and of writing the listing. */
  steps: { plan: number; hashes: number; listing: number };
  /** The listing's parts by where they came from. */
  parts: ListingCounts;
}

/** The plan, its batches and the groups' hashes as the build uses them. */
export interface PlanMade extends Made {
  hashes: Map<string, string>;
  seeds: TwelveToneSeeds;
  steps: PlanSent["steps"];
  parts: ListingCounts;
}

/** The plan again from its columns, on the main thread: the jobs share the planned requests' strings. */
export function planReceived(sent: PlanSent): PlanMade {
  const planned = sent.requests.map(
    (request, i): Planned => ({
      request,
      file: sent.files[i],
      route: sent.routes[sent.routeOf[i]],
      query: sent.queries[sent.queryOf[i]],
      valueClass: VALUE_CLASSES[sent.classOf[i]],
      group: sent.groups[sent.groupOf[i]],
    }),
  );
  const batches = sent.batches.map((b) => Array.from(b, (i): Job => [i, planned[i].request, planned[i].file, undefined]));
  return { planned, batches, hashes: new Map(sent.hashes), seeds: sent.seeds, steps: sent.steps, parts: sent.parts };
}

/** The plan by column, on the thread. */
export function planToSend(
  planned: readonly Planned[],
  batches: readonly Job[][],
  hashes: ReadonlyMap<string, string>,
  seeds: TwelveToneSeeds,
  steps: PlanSent["steps"],
  parts: ListingCounts,
): PlanSent {
  const numbered = (values: string[]) => {
    const names = [...new Set(values)];
    const number = new Map(names.map((name, i) => [name, i]));
    return { names, of: values.map((v) => number.get(v) ?? 0) };
  };
  const routes = numbered(planned.map((p) => p.route));
  const queries = numbered(planned.map((p) => p.query));
  const groups = numbered(planned.map((p) => p.group));
  return {
    requests: planned.map((p) => p.request),
    files: planned.map((p) => p.file),
    routes: routes.names,
    routeOf: Uint16Array.from(routes.of),
    queries: queries.names,
    queryOf: Uint16Array.from(queries.of),
    groups: groups.names,
    groupOf: Uint32Array.from(groups.of),
    classOf: Uint8Array.from(planned, (p) => VALUE_CLASSES.indexOf(p.valueClass)),
    batches: batches.map((b) => Int32Array.from(b, ([index]) => index)),
    hashes: [...hashes],
    seeds,
    steps,
    parts,
  };
}
