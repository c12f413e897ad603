/**
 * Bytes and files of a directory tree as hosts count them: the bytes of its files, and the bytes
 * of the tar archive GitHub Pages publishes (`tar -cf artifact.tar .` in GNU format: a 512-byte
 * header for each file and folder, a GNU long-name entry for names over 100 bytes, data padded to
 * 512 bytes, two zero blocks at the end, the whole padded to 10,240-byte records).
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export interface TreeSize {
  files: number;
  folders: number;
  bytes: number;
  /** Bytes of the GNU tar of the tree (as `tar -cf - -C dir .` writes it). */
  tarBytes: number;
}

const BLOCK = 512;
const RECORD = 20 * BLOCK;
const blocks = (n: number): number => Math.ceil(n / BLOCK) * BLOCK;

/** Tar bytes of one entry whose name takes `nameBytes`: its header, a long-name entry when the name does not fit, its data. */
const entryBytes = (nameBytes: number, bytes: number): number => BLOCK + (nameBytes > 100 ? BLOCK + blocks(nameBytes + 1) : 0) + blocks(bytes);

/** Tar bytes of one entry named `name`. */
export const tarEntryBytes = (name: string, bytes: number): number => entryBytes(Buffer.byteLength(name), bytes);

/** Tar bytes of the file at `path` below the tree, named `./<path>` in the archive (without that name made). */
export const tarFileBytes = (path: string, bytes: number): number => entryBytes(Buffer.byteLength(path) + 2, bytes);

/** Tar bytes of the folder at `path` below the tree, named `./<path>/`. */
export const tarFolderBytes = (path: string): number => entryBytes(Buffer.byteLength(path) + 3, 0);

/** Tar bytes of a whole archive whose entries add up to `entryBytes`. */
export const tarArchiveBytes = (entryBytes: number): number => Math.ceil((entryBytes + 2 * BLOCK) / RECORD) * RECORD;

/** A tree as a walk finds it: its files (paths below it, with forward slashes) with their bytes, and its folders. */
export interface Listing {
  files: Map<string, number>;
  folders: Set<string>;
}

/** The folder a path lies in (paths below the tree; "" for the tree itself). */
export const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));
/** The folder a known file's subtree is cut at: its first two names (`api/tuning-systems`), or none when it lies higher. */
const cutOf = (path: string): string | undefined => {
  const second = path.indexOf("/", path.indexOf("/") + 1);
  return second < 0 ? undefined : path.slice(0, second);
};

/**
 * The files and folders below `dir`. `known` (path → bytes) are files the caller knows to be there
 * with their sizes: they are not read again, and a folder at their cut (`api/tuning-systems`, see
 * cutOf) is not walked at all — the caller vouches that it holds those files and no others (and no
 * empty folders) — unless it is in `walked`, where every file is read (others write there).
 * Everything else is walked, the sizes of files not known read. Known files `elsewhere` (an
 * incremental build's left out, in its cache) are not below `dir`: they are not listed.
 */
export function listTree(
  dir: string,
  known: ReadonlyMap<string, number> = new Map(),
  walked: ReadonlySet<string> = new Set(),
  elsewhere: ReadonlySet<string> = new Set(),
): Listing {
  // Consecutive known files mostly share their cut and their folder: the previous one's are reused, not sliced again.
  const inFolder = (path: string, folder: string) => path.length > folder.length && path.charCodeAt(folder.length) === 47 && path.startsWith(folder);
  let lastCut = "";
  const cutOfKnown = Array.from(known.keys(), (path) => {
    if (elsewhere.has(path)) return undefined;
    if (lastCut && inFolder(path, lastCut)) return lastCut;
    const cut = cutOf(path);
    if (cut !== undefined) lastCut = cut;
    return cut;
  });
  const cuts = new Set(cutOfKnown.filter((cut): cut is string => cut !== undefined && !walked.has(cut)));
  const listing: Listing = { files: new Map(), folders: new Set() };
  const walk = (folder: string, told: ReadonlyMap<string, number>) => {
    for (const entry of readdirSync(join(dir, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        listing.folders.add(path);
        if (!cuts.has(path)) walk(path, walked.has(path) ? new Map() : told);
      } else if (entry.isFile()) listing.files.set(path, told.get(path) ?? statSync(join(dir, path)).size);
    }
  };
  walk("", known);
  let i = 0;
  let lastFolder = "";
  for (const [path, bytes] of known) {
    const cut = cutOfKnown[i++];
    if (cut === undefined || !cuts.has(cut)) continue;
    listing.files.set(path, bytes);
    if (lastFolder && inFolder(path, lastFolder) && path.indexOf("/", lastFolder.length + 1) < 0) continue;
    lastFolder = parentOf(path);
    // Up to the cut, which the walk listed (or to the root, were it missing).
    for (let folder = lastFolder; folder && !listing.folders.has(folder); folder = parentOf(folder)) listing.folders.add(folder);
  }
  return listing;
}

/** The size of a listed tree as hosts count it; folders and files are named in the archive as `./api/` and `./api/index.json`. */
export function sizeOfListing(listing: Listing): TreeSize {
  const size = { files: listing.files.size, folders: listing.folders.size, bytes: 0, tarBytes: 0 };
  let entries = tarEntryBytes("./", 0);
  for (const folder of listing.folders) entries += tarFolderBytes(folder);
  for (const [path, bytes] of listing.files) {
    size.bytes += bytes;
    entries += tarFileBytes(path, bytes);
  }
  size.tarBytes = tarArchiveBytes(entries);
  return size;
}

/** The size of the tree at `dir`, every file read. */
export const treeSize = (dir: string): TreeSize => sizeOfListing(listTree(dir));
