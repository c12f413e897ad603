/**
 * The build's planner: every profile declares the limits of its host, and what the build writes is
 * ranked by value and kept in that order while it fits those limits with HEADROOM to spare. What is
 * left out is computed by the service worker, the client, the worker and the fallback with the
 * same bytes, so every profile deploys whatever the archive holds.
 */
import { TABLES } from "../src/api/datasets/tables.js";
import { requestParts, requestText } from "../src/api/staticPath.js";
import { EXPLORER_FIRST_VIEW } from "./prerender/index.js";
import { parentOf, tarArchiveBytes, tarEntryBytes, tarFileBytes, tarFolderBytes } from "./treeSize.js";

/** Share of every limit the build leaves free, so the next few facts still deploy. */
export const HEADROOM = 0.1;

/** What a host accepts, as it counts: hard limits (over one, the build fails). */
export interface HostLimits {
  /** Bytes of the tar archive the host is sent (GitHub Pages' artifact). */
  tarBytes?: number;
  /** Files in the published tree. */
  files?: number;
  /** Bytes of the largest file. */
  fileBytes?: number;
}

/** Whether a host sets any limit at all (the `full` profile sets none: everything it renders is kept). */
export const hasLimits = (limits: HostLimits): boolean => limits.tarBytes !== undefined || limits.files !== undefined || limits.fileBytes !== undefined;

/** The value classes, most valuable first: a class is kept whole before the next one starts. */
export const VALUE_CLASSES = [
  // The site, the bundles and the root files: without them nothing works.
  "site",
  // Lists, indexes and per-entity answers that name no tuning system.
  "index",
  // Answers for one tuning system and starting note in their default forms.
  "base",
  // Scala and AnaMark files for instruments.
  "export",
  // The SQLite database of every table (coded, under 100 MB): the SQL page (public/sql.html)
  // queries it over range requests, and nothing else can stand in for it.
  "database",
  // The datasets' CSV tables: nothing on a static host can compute them (their Parquet twins and
  // the dictionary, a few MB, rank with the indexes).
  "dataset",
  // Transpositions, other value formats, Arabic names and other variants.
  "variant",
  // A tuning already in the tree in another format: a rendering's .tun is its .scl on its note-name .kbm.
  "restated",
  // Pictures of renderings: the explorer draws them anyway.
  "picture",
] as const;
export type ValueClass = (typeof VALUE_CLASSES)[number];

/** The value class of a file of the datasets (its path below build/api/datasets/). */
export function datasetClassOf(file: string): ValueClass {
  if (file.endsWith(".sqlite")) return "database";
  return file.endsWith(".csv") ? "dataset" : "index";
}

/**
 * The place of a dataset file in its class: the tables in the dictionary's order (the reference
 * tables and pitch classes first, the renderings next, `modulations` last), so that when the
 * host's limit cuts the CSV tables, it cuts the last of them rather than the first in the alphabet.
 */
export function datasetOrderOf(file: string): number {
  const name = file.slice(file.lastIndexOf("/") + 1);
  const at = TABLES.findIndex((t) => name.startsWith(`${t.name}.`));
  return at < 0 ? TABLES.length : at;
}

/** Parameters that only choose the tuning system and starting note of an answer. */
const SCOPE_PARAMS = new Set(["tuningSystem", "startingNote"]);

const FIRST_VIEW = new Set(EXPLORER_FIRST_VIEW);
const FIRST_VIEW_PATHS = new Set(EXPLORER_FIRST_VIEW.map((request) => request.replace(/\?.*/, "")));
// The path first: the plan's other requests, hundreds of thousands, build no string.
const isFirstView = (pathname: string, query: URLSearchParams) => FIRST_VIEW_PATHS.has(pathname) && FIRST_VIEW.has(requestText(pathname, query));

/** The AnaMark tuning of a maqām or jins rendering (docs/exports.md). */
const RESTATED = /^\/exports\/(maqamat|ajnas)\/.+\.tun$/;

/**
 * The value class of a pre-rendered request (its path below /api with its query), split by hand
 * (requestParts): the build asks this of every request of the plan, several times.
 */
export const valueClassOf = (request: string): ValueClass => valueClassOfParts(...requestParts(request));

/** The value class of a request split into its path and query (the plan splits each request once, and records its class). */
export function valueClassOfParts(pathname: string, query: URLSearchParams): ValueClass {
  if (RESTATED.test(pathname)) return "restated";
  if (pathname.startsWith("/exports/")) return "export";
  // The explorer's first view ranks with the indexes: the landing page needs it on every host.
  if (isFirstView(pathname, query)) return "index";
  const keys = [...query.keys()];
  if (!keys.every((k) => SCOPE_PARAMS.has(k))) return "variant";
  return keys.length || /^\/tuning-systems\/[^/]+\/[^/]+\//.test(pathname) ? "base" : "index";
}

/** One file the build wrote: its path relative to the output, bytes, class and place in its class. */
export interface Candidate {
  path: string;
  bytes: number;
  valueClass: ValueClass;
  order: number;
}

export interface Fitted {
  kept: Candidate[];
  left: Candidate[];
  /** The kept tree as the host counts it. */
  measured: { files: number; bytes: number; tarBytes: number };
}

/** A limit the kept tree passes, named for the build's error; undefined when all hold. */
export function limitPassed(limits: HostLimits, measured: Fitted["measured"], largest: number): string | undefined {
  if (limits.tarBytes !== undefined && measured.tarBytes > limits.tarBytes)
    return `the tar of the tree is ${measured.tarBytes} bytes, over the host's ${limits.tarBytes}`;
  if (limits.files !== undefined && measured.files > limits.files) return `the tree holds ${measured.files} files, over the host's ${limits.files}`;
  if (limits.fileBytes !== undefined && largest > limits.fileBytes) return `a file of ${largest} bytes, over the host's ${limits.fileBytes} per file`;
  return undefined;
}

/** Whether `path` lies directly in `folder` (a folder below the tree, not its root), found without a name sliced. */
const directlyIn = (path: string, folder: string) => folder !== "" && path.lastIndexOf("/") === folder.length && path.startsWith(folder);

/** The folders of `path` not yet in `folders` (paths below the tree): an ancestor of a folder there is there too. */
const newFoldersOf = (path: string, folders: ReadonlySet<string>): string[] => {
  const names: string[] = [];
  for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) {
    const name = path.slice(0, at);
    if (folders.has(name)) break;
    names.push(name);
  }
  return names;
};

/** Each class's place in VALUE_CLASSES, by name: a sort of the tree's half a million files compares millions of times. */
export const VALUE_RANK = Object.fromEntries(VALUE_CLASSES.map((c, i) => [c, i])) as Readonly<Record<ValueClass, number>>;

/** The value ranking: class, then `order`, then path. */
export function byValue(a: Candidate, b: Candidate): number {
  return VALUE_RANK[a.valueClass] - VALUE_RANK[b.valueClass] || a.order - b.order || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** A fit made one candidate at a time, in value order: what fitToLimits does, for a caller that learns the candidates class by class. */
export interface Fit {
  /** Keeps `c` if the tree stays within the limits with it (a site file always); false, and nothing kept, if not. */
  add: (c: Candidate) => boolean;
  measured: Fitted["measured"];
}

/** An empty fit of the tree within each limit less HEADROOM, with `reservedTarBytes` kept free for files written later. */
export function startFit(limits: HostLimits, reservedTarBytes = 0): Fit {
  const soft = (limit: number | undefined) => (limit === undefined ? Infinity : limit * (1 - HEADROOM));
  const folders = new Set<string>();
  let tarEntries = tarEntryBytes("./", 0) + reservedTarBytes;
  const measured = { files: 0, bytes: 0, tarBytes: tarArchiveBytes(tarEntries) };
  // The folder of the last file kept: consecutive files mostly share theirs, which is then there already.
  let lastFolder = "";
  const add = (c: Candidate) => {
    const sameFolder = directlyIn(c.path, lastFolder);
    const newFolders = sameFolder ? [] : newFoldersOf(c.path, folders);
    let entries = tarEntries + tarFileBytes(c.path, c.bytes);
    for (const f of newFolders) entries += tarFolderBytes(f);
    const fits = tarArchiveBytes(entries) <= soft(limits.tarBytes) && measured.files + 1 <= soft(limits.files) && c.bytes <= (limits.fileBytes ?? Infinity);
    if (!fits && c.valueClass !== "site") return false;
    for (const f of newFolders) folders.add(f);
    if (!sameFolder) lastFolder = parentOf(c.path);
    tarEntries = entries;
    measured.files++;
    measured.bytes += c.bytes;
    measured.tarBytes = tarArchiveBytes(entries);
    return true;
  };
  return { add, measured };
}

/**
 * Keeps the candidates in value order (class, then `order`) while the tree stays within each limit
 * less HEADROOM, with `reservedTarBytes` kept free for files written later; the site class is always kept. Stops at the first candidate that does not fit, so
 * what is kept is a prefix of the ranking and the same facts always keep the same files. Without limits, all are kept in the order given.
 */
export function fitToLimits(candidates: readonly Candidate[], limits: HostLimits, reservedTarBytes = 0): Fitted {
  // Without a limit every candidate is kept and the sums do not depend on the order: the `full` profile's millions of files are not ranked.
  const ranked = hasLimits(limits) ? [...candidates].sort(byValue) : candidates;
  const fit = startFit(limits, reservedTarBytes);
  let stop = ranked.length;
  for (const [i, c] of ranked.entries())
    if (!fit.add(c)) {
      stop = i;
      break;
    }
  return { kept: ranked.slice(0, stop), left: ranked.slice(stop), measured: fit.measured };
}

/** What a build left out, for manifest.json and the build's output: counts and bytes per class, a few examples. */
export interface LeftOut {
  files: number;
  bytes: number;
  byClass: Partial<Record<ValueClass, { files: number; bytes: number }>>;
  examples: string[];
}

export function leftOutOf(left: readonly Candidate[]): LeftOut {
  const byClass: LeftOut["byClass"] = {};
  for (const c of left) {
    const t = byClass[c.valueClass] ?? { files: 0, bytes: 0 };
    byClass[c.valueClass] = t;
    t.files++;
    t.bytes += c.bytes;
  }
  return {
    files: left.length,
    bytes: left.reduce((sum, c) => sum + c.bytes, 0),
    byClass,
    examples: left.slice(0, 10).map((c) => c.path),
  };
}

/** What a rendering in value order never reached: answers by value class, and pictures. Their bytes are unknown. */
export interface NotRendered {
  requests: number;
  byClass: Partial<Record<ValueClass, number>>;
  /** Realisations without a picture drawn (now or by the previous build), the answers not rendered included. */
  pictures: number;
}
