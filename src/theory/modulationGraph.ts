/**
 * The modulation graph of a tuning system × starting note × tolerance (docs/algorithms.md §9.2): one
 * node per maqām rendering, one edge per al-Shawwā modulation, plus the same modulation landing an
 * octave lower and pure register shifts. Built once and kept for the route searches that follow.
 */
import type { Maqam } from "./entity.js";
import { memoByTolerance } from "./caches.js";
import type { Catalog } from "./catalog.js";
import { isPossibleIn } from "./realisation.js";
import { transpositionsOf, type Transposition } from "./transposition.js";
import { pitchClassesOf } from "./pitchClass.js";
import { pitchClassesPerOctave, type TuningSystem } from "./tuningSystem.js";
import { MODULATION_CATEGORIES, maqamModulationsOf, type ModulationCategory, type ModulationTarget } from "./modulation.js";

export interface RouteNode {
  maqam: Maqam;
  transposition: Transposition;
}

export type EdgeKind = "modulation" | "downward" | "register";

export interface EdgeCategory {
  /** `modulationCategory` of a step. */
  name: string;
  /** `modulationDegree` of a step. */
  degree: string;
  kind: EdgeKind;
}

const DEGREE_OF: Record<ModulationCategory, string> = {
  firstDegree: "I",
  thirdDegree: "III",
  altThirdDegree: "III",
  fourthDegree: "IV",
  fifthDegree: "V",
  sixthDegreeAsc: "VI",
  sixthDegreeDesc: "VI",
  sixthDegreeIfNoThird: "VI",
};

/**
 * The 18 edge categories, addressed by code: the 8 modulations (codes 0-7), their twins landing
 * an octave below (8-15), then the register shifts up and down (16, 17).
 */
export const EDGE_CATEGORIES: readonly EdgeCategory[] = [
  ...MODULATION_CATEGORIES.map((name) => ({ name, degree: DEGREE_OF[name], kind: "modulation" as const })),
  ...MODULATION_CATEGORIES.map((name) => ({ name: `${name}OctaveBelow`, degree: `${DEGREE_OF[name]}-8vb`, kind: "downward" as const })),
  { name: "octaveAbove", degree: "8va", kind: "register" },
  { name: "octaveBelow", degree: "8vb", kind: "register" },
];
const OCTAVE_BELOW_TWIN = MODULATION_CATEGORIES.length;
const OCTAVE_ABOVE = 2 * MODULATION_CATEGORIES.length;
const OCTAVE_BELOW = OCTAVE_ABOVE + 1;

/**
 * Edges of every node in compressed rows: the edges of node u are positions
 * `offset[u] … offset[u+1]−1` of `node` (the other end) and `category` (code into EDGE_CATEGORIES),
 * in adjacency order. Typed arrays keep a graph of millions of edges in a few tens of MB.
 */
export interface EdgeRows {
  offset: Int32Array;
  node: Int32Array;
  category: Uint8Array;
}

export interface ModulationGraph {
  nodes: RouteNode[];
  /** `nodeKey(maqam, tonic)` → node index. */
  byKey: Map<string, number>;
  /** Per maqām, the node of its analytical form: its first node that is not transposed, else its first. */
  analyticalNode: Map<Maqam, number>;
  outgoing: EdgeRows;
}

/** Key of the node of a maqām on a tonic (display name; note names are unique across octaves). */
export const nodeKey = (maqam: Maqam, tonic: string): string => `${maqam.idName}:${tonic}`;

/** Ascending and descending scales are the same notes (no separate descending sixth). */
function isSymmetric(t: Transposition): boolean {
  const n = t.ascending.length;
  return n === t.descending.length && t.ascending.every((pc, i) => pc.noteName === t.descending[n - 1 - i].noteName);
}

/** Appends edges row by row into growing typed arrays. */
function rowWriter(nodeCount: number) {
  let node = new Int32Array(1024);
  let category = new Uint8Array(1024);
  const offset = new Int32Array(nodeCount + 1);
  let size = 0;
  // stamp[v·18 + code] = u + 1 once u has that edge: a target can reach a list twice (its lookup
  // form and an equal list entry), one edge is enough and keeps routes distinct by their hops.
  const stamp = new Int32Array(nodeCount * EDGE_CATEGORIES.length);
  let row = 0;
  return {
    add(to: number, code: number) {
      const id = to * EDGE_CATEGORIES.length + code;
      if (stamp[id] === row + 1) return;
      stamp[id] = row + 1;
      if (size === node.length) {
        const grownNode = new Int32Array(2 * size);
        grownNode.set(node);
        node = grownNode;
        const grownCategory = new Uint8Array(2 * size);
        grownCategory.set(category);
        category = grownCategory;
      }
      node[size] = to;
      category[size] = code;
      size++;
    },
    /** Closes the current row; the next edges belong to the next node. */
    endRow() {
      offset[++row] = size;
    },
    done: (): EdgeRows => ({ offset, node: node.slice(0, size), category: category.slice(0, size) }),
  };
}

function buildGraph(cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number): ModulationGraph {
  const pcs = pitchClassesOf(cat, ts, startingNote);
  const perOctave = pitchClassesPerOctave(ts);
  const nodes: RouteNode[] = [];
  for (const maqam of cat.maqamat)
    if (isPossibleIn(cat, maqam, ts, startingNote))
      for (const transposition of transpositionsOf(cat, maqam, ts, startingNote, tolerance)) nodes.push({ maqam, transposition });
  const byKey = new Map<string, number>();
  nodes.forEach((n, i) => {
    byKey.set(nodeKey(n.maqam, n.transposition.tonic), i);
  });
  const analyticalNode = new Map<Maqam, number>();
  nodes.forEach(({ maqam, transposition }, i) => {
    const known = analyticalNode.get(maqam);
    if (known === undefined || (nodes[known].transposition.isTransposed && !transposition.isTransposed)) analyticalNode.set(maqam, i);
  });

  // The same maqām on the tonic one octave lower, when it is a node.
  const lowerSibling = nodes.map(({ maqam, transposition }) => {
    const tonic = transposition.ascending[0];
    const k = tonic.octave * perOctave + tonic.index - perOctave;
    return k < 0 ? -1 : (byKey.get(nodeKey(maqam, pcs[k].noteName)) ?? -1);
  });
  // Modulation lists are mostly arrays shared by many sources: resolve each array to its target
  // nodes once, as (node, lower sibling) pairs, skipping targets that are not nodes.
  const targetNodes = new WeakMap<readonly ModulationTarget[], Int32Array>();
  const targetNodesOf = (list: readonly ModulationTarget[]): Int32Array => {
    let pairs = targetNodes.get(list);
    if (!pairs) {
      const found: number[] = [];
      for (const { entity, transposition } of list) {
        const v = byKey.get(nodeKey(entity as Maqam, transposition.tonic));
        if (v !== undefined) found.push(v, lowerSibling[v]);
      }
      pairs = Int32Array.from(found);
      targetNodes.set(list, pairs);
    }
    return pairs;
  };
  const registerShifts = registerShiftsOf(nodes);

  const rows = rowWriter(nodes.length);
  nodes.forEach(({ maqam, transposition }, u) => {
    const lists = maqamModulationsOf(cat, maqam, transposition, ts, startingNote, tolerance);
    const symmetric = isSymmetric(transposition);
    MODULATION_CATEGORIES.forEach((category, code) => {
      if (category === "sixthDegreeDesc" && symmetric) return;
      const pairs = targetNodesOf(lists[category]);
      for (let i = 0; i < pairs.length; i += 2) {
        rows.add(pairs[i], code);
        const below = pairs[i + 1];
        if (below >= 0 && below !== u) rows.add(below, OCTAVE_BELOW_TWIN + code);
      }
    });
    for (const [v, code] of registerShifts[u]) rows.add(v, code);
    rows.endRow();
  });
  const outgoing = rows.done();
  return { nodes, byKey, analyticalNode, outgoing };
}

/**
 * Register shifts link neighbouring octaves of one maqām on one tuning degree: the lower one
 * gets `octaveAbove`, the higher one `octaveBelow`, after their modulation edges.
 */
function registerShiftsOf(nodes: readonly RouteNode[]): [number, number][][] {
  const shifts: [number, number][][] = nodes.map(() => []);
  const registers = new Map<string, number[]>();
  nodes.forEach(({ maqam, transposition }, i) => {
    const key = `${maqam.idName}:${transposition.ascending[0].index}`;
    const group = registers.get(key);
    if (group) group.push(i);
    else registers.set(key, [i]);
  });
  const octaveOf = (i: number) => nodes[i].transposition.ascending[0].octave;
  for (const group of registers.values()) {
    group.sort((a, b) => octaveOf(a) - octaveOf(b));
    for (let i = 0; i + 1 < group.length; i++) {
      shifts[group[i]].push([group[i + 1], OCTAVE_ABOVE]);
      shifts[group[i + 1]].push([group[i], OCTAVE_BELOW]);
    }
  }
  return shifts;
}

/**
 * The same edges indexed by their target, for a search's distance-to-end. Built per search rather
 * than kept with the graph: it costs a pass over the edges, and would double the graph's bytes.
 */
export function incomingOf({ outgoing: { offset, node, category } }: ModulationGraph): EdgeRows {
  const n = offset.length - 1;
  const reverseOffset = new Int32Array(n + 1);
  for (const v of node) reverseOffset[v + 1]++;
  for (let v = 0; v < n; v++) reverseOffset[v + 1] += reverseOffset[v];
  const fill = reverseOffset.slice(0, n);
  const reverseNode = new Int32Array(node.length);
  const reverseCategory = new Uint8Array(node.length);
  for (let u = 0; u < n; u++)
    for (let e = offset[u]; e < offset[u + 1]; e++) {
      const at = fill[node[e]]++;
      reverseNode[at] = u;
      reverseCategory[at] = category[e];
    }
  return { offset: reverseOffset, node: reverseNode, category: reverseCategory };
}

const graphs = memoByTolerance<ModulationGraph>("modulationGraphs", "modulationGraphsAtOtherTolerances");

/** Bytes of a graph's edge arrays, by which the graph memo is bounded (its nodes are shared with the transpositions). */
export const graphBytes = ({ outgoing: { offset, node, category } }: ModulationGraph): number => offset.byteLength + node.byteLength + category.byteLength;

/** The modulation graph of a tuning system × starting note (display name) × tolerance. */
export function modulationGraphOf(cat: Catalog, ts: TuningSystem, startingNote: string, tolerance: number): ModulationGraph {
  return graphs(cat, tolerance)(`${ts.id}\u0000${startingNote}\u0000${tolerance}`, () => buildGraph(cat, ts, startingNote, tolerance), graphBytes);
}
