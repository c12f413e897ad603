/**
 * The planner's two cuts on a build: before rendering, the ranked requests that fit the host's
 * file count; after, the files of the whole output (API, siblings, site, pictures) kept in value
 * order within every limit, the rest removed from the tree before it is swapped in.
 */
import { mkdirSync, renameSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { SIBLING_SUFFIX } from "../src/serve/handler.js";
import { removeEmptyFolders } from "./swap.js";
import { entriesOfListing, tarArchiveBytes, type Counted, type Listing } from "./treeSize.js";
import {
  HEADROOM,
  VALUE_CLASSES,
  datasetClassOf,
  datasetOrderOf,
  fitToLimits,
  leftOutOf,
  limitPassed,
  type Candidate,
  type HostLimits,
  type LeftOut,
  type ValueClass,
} from "./budget.js";

/** Limits a name=value list overrides (`tarBytes=5e8,files=10000`), for hosts the profiles do not describe. */
export function limitsOf(base: HostLimits, override: string | undefined): HostLimits {
  if (!override) return base;
  const limits: HostLimits = { ...base };
  for (const pair of override.split(",")) {
    const [name, value] = pair.split("=").map((s) => s.trim());
    const n = Number(value);
    if (!["tarBytes", "files", "fileBytes"].includes(name) || !Number.isFinite(n) || n <= 0)
      throw new Error(`HOST_LIMITS: '${pair}' is not one of tarBytes=N, files=N, fileBytes=N with N a positive number`);
    limits[name as keyof HostLimits] = n;
  }
  return limits;
}

/**
 * The planned requests a file limit leaves room for, after `reserved` files of the site and root:
 * the most valuable first, in plan order within a class; the plan's own order is kept.
 */
export function withinFileLimit<T extends { valueClass: ValueClass }>(planned: readonly T[], files: number | undefined, reserved: number): T[] {
  if (files === undefined) return [...planned];
  const room = Math.max(0, Math.floor(files * (1 - HEADROOM)) - reserved);
  if (planned.length <= room) return [...planned];
  const ranked = planned.map((p, i) => ({ p, i, rank: VALUE_CLASSES.indexOf(p.valueClass) })).sort((a, b) => a.rank - b.rank || a.i - b.i);
  const keep = new Set(ranked.slice(0, room).map((r) => r.p));
  return planned.filter((p) => keep.has(p));
}

/** The answer a file below api/ belongs to: the file itself, or for a sibling (`x.json.gz`) the file it compresses. */
export function answerFileOf(file: string): string {
  for (const suffix of Object.values(SIBLING_SUFFIX)) if (file.endsWith(suffix)) return file.slice(0, -suffix.length);
  return file;
}

/**
 * Every file of the tree (`listing`), and those `cached` names below the cache, as a candidate: API
 * files (and siblings) by their request's class, pictures after, the rest the site. `orders` gives
 * the plan's index of the files the build knows it wrote (paths below the tree, the same strings
 * as the listing's, so looked up without a name sliced or hashed again); the others are found by
 * their file in the plan. The cached files' sizes are those the build recorded (`sizes`, by path), else read.
 */
function candidatesOf(
  listing: Listing,
  planned: readonly FilePlanned[],
  sizes: ReadonlyMap<string, number>,
  orders: ReadonlyMap<string, number>,
  cached?: LeftOver,
): Candidate[] {
  // Plan orders by file, made only when a file is not in `orders`: numbers, not an object per file (a quarter of a million kept through the fit).
  let byFile: Map<string, number> | undefined;
  const orderOf = (file: string) => {
    if (!byFile) {
      byFile = new Map();
      for (let i = 0; i < planned.length; i++) byFile.set(planned[i].file, i);
    }
    return byFile.get(file);
  };
  const candidateOf = (path: string, bytes: number): Candidate => {
    if (path.startsWith("api/datasets/")) return { path, bytes, valueClass: datasetClassOf(path.slice(4)), order: datasetOrderOf(path.slice(4)) };
    const known = orders.get(path);
    if (known !== undefined) return { path, bytes, valueClass: path.startsWith("pictures/") ? "picture" : planned[known].valueClass, order: known };
    if (path.startsWith("api/")) {
      const order = orderOf(answerFileOf(path.slice(4)));
      if (order !== undefined) return { path, bytes, valueClass: planned[order].valueClass, order };
    } else if (path.startsWith("pictures/")) {
      const order = orderOf(path.slice(9).replace(/\.svg$/, ".json"));
      if (order !== undefined) return { path, bytes, valueClass: "picture", order };
    }
    return { path, bytes, valueClass: "site", order: 0 };
  };
  const out: Candidate[] = [];
  for (const [path, bytes] of listing.files) out.push(candidateOf(path, bytes));
  if (cached) for (const path of cached.holds) out.push(candidateOf(path, sizes.get(path) ?? statSync(join(cached.dir, path)).size));
  return out;
}

/** A planned request's file (relative to api/) and value class: its place in the plan is its order. */
export interface FilePlanned {
  file: string;
  valueClass: ValueClass;
}

/** Where the fit keeps what it leaves out (an incremental build's cache being made), and the files already there. */
export interface LeftOver {
  dir: string;
  holds: ReadonlySet<string>;
}

export interface TreeFit {
  measured: { files: number; bytes: number; tarBytes: number };
  leftOut: LeftOut;
  /** Paths below the tree of every file left out (in `leftOver.dir` when given), in value order. */
  leftOutFiles: string[];
  /** Whether the answer of the plan's request at an index was kept, so the manifest describes the tree as published. */
  keptAnswer: (index: number) => boolean;
}

/** Whether a candidate is an answer's file (not a sibling) below api/, outside the datasets: one of its request's class, whose order is the request's index. */
const isAnswer = (c: Candidate) =>
  c.valueClass !== "site" && c.valueClass !== "picture" && c.path.startsWith("api/") && !c.path.startsWith("api/datasets/") && answerFileOf(c.path) === c.path;

/** Room kept in the fit for the root files written after it (manifest.json, _redirects, serve.json: about 30 KB today). */
export const ROOT_FILES_RESERVE = 256 * 1024;

/** Thrown when even the most valuable part of the output passes a hard limit of its host. */
export class OverLimitError extends Error {}

/**
 * Keeps what fits `limits` (less headroom) in value order and removes the rest from `dir`, with
 * the folders it empties; into `leftOver.dir` at the same relative path when given (an incremental
 * build keeps them for a later fit), where the files it already holds are candidates too: those
 * the fit keeps move into `dir`, the others stay. `listing` is the tree at `dir` (listTree), brought
 * up to date with what the fit removes and moves in; `planned` gives an API file (relative to api/)
 * its request's value class and plan order; `sizes` the files' sizes the build already knows, `orders` the
 * plan's index of those it wrote (knownSizes). Throws an
 * OverLimitError naming the limit when what must stay does not fit.
 */
export function fitTree(
  dir: string,
  listing: Listing,
  planned: readonly FilePlanned[],
  limits: HostLimits,
  leftOver?: LeftOver,
  sizes: ReadonlyMap<string, number> = new Map(),
  orders: ReadonlyMap<string, number> = new Map(),
): TreeFit {
  const fitted = fitToLimits(candidatesOf(listing, planned, sizes, orders, leftOver), limits, ROOT_FILES_RESERVE);
  const largest = fitted.kept.reduce((most, c) => Math.max(most, c.bytes), 0);
  const passed = limitPassed(limits, fitted.measured, largest);
  if (passed) throw new OverLimitError(passed);
  const held = leftOver?.holds ?? new Set<string>();
  const moveInto = (from: string, to: string, path: string, made: Set<string>) => {
    if (!made.has(dirname(path))) mkdirSync(dirname(join(to, path)), { recursive: true });
    made.add(dirname(path));
    renameSync(join(from, path), join(to, path));
  };
  const emptied = new Set<string>();
  for (const c of fitted.left) {
    if (held.has(c.path)) continue;
    listing.files.delete(c.path);
    if (leftOver) moveInto(dir, leftOver.dir, c.path, emptied);
    else {
      unlinkSync(join(dir, c.path));
      emptied.add(dirname(c.path));
    }
  }
  const filled = new Set<string>();
  if (leftOver)
    for (const c of fitted.kept) {
      if (!held.has(c.path)) continue;
      moveInto(leftOver.dir, dir, c.path, filled);
      listing.files.set(c.path, c.bytes);
      for (let f = dirname(c.path); f !== "."; f = dirname(f)) listing.folders.add(f);
    }
  for (const folder of removeEmptyFolders(dir, emptied)) listing.folders.delete(folder);
  const kept = new Uint8Array(planned.length);
  for (const c of fitted.kept) if (isAnswer(c)) kept[c.order] = 1;
  return { measured: fitted.measured, leftOut: leftOutOf(fitted.left), leftOutFiles: fitted.left.map((c) => c.path), keptAnswer: (index) => kept[index] === 1 };
}

/**
 * fitTree under no limit, on a tree listed in part (countTree): every file kept and none moved, so
 * no candidate is made for each; measured as fitTree measures (the root files' reserve in the tar).
 */
export function keepEverything(listing: Listing, counted: Counted): TreeFit {
  const { files, bytes, entries } = entriesOfListing(listing, counted);
  return {
    measured: { files, bytes, tarBytes: tarArchiveBytes(entries + ROOT_FILES_RESERVE) },
    leftOut: leftOutOf([]),
    leftOutFiles: [],
    keptAnswer: () => true,
  };
}
