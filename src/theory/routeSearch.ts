/**
 * Modulation routes through the graph (docs/algorithms.md §9.4): every shortest route (layered BFS),
 * or simple routes shortest first (iterative deepening), through optional waypoints.
 *
 * Simple paths of up to 20 hops in a graph of millions of edges can be astronomically many, so
 * every search spends from one budget of examined edges; when it runs out the search stops and
 * reports what it found so far (`budget.exhausted`).
 */
import { EDGE_CATEGORIES, incomingOf, type EdgeKind, type ModulationGraph } from "./modulationGraph.js";

export interface Hop {
  from: number;
  to: number;
  /** Code into EDGE_CATEGORIES. */
  category: number;
}

export type Route = readonly Hop[];

export interface SearchOptions {
  maxHops: number;
  maxRoutes: number;
  /** Only routes of the minimum hop count. */
  shortestOnly: boolean;
  allowOctaveJumps: boolean;
  allowDownwardModulation: boolean;
}

/** How many more edges the searches of one request may examine. */
export interface SearchBudget {
  remaining: number;
  exhausted: boolean;
}

export const searchBudget = (edges: number): SearchBudget => ({ remaining: edges, exhausted: false });

/** Spends one examined edge; false once the budget is gone. */
function spend(budget: SearchBudget): boolean {
  if (budget.remaining <= 0) {
    budget.exhausted = true;
    return false;
  }
  budget.remaining--;
  return true;
}

/** Per category code: may a route use it? Register shifts and octave-below twins are opt-in. */
function allowedCategories(options: SearchOptions): boolean[] {
  const allowed: Record<EdgeKind, boolean> = {
    modulation: true,
    register: options.allowOctaveJumps,
    downward: options.allowDownwardModulation,
  };
  return EDGE_CATEGORIES.map((c) => allowed[c.kind]);
}

/**
 * Layered BFS keeping every predecessor at the shortest distance (adjacency order), stopping after
 * the layer that reaches the end; routes are read back from the end, first predecessor first.
 */
function shortestRoutes(graph: ModulationGraph, start: number, end: number, options: SearchOptions, budget: SearchBudget): Route[] {
  const { offset, node, category } = graph.outgoing;
  const allowed = allowedCategories(options);
  const depth = new Int32Array(graph.nodes.length).fill(-1);
  const predecessors = new Map<number, Hop[]>();
  depth[start] = 0;
  let frontier = [start];
  for (let d = 0; d < options.maxHops && frontier.length && depth[end] < 0; d++) {
    const next: number[] = [];
    for (const u of frontier)
      for (let e = offset[u]; e < offset[u + 1]; e++) {
        if (!allowed[category[e]]) continue;
        if (!spend(budget)) return [];
        const v = node[e];
        const hop = { from: u, to: v, category: category[e] };
        if (depth[v] < 0) {
          depth[v] = d + 1;
          predecessors.set(v, [hop]);
          next.push(v);
        } else if (depth[v] === d + 1) predecessors.get(v)!.push(hop);
      }
    frontier = next;
  }
  if (depth[end] < 0) return [];

  const routes: Route[] = [];
  const suffix: Hop[] = [];
  const walkBack = (v: number) => {
    if (v === start) {
      routes.push([...suffix].reverse());
      return;
    }
    for (const hop of predecessors.get(v)!) {
      if (routes.length >= options.maxRoutes || !spend(budget)) return;
      suffix.push(hop);
      walkBack(hop.from);
      suffix.pop();
    }
  };
  walkBack(end);
  return routes;
}

/** Hops from every node to `end` over allowed edges, up to `limit` (beyond: a large number). */
function distancesToEnd(graph: ModulationGraph, end: number, limit: number, allowed: boolean[], budget: SearchBudget): Int32Array {
  const { offset, node, category } = incomingOf(graph);
  const distance = new Int32Array(graph.nodes.length).fill(limit + 1);
  distance[end] = 0;
  let frontier = [end];
  for (let d = 0; d < limit && frontier.length; d++) {
    const next: number[] = [];
    for (const v of frontier)
      for (let e = offset[v]; e < offset[v + 1]; e++) {
        if (!spend(budget)) return distance;
        const u = node[e];
        if (allowed[category[e]] && distance[u] > d + 1) {
          distance[u] = d + 1;
          next.push(u);
        }
      }
    frontier = next;
  }
  return distance;
}

/**
 * Simple routes (no node twice) by iterative deepening: all routes of 1 hop, then of 2, … in DFS
 * adjacency order. A node is entered only if the end is still reachable in the hops left, and the
 * end is never passed through, so only dead ends that need a revisit cost extra work.
 */
function simpleRoutes(graph: ModulationGraph, start: number, end: number, options: SearchOptions, budget: SearchBudget): Route[] {
  const { offset, node, category } = graph.outgoing;
  const allowed = allowedCategories(options);
  const distance = distancesToEnd(graph, end, options.maxHops, allowed, budget);
  const onPath = new Uint8Array(graph.nodes.length);
  const routes: Route[] = [];
  const path: Hop[] = [];
  const done = () => routes.length >= options.maxRoutes || budget.exhausted;

  const extend = (u: number, hopsLeft: number) => {
    if (hopsLeft === 0) {
      if (u === end) routes.push([...path]);
      return;
    }
    if (u === end) return;
    for (let e = offset[u]; e < offset[u + 1] && !done(); e++) {
      if (!allowed[category[e]] || !spend(budget)) continue;
      const v = node[e];
      if (onPath[v] || distance[v] > hopsLeft - 1) continue;
      onPath[v] = 1;
      path.push({ from: u, to: v, category: category[e] });
      extend(v, hopsLeft - 1);
      path.pop();
      onPath[v] = 0;
    }
  };
  onPath[start] = 1;
  for (let hops = Math.max(1, distance[start]); hops <= options.maxHops && !done(); hops++) extend(start, hops);
  return routes;
}

/** Routes from one node to another; a node to itself is the single empty route. */
export function routesBetween(graph: ModulationGraph, start: number, end: number, options: SearchOptions, budget: SearchBudget): Route[] {
  if (start === end) return [[]];
  return (options.shortestOnly ? shortestRoutes : simpleRoutes)(graph, start, end, options, budget);
}

/**
 * Routes through a list of stops (source, waypoints…, target). Each leg gets
 * ⌈maxHops / legs⌉ hops and is searched on its own; legs are joined as a product capped at
 * maxRoutes, then ordered by total hops (stable) and cut to maxRoutes.
 */
export function routesThrough(graph: ModulationGraph, stops: readonly number[], options: SearchOptions, budget: SearchBudget): Route[] {
  const legOptions = { ...options, maxHops: Math.ceil(options.maxHops / (stops.length - 1)) };
  let combined: Route[] | undefined;
  for (let i = 0; i + 1 < stops.length; i++) {
    const leg = routesBetween(graph, stops[i], stops[i + 1], legOptions, budget);
    if (leg.length === 0) return [];
    combined = combined === undefined ? leg : joined(combined, leg, options.maxRoutes);
  }
  return [...combined!].sort((a, b) => a.length - b.length).slice(0, options.maxRoutes);
}

/** Each route so far followed by each route of the next leg, stopping at `limit`. */
function joined(before: readonly Route[], leg: readonly Route[], limit: number): Route[] {
  const result: Route[] = [];
  for (const head of before)
    for (const tail of leg) {
      if (result.length >= limit) return result;
      result.push([...head, ...tail]);
    }
  return result;
}
