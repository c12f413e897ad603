/**
 * What a build keeps for the next one, in `<outDir>.cache/` beside the published tree (so the host
 * never sees it): state.json — the SHA-256 of the manifest it belongs to and, per group of the
 * plan, its content hash (scripts/sliceHash.ts), the results of its requests and the sizes of its
 * pictures, and the datasets' hash and files — and the files the fit left out, which a later fit
 * may keep. A build over an existing one hard-links the files of every group whose hash is
 * unchanged into its new tree (those left out into its new cache) and renders only the others;
 * the result is the tree a clean build writes.
 */
import { createHash } from "node:crypto";
import { existsSync, linkSync, copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { SIBLING_SUFFIX, type Encoding } from "../src/serve/handler.js";
import type { Job, Rendered } from "./buildWorker.js";
import type { Planned } from "./manifest.js";
import { cacheGroupOf } from "./renderSlice.js";
import { pictureFileOf } from "./pictures.js";
import { discard } from "./swap.js";

export const cacheOf = (outDir: string) => `${outDir}.cache`;
export const cachePartialOf = (outDir: string) => `${outDir}.cache.partial`;

/** A request's result as kept: request, status, bytes, content hash, sizes of the siblings. */
type KeptResult = [request: string, status: number, bytes: number, hash: string, encoded: Partial<Record<Encoding, number>>];

interface GroupState {
  hash: string;
  results: KeptResult[];
  /** Pictures drawn for the group: file below pictures/ and bytes. */
  pictures: [file: string, bytes: number][];
}

/** The files one step of the finishing wrote (paths below the tree), by the hash of what they are made of. */
export interface StepState {
  hash: string;
  files: string[];
}

export interface BuildState {
  /** SHA-256 of the manifest.json this state describes: a state of another tree is not used. */
  manifest: string;
  groups: Record<string, GroupState>;
  datasets?: StepState;
}

const STATE = "state.json";
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The state of the build at `outDir`, when it has one that belongs to its manifest. */
export function readState(outDir: string): BuildState | undefined {
  const stateFile = join(cacheOf(outDir), STATE);
  const manifestFile = join(outDir, "manifest.json");
  if (!existsSync(stateFile) || !existsSync(manifestFile)) return undefined;
  const state = JSON.parse(readFileSync(stateFile, "utf8")) as BuildState;
  return state.manifest === sha256(readFileSync(manifestFile)) ? state : undefined;
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

/** Hard-links (or, across file systems, copies) a previous file into the new tree; false when it is in neither place. */
function linkInto(target: string, sources: string[], made: Set<string>): boolean {
  const dir = dirname(target);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  for (const source of sources) {
    try {
      linkSync(source, target);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue;
      if (code !== "EXDEV" && code !== "EPERM") throw e;
      copyFileSync(source, target);
      return true;
    }
  }
  return false;
}

/**
 * Takes over the files, siblings and pictures of every group whose hash is the one the previous
 * build recorded — into `partial` those of the previous tree, into `cache` (the cache being made)
 * those its fit left out — and returns them with the batches still to render. A group with a file
 * missing from the previous tree and its cache is rendered again (what was linked of it is removed
 * first: a worker writing through a link would change the previous build's file).
 */
export function keepUnchanged(
  previousDir: string,
  partial: string,
  cache: string,
  planned: readonly Planned[],
  batches: Job[][],
  hashes: ReadonlyMap<string, string>,
  state: BuildState | undefined,
): { kept: Kept; batches: Job[][] } {
  if (!state) return { kept: NOTHING_KEPT, batches };
  const indexOf = new Map(planned.map((p, i) => [p.request, i]));
  const made = new Set<string>();
  const kept: Kept = { results: [], groups: new Map(), pictures: { files: 0, bytes: 0 }, cached: new Set() };
  const toRender: Job[][] = [];
  for (const batch of batches) {
    const group = cacheGroupOf(batch[0][1]);
    const previous = state.groups[group];
    if (previous?.hash !== hashes.get(group)) {
      toRender.push(batch);
      continue;
    }
    const linked: string[] = [];
    const cached: string[] = [];
    const take = (path: string) => {
      const inTree = existsSync(join(previousDir, path));
      const target = join(inTree ? partial : cache, path);
      const ok = linkInto(target, [join(inTree ? previousDir : cacheOf(previousDir), path)], made);
      if (ok) linked.push(target);
      if (ok && !inTree) cached.push(path);
      return ok;
    };
    const results: Rendered[] = [];
    let whole = true;
    for (const [request, status, bytes, hash, encoded] of previous.results) {
      // The group's hash covers its requests, so each is in the plan.
      const index = indexOf.get(request) ?? -1;
      results.push({ index, status, bytes, hash, encoded, computeMs: 0, writeMs: 0 });
      if (status !== 200) continue;
      const file = `api/${planned[index].file}`;
      whole &&= take(file) && (Object.keys(encoded) as Encoding[]).every((e) => take(file + SIBLING_SUFFIX[e]));
      if (!whole) break;
    }
    whole &&= previous.pictures.every(([file]) => take(`pictures/${file}`));
    if (!whole) {
      for (const target of linked) unlinkSync(target);
      toRender.push(batch);
      continue;
    }
    kept.groups.set(group, previous);
    kept.results.push(...results);
    // What a rendering in value order stopped before, in the previous build: rendered now if it fits.
    const known = new Set(previous.results.map(([request]) => request));
    const missing = batch.filter(([, request]) => !known.has(request));
    if (missing.length) toRender.push(missing);
    for (const path of cached) kept.cached.add(path);
    for (const [, bytes] of previous.pictures) {
      kept.pictures.files++;
      kept.pictures.bytes += bytes;
    }
  }
  return { kept, batches: toRender };
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

/** The files below `root`/`dir`, as paths relative to `root` with forward slashes. */
function filesBelow(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/"));
}

/**
 * One step of the finishing that writes below `dir` of the tree being made (`partial`): when the
 * previous build recorded the same hash for it, its files are taken over from the previous tree
 * or its cache; else (or when one of them is gone) `write` runs. Returns what the state records.
 */
export async function keepOrWrite(
  partial: string,
  dir: string,
  previousDir: string,
  previous: StepState | undefined,
  hash: string,
  write: () => Promise<unknown>,
): Promise<StepState> {
  if (previous?.hash === hash) {
    const made = new Set<string>();
    const linked: string[] = [];
    const whole = previous.files.every((file) => {
      const target = join(partial, file);
      const ok = linkInto(
        target,
        [previousDir, cacheOf(previousDir)].map((p) => join(p, file)),
        made,
      );
      if (ok) linked.push(target);
      return ok;
    });
    if (whole) return previous;
    // `write` would otherwise write through the links into the previous build's files.
    for (const target of linked) unlinkSync(target);
  }
  const before = new Set(filesBelow(partial, dir));
  await write();
  return { hash, files: filesBelow(partial, dir).filter((f) => !before.has(f)) };
}

/**
 * The sizes of the files the build knows without reading the tree (paths below it): the API files
 * and their siblings from the results, the pictures from those taken over and those drawn now (results).
 */
export function knownSizes(planned: readonly Planned[], results: readonly Rendered[], kept: Kept): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const r of results) {
    if (r.status !== 200) continue;
    const file = `api/${planned[r.index].file}`;
    sizes.set(file, r.bytes);
    for (const [e, bytes] of Object.entries(r.encoded) as [Encoding, number][]) sizes.set(file + SIBLING_SUFFIX[e], bytes);
  }
  for (const group of kept.groups.values()) for (const [file, bytes] of group.pictures) sizes.set(`pictures/${file}`, bytes);
  for (const r of results) if (r.picture !== undefined) sizes.set(`pictures/${pictureFileOf(planned[r.index].file)}`, r.picture);
  return sizes;
}

/**
 * Writes the state of the tree just finished into the cache being made (which holds the files its
 * fit left out): per group its hash, its results and its pictures (those kept, and those drawn with
 * the results rendered now), and the datasets' hash and files. A group's requests a rendering in
 * value order never reached have no result: the next build renders them if they fit then.
 */
export function writeState(
  cache: string,
  manifestText: string,
  planned: readonly Planned[],
  results: readonly Rendered[],
  hashes: ReadonlyMap<string, string>,
  kept: Kept,
  datasets?: StepState,
) {
  const groups: Record<string, GroupState> = {};
  for (const [group, hash] of hashes) {
    const previous = kept.groups.get(group);
    groups[group] = { hash, results: [...(previous?.results ?? [])], pictures: [...(previous?.pictures ?? [])] };
  }
  const taken = new Set(kept.results);
  for (const r of results) {
    const p = planned[r.index];
    const group = groups[cacheGroupOf(p.request)];
    if (!taken.has(r)) group.results.push([p.request, r.status, r.bytes, r.hash, r.encoded]);
    // Drawn now: with its answer, or after the answers for one taken over.
    if (r.picture !== undefined) group.pictures.push([pictureFileOf(p.file), r.picture]);
  }
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, STATE), JSON.stringify({ manifest: sha256(Buffer.from(manifestText)), groups, datasets } satisfies BuildState));
}

/** Puts the cache made by the build just swapped in at `<outDir>.cache`, the previous one thrown away (scripts/swap.ts). */
export function swapCache(outDir: string) {
  discard(outDir, cacheOf(outDir));
  renameSync(cachePartialOf(outDir), cacheOf(outDir));
}
