/**
 * What a build keeps for the next one, in `<outDir>.cache/` beside the published tree (so the host
 * never sees it): state.json — the SHA-256 of the manifest it belongs to and, per group of the
 * plan, its content hash (scripts/sliceHash.ts), the results of its requests and the sizes of its
 * pictures (and, in datasets.json, the datasets' hash and files) — and the files the fit left out, which a later fit
 * may keep (state.json is lines, scripts/buildState.ts). A build over an existing one hard-links the files of every group whose hash is
 * unchanged into its new tree (those left out into its new cache) and renders only the others;
 * the result is the tree a clean build writes.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SIBLING_SUFFIX, type Encoding } from "../src/serve/handler.js";
import type { Job, Rendered } from "./buildWorker.js";
import type { Planned } from "./manifest.js";
import { cacheGroupOf } from "./slicePlan.js";
import { requestParts, staticFileOf } from "../src/api/staticPath.js";
import { pictureFileOf } from "./pictures.js";
import { discard, gone, spareOf } from "./swap.js";
import { type BuildState, type GroupState, groupOf, stateOfBytes, writeStateFile } from "./buildState.js";
import { linkInto } from "./links.js";
import { answerFileOf } from "./fitTree.js";
import { DATASETS_PATH } from "../src/api/datasets/files.js";

/** Where the datasets are written, below the tree. */
export const DATASETS_DIR = `api${DATASETS_PATH}`;

export const cacheOf = (outDir: string) => `${outDir}.cache`;
export const cachePartialOf = (outDir: string) => `${outDir}.cache.partial`;

/** The files one step of the finishing wrote (paths below the tree), by the hash of what they are made of. */
export interface StepState {
  hash: string;
  files: string[];
}

const STATE = "state.json";
/** The datasets' hash and files, apart: read before the datasets are written, when the groups' state (some 90 MB parsed) is not needed yet. */
const DATASETS_STATE = "datasets.json";
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Whether the state file `stateFile` belongs to the tree at `tree`: written with the SHA-256 of
 * the tree's manifest as its first key (writeState), so its first bytes tell, without parsing it.
 */
function belongsTo(stateFile: string, tree: string): boolean {
  const manifestFile = join(tree, "manifest.json");
  if (!existsSync(stateFile) || !existsSync(manifestFile)) return false;
  const head = Buffer.from(`{"manifest":"${sha256(readFileSync(manifestFile))}"`);
  const read = Buffer.alloc(head.length);
  const fd = openSync(stateFile, "r");
  try {
    readSync(fd, read, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return read.equals(head);
}

const parsedIfOf = <T>(stateFile: string, tree: string): T | undefined =>
  belongsTo(stateFile, tree) ? (JSON.parse(readFileSync(stateFile, "utf8")) as T) : undefined;

/** The state of the build at `outDir`, when it has one that belongs to its manifest. */
export function readState(outDir: string): BuildState | undefined {
  const file = join(cacheOf(outDir), STATE);
  return belongsTo(file, outDir) ? stateOfBytes(readFileSync(file)) : undefined;
}

/** The datasets' hash and files the build at `outDir` recorded, when its cache belongs to its manifest. */
export const readDatasetsState = (outDir: string): StepState | undefined =>
  parsedIfOf<{ datasets: StepState }>(join(cacheOf(outDir), DATASETS_STATE), outDir)?.datasets;

/** Where the state of the spare tree (scripts/swap.ts spareOf) is kept: the state its build wrote. */
export const spareStateOf = (outDir: string) => `${outDir}.spare.json`;

/**
 * Makes the spare tree beside `outDir` (the one before the previous build, kept by swapIn) the
 * tree being made, `partial`, when its state belongs to it, and returns what gives that state once
 * (parsed then, not before the datasets are written: some 90 MB; kept meanwhile in `cache`, the
 * cache being made, which a failed build throws away); else throws it away. Of the spare, only
 * the answers and pictures are kept (keepUnchanged keeps or removes them group by group): what
 * every build writes anew (bundles, site, root files) and the datasets,
 * taken over or written by their own step, go to the trash. Moving a tree's unchanged files costs
 * nothing, where linking them into a new tree costs a folder made per folder and a link per file.
 */
export function reuseSpare(outDir: string, partial: string, cache: string): () => BuildState | undefined {
  const spare = spareOf(outDir);
  const stateFile = spareStateOf(outDir);
  if (!belongsTo(stateFile, spare)) {
    discard(outDir, spare);
    rmSync(stateFile, { force: true });
    return () => undefined;
  }
  renameSync(spare, partial);
  mkdirSync(cache, { recursive: true });
  const waiting = join(cache, "spare.json");
  renameSync(stateFile, waiting);
  for (const entry of readdirSync(partial)) if (entry !== "api" && entry !== "pictures") discard(outDir, join(partial, entry));
  discard(outDir, join(partial, DATASETS_DIR));
  return () => {
    if (!existsSync(waiting)) return undefined;
    const state = stateOfBytes(readFileSync(waiting));
    unlinkSync(waiting);
    // A state that does not read (of an older format, or changed since) cannot say what the spare holds: none of it is kept.
    if (!state) discardSpare(partial, (path) => discard(outDir, path));
    return state;
  };
}

/** What a build took over from the previous one. */
export interface Kept {
  results: Rendered[];
  /** Groups taken over, and their pictures (file below pictures/, bytes). */
  groups: Map<string, GroupState>;
  pictures: { files: number; bytes: number };
  /**
   * Files taken over that the previous fit had left out (paths below the tree): linked into the
   * cache being made, where they stay unless the fit keeps them now, so an unchanged fit moves none.
   */
  cached: Set<string>;
}

export const NOTHING_KEPT: Kept = { results: [], groups: new Map(), pictures: { files: 0, bytes: 0 }, cached: new Set() };

/** A group's files below the tree, as its state lists them: answers with their siblings, then pictures. */
function groupFiles(group: GroupState, fileOf: (request: string) => string | undefined): string[] {
  const files: string[] = [];
  for (const [request, status, , , encoded] of group.results) {
    const file = status === 200 ? fileOf(request) : undefined;
    if (file === undefined) continue;
    files.push(`api/${file}`);
    for (const e of Object.keys(encoded) as Encoding[]) files.push(`api/${file}${SIBLING_SUFFIX[e]}`);
  }
  for (const [file] of group.pictures) files.push(`pictures/${file}`);
  return files;
}

/**
 * Whether fewer than half the spare's groups have an unchanged hash: linking those then costs less
 * than removing the others' files. Counted by groups, not answers: the groups a rendering's stop
 * left empty would otherwise weigh nothing, and the spare of a small plan cut short could be thrown
 * away after a change to one tuning system.
 */
function mostlyChanged(spare: BuildState, hashes: ReadonlyMap<string, string>): boolean {
  let same = 0;
  for (const [group, { hash }] of spare.groups) if (hashes.get(group) === hash) same++;
  return same * 2 < spare.groups.size;
}

/** Hands the spare's answers and pictures in `partial` to `discardTree` (the datasets, written there already, stay); nothing of the spare is left. */
function discardSpare(partial: string, discardTree: (path: string) => void): undefined {
  const api = join(partial, "api");
  for (const entry of existsSync(api) ? readdirSync(api) : []) if (join("api", entry) !== DATASETS_DIR) discardTree(join(api, entry));
  discardTree(join(partial, "pictures"));
  return undefined;
}

/**
 * What keepUnchanged chose: what is taken over, the batches to render, the groups found in place
 * in the spare, and the spare's files to remove before the rendering (swap.ts removeFilesApart)
 * and the folders they leave, removed after it (removeEmptyFolders) where it did not fill them again.
 */
export interface Chosen {
  kept: Kept;
  batches: Job[][];
  fromSpare: number;
  /** Paths below the tree. */
  stale: string[];
  emptied: Set<string>;
}

/** Removes files below `tree` (those already gone skipped), noting their folders, which may now be empty. */
function removeFiles(tree: string, files: readonly string[], folders: Set<string>) {
  for (const path of files) {
    gone(unlinkSync, join(tree, path));
    folders.add(dirname(path));
  }
}

/**
 * Takes over the files, siblings and pictures of every group whose hash is unchanged, and returns
 * them with the batches still to render. With `spare` (the state of the tree before the previous
 * one, which `partial` now is, see reuseSpare), a group it holds with the same hash stays where it
 * is (the files its fit had left out, gone with its cache and named by its state, linked from the
 * previous build when its hash is the same too); the spare's files of the other groups are removed. Else, when the previous
 * build recorded the same hash, its files are linked in: into `partial` those of the previous tree,
 * into `cache` (the cache being made) those its fit left out. A group with a file missing from both
 * is rendered again (what was linked of it is removed first: a worker writing through a link would
 * change the previous build's file). When most of the spare's groups changed
 * (after a change of the engine, every one), its answers and pictures are handed to `discardTree`
 * whole instead of removed file by file (200,000 unlinks took 22.8 s), and the unchanged groups
 * are linked from the previous build.
 */
export function keepUnchanged(
  previousDir: string,
  partial: string,
  cache: string,
  batches: Job[][],
  hashes: ReadonlyMap<string, string>,
  state: BuildState | undefined,
  spareState?: BuildState,
  discardTree?: (path: string) => void,
): Chosen {
  const spare = spareState && discardTree && mostlyChanged(spareState, hashes) ? discardSpare(partial, discardTree) : spareState;
  if (!state && !spare) return { kept: NOTHING_KEPT, batches, fromSpare: 0, stale: [], emptied: new Set() };
  // A request's file, looked up among its group's jobs (a map per group: one of the plan's 265,000 requests took 0.5 s).
  const fileIn =
    (jobs: ReadonlyMap<string, Job>) =>
    (request: string): string | undefined =>
      jobs.get(request)?.[2] ?? staticFileOf(...requestParts(request));
  // The spare's left-out files as the answers they belong to, and pictures: a group none of whose answers or pictures
  // is one of them has none of its files left out, found without listing them.
  const leftOutFiles = new Set([...(spare?.leftOut ?? [])].map((path) => (path.startsWith("api/") ? answerFileOf(path.slice(4)) : path)));
  const absentIn = (group: GroupState, fileOf: (request: string) => string | undefined) =>
    group.results.some(([request, status]) => status === 200 && leftOutFiles.has(fileOf(request) ?? "")) ||
    group.pictures.some(([file]) => leftOutFiles.has(`pictures/${file}`))
      ? groupFiles(group, fileOf).filter((path) => spare?.leftOut.has(path))
      : [];
  const made = new Set<string>();
  const emptied = new Set<string>();
  const stale: string[] = [];
  const noteStale = (files: readonly string[]) => {
    for (const path of files) {
      stale.push(path);
      emptied.add(dirname(path));
    }
  };
  const kept: Kept = { results: [], groups: new Map(), pictures: { files: 0, bytes: 0 }, cached: new Set() };
  const toRender: Job[][] = [];
  const spareLeft = new Set(spare?.groups.keys());
  let fromSpare = 0;
  /** Files of the previous build linked in; the paths taken from its cache, or undefined when one is missing (nothing linked then). */
  const linkFiles = (paths: readonly string[]): string[] | undefined => {
    const linked: string[] = [];
    const cached: string[] = [];
    const whole = paths.every((path) => {
      // Where its state says; a file missing there is not linked, and its group is rendered again.
      const inTree = !state?.leftOut.has(path);
      const target = join(inTree ? partial : cache, path);
      const ok = linkInto(target, [join(inTree ? previousDir : cacheOf(previousDir), path)], made);
      if (ok) linked.push(target);
      if (ok && !inTree) cached.push(path);
      return ok;
    });
    if (whole) return cached;
    for (const target of linked) unlinkSync(target);
    return undefined;
  };
  for (const batch of batches) {
    const jobs = new Map(batch.map((job) => [job[1], job]));
    const fileOf = fileIn(jobs);
    const group = cacheGroupOf(batch[0][1]);
    const hash = hashes.get(group);
    const storedInSpare = spare?.groups.get(group);
    const inSpare = storedInSpare && groupOf(storedInSpare);
    spareLeft.delete(group);
    let taken: GroupState | undefined;
    let cached: string[] = [];
    const storedInPrevious = state?.groups.get(group);
    const sameInPrevious = storedInPrevious?.hash === hash;
    // In the spare: the files its fit had left out (gone with its cache) are taken from the previous build. Its state names
    // them: the spare is the tree its build published, moved aside since and never written to (200,000 files looked for
    // one by one took 1.3 s).
    const absent = spare && inSpare && inSpare.hash === hash ? absentIn(inSpare, fileOf) : undefined;
    const completed = absent && (absent.length === 0 ? [] : sameInPrevious ? linkFiles(absent) : undefined);
    if (inSpare && completed) {
      taken = inSpare;
      cached = completed;
      fromSpare++;
    } else {
      // Parsed only when its files are linked: after one change, most groups are in the spare as they are.
      const previous = sameInPrevious && storedInPrevious ? groupOf(storedInPrevious) : undefined;
      // Removed now where the previous build's files are linked in their place, else before the rendering (removeFilesApart).
      if (inSpare && previous) removeFiles(partial, groupFiles(inSpare, fileOf), emptied);
      else if (inSpare) noteStale(groupFiles(inSpare, fileOf));
      const linked = previous ? linkFiles(groupFiles(previous, fileOf)) : undefined;
      if (previous && linked) {
        taken = previous;
        cached = linked;
      }
    }
    if (!taken) {
      toRender.push(batch);
      continue;
    }
    kept.groups.set(group, taken);
    // The group's hash covers its requests, so each is in the plan.
    for (const [request, status, bytes, hash, encoded] of taken.results)
      kept.results.push({ index: jobs.get(request)?.[0] ?? -1, status, bytes, hash, encoded });
    // What a rendering in value order stopped before, in the build it comes from: rendered now if it fits. A result per
    // request of the group (its hash covers its requests) leaves none to look for.
    if (taken.results.length < batch.length) {
      const known = new Set(taken.results.map(([request]) => request));
      const missing = batch.filter(([, request]) => !known.has(request));
      if (missing.length) toRender.push(missing);
    }
    for (const path of cached) kept.cached.add(path);
    for (const [, bytes] of taken.pictures) {
      kept.pictures.files++;
      kept.pictures.bytes += bytes;
    }
  }
  // The spare's groups the plan no longer has.
  for (const group of spareLeft) {
    const stored = spare?.groups.get(group);
    if (stored) noteStale(groupFiles(groupOf(stored), fileIn(new Map())));
  }
  return { kept, batches: toRender, fromSpare, stale, emptied };
}

/**
 * Of what was taken over, drops what a build of the whole plan that stops where this one's
 * rendering was told to would never make: the answers `past` names (at or after the stop) and
 * every picture (drawn only when nothing stopped). Their links are removed from the tree being
 * made (`partial`) and the cache, and the groups' states no longer list them, so the next build
 * renders them if they fit then. An earlier build under a larger limit, or whose facts stopped it
 * later, may have made them.
 */
export function dropPastStop(kept: Kept, planned: readonly Planned[], past: (index: number) => boolean, dirs: { partial: string; cache: string }): Kept {
  const remove = (path: string) => {
    for (const dir of [dirs.partial, dirs.cache]) rmSync(join(dir, path), { force: true });
    kept.cached.delete(path);
  };
  const dropped = new Set<string>();
  const results = kept.results.filter((r) => {
    if (!past(r.index)) return true;
    const { request, file } = planned[r.index];
    dropped.add(request);
    if (r.status === 200) for (const suffix of ["", ...(Object.keys(r.encoded) as Encoding[]).map((e) => SIBLING_SUFFIX[e])]) remove(`api/${file}${suffix}`);
    return false;
  });
  const groups = new Map<string, GroupState>();
  for (const [name, group] of kept.groups) {
    for (const [file] of group.pictures) remove(`pictures/${file}`);
    groups.set(name, { ...group, results: group.results.filter(([request]) => !dropped.has(request)), pictures: [] });
  }
  return { ...kept, results, groups, pictures: { files: 0, bytes: 0 } };
}

/** The files the build knows it wrote (paths below the tree): their sizes, and for those of a planned request its index in the plan. */
export interface Known {
  sizes: Map<string, number>;
  orders: Map<string, number>;
}

/**
 * The files the build knows it wrote without reading the tree (paths below it), each told once to
 * `visit` with its size and the plan's index of its request (−1 for a picture taken over): the API
 * files and their siblings from the results, the pictures from those taken over and those drawn now
 * (results). Where a request has two results, the last one written, and the last one drawn, count;
 * a picture taken over and drawn again is told as drawn.
 */
export function forEachKnown(
  planned: readonly Planned[],
  results: readonly Rendered[],
  kept: Kept,
  visit: (path: string, bytes: number, index: number) => void,
) {
  /** Per request, the position in `results` of its last result that `has` (−1: none). */
  const lastOf = (has: (r: Rendered) => boolean) => {
    const last = new Int32Array(planned.length).fill(-1);
    results.forEach((r, i) => {
      if (has(r)) last[r.index] = i;
    });
    return last;
  };
  const written = lastOf((r) => r.status === 200);
  const drawn = lastOf((r) => r.picture !== undefined);
  results.forEach((r, i) => {
    if (written[r.index] !== i) return;
    const file = `api/${planned[r.index].file}`;
    visit(file, r.bytes, r.index);
    for (const [e, bytes] of Object.entries(r.encoded) as [Encoding, number][]) visit(file + SIBLING_SUFFIX[e], bytes, r.index);
  });
  const pictureOf = (r: Rendered) => `pictures/${pictureFileOf(planned[r.index].file)}`;
  const drawnNow = kept.groups.size ? new Set(results.filter((r, i) => drawn[r.index] === i).map(pictureOf)) : new Set<string>();
  for (const group of kept.groups.values())
    for (const [file, bytes] of group.pictures) if (!drawnNow.has(`pictures/${file}`)) visit(`pictures/${file}`, bytes, -1);
  results.forEach((r, i) => {
    if (drawn[r.index] === i) visit(pictureOf(r), r.picture as number, r.index);
  });
}

/** The sizes of the files the build knows (forEachKnown), and the plan's index of those of the results, named by the same strings. */
export function knownSizes(planned: readonly Planned[], results: readonly Rendered[], kept: Kept): Known {
  const sizes = new Map<string, number>();
  const orders = new Map<string, number>();
  forEachKnown(planned, results, kept, (path, bytes, index) => {
    sizes.set(path, bytes);
    if (index >= 0) orders.set(path, index);
  });
  return { sizes, orders };
}

/**
 * Writes the state of the tree just finished into the cache being made (which holds the files its
 * fit left out): per group its hash, its results and its pictures (those kept, and those drawn with
 * the results rendered now), the files the fit left out, and the datasets' hash and files. A group's requests a rendering in
 * value order never reached have no result: the next build renders them if they fit then.
 */
export function writeState(
  cache: string,
  manifestText: string,
  planned: readonly Planned[],
  results: readonly Rendered[],
  hashes: ReadonlyMap<string, string>,
  kept: Kept,
  leftOut: readonly string[],
  datasets?: StepState,
) {
  // A group taken over is written as it was read unless a result or picture is added to it now. What is added is noted
  // by group first, as results in turn, so that each group's line is made, written and let go in turn: with every
  // group's results made at once, a doubled archive's state held some 0.4 GB more.
  const added = new Map<string, Rendered[]>([...hashes.keys()].map((name) => [name, []]));
  const taken = new Set(kept.results);
  for (const r of results) {
    // A result taken over is in its group's results already: only a picture drawn now adds to it.
    if (taken.has(r) && r.picture === undefined) continue;
    const { group } = planned[r.index];
    const to = added.get(group);
    if (!to) throw new Error(`writeState: a result of the group '${group}', which the plan's hashes do not name`);
    to.push(r);
  }
  function* groups(): Generator<[string, GroupState]> {
    for (const [name, hash] of hashes) {
      const previous = kept.groups.get(name);
      const base = previous?.hash === hash ? previous : { hash, results: [], pictures: [] };
      const adding = added.get(name) ?? [];
      if (adding.length === 0) {
        yield [name, base];
        continue;
      }
      const group: GroupState = { hash, results: [...base.results], pictures: [...base.pictures] };
      for (const r of adding) {
        const p = planned[r.index];
        if (!taken.has(r)) group.results.push([p.request, r.status, r.bytes, r.hash, r.encoded]);
        // Drawn now: with its answer, or after the answers for one taken over.
        if (r.picture !== undefined) group.pictures.push([pictureFileOf(p.file), r.picture]);
      }
      yield [name, group];
    }
  }
  mkdirSync(cache, { recursive: true });
  // The manifest's hash first: belongsTo reads it alone.
  const manifest = sha256(Buffer.from(manifestText));
  writeStateFile(join(cache, STATE), manifest, groups(), leftOut);
  if (datasets) writeFileSync(join(cache, DATASETS_STATE), JSON.stringify({ manifest, datasets }));
}

/**
 * Puts the cache made by the build just swapped in at `<outDir>.cache`, the previous one thrown
 * away (scripts/swap.ts); with `spare`, when the previous tree became the spare, its state is kept
 * as the spare's.
 */
export function swapCache(outDir: string, spare = false) {
  if (spare) renameSync(join(cacheOf(outDir), STATE), spareStateOf(outDir));
  discard(outDir, cacheOf(outDir));
  renameSync(cachePartialOf(outDir), cacheOf(outDir));
}
