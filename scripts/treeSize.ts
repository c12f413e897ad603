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

/** Files the build knows are below a tree, each named once with its size: told to `visit`, as often as asked, not held. */
export type KnownFiles = (visit: (path: string, bytes: number) => void) => void;

/** The files a listing did not hold one by one, only counted: their number, their bytes, and their tar entries' bytes. */
export interface Counted {
  files: number;
  bytes: number;
  tarEntryBytes: number;
}

export const NOTHING_COUNTED: Counted = { files: 0, bytes: 0, tarEntryBytes: 0 };

/**
 * The walk both listTree and countTree make: the folders below `dir` (into `listing`) and its
 * files, the known ones in their cut (see listTree) told to `onKnown`, the others walked into
 * `listing.files`, sized by `sizeOf` where it knows them, else read.
 */
function walkTree(
  dir: string,
  known: KnownFiles,
  sizeOf: (path: string) => number | undefined,
  walked: ReadonlySet<string>,
  elsewhere: ReadonlySet<string>,
  onKnown: (listing: Listing, path: string, bytes: number) => void,
): Listing {
  // Consecutive known files mostly share their cut and their folder: the previous one's are reused, not sliced again.
  const inFolder = (path: string, folder: string) => path.length > folder.length && path.charCodeAt(folder.length) === 47 && path.startsWith(folder);
  let lastCut = "";
  const cutOfKnown = (path: string) => {
    if (elsewhere.has(path)) return undefined;
    if (lastCut && inFolder(path, lastCut)) return lastCut;
    const cut = cutOf(path);
    if (cut !== undefined) lastCut = cut;
    return cut;
  };
  const cuts = new Set<string>();
  known((path) => {
    const cut = cutOfKnown(path);
    if (cut !== undefined && !walked.has(cut)) cuts.add(cut);
  });
  const listing: Listing = { files: new Map(), folders: new Set() };
  const walk = (folder: string, told: (path: string) => number | undefined) => {
    for (const entry of readdirSync(join(dir, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        listing.folders.add(path);
        if (!cuts.has(path)) walk(path, walked.has(path) ? () => undefined : told);
      } else if (entry.isFile()) listing.files.set(path, told(path) ?? statSync(join(dir, path)).size);
    }
  };
  walk("", sizeOf);
  lastCut = "";
  let lastFolder = "";
  known((path, bytes) => {
    const cut = cutOfKnown(path);
    if (cut === undefined || !cuts.has(cut)) return;
    onKnown(listing, path, bytes);
    if (lastFolder && inFolder(path, lastFolder) && path.indexOf("/", lastFolder.length + 1) < 0) return;
    lastFolder = parentOf(path);
    // Up to the cut, which the walk listed (or to the root, were it missing).
    for (let folder = lastFolder; folder && !listing.folders.has(folder); folder = parentOf(folder)) listing.folders.add(folder);
  });
  return listing;
}

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
  return walkTree(
    dir,
    (visit) => {
      for (const [path, bytes] of known) visit(path, bytes);
    },
    (path) => known.get(path),
    walked,
    elsewhere,
    (listing, path, bytes) => listing.files.set(path, bytes),
  );
}

/**
 * listTree without a name held per known file: those in their cut are only counted (a few million
 * for the `full` profile, whose Map of names took hundreds of MB at the build's peak), the rest
 * listed. sizeOfListing(listing, counted) is then the size of the whole tree. `known` must name
 * each file once.
 */
export function countTree(dir: string, known: KnownFiles, walked: ReadonlySet<string> = new Set()): { listing: Listing; counted: Counted } {
  const counted = { ...NOTHING_COUNTED };
  const listing = walkTree(
    dir,
    known,
    () => undefined,
    walked,
    new Set(),
    (_, path, bytes) => {
      counted.files++;
      counted.bytes += bytes;
      counted.tarEntryBytes += tarFileBytes(path, bytes);
    },
  );
  return { listing, counted };
}

/** The bytes of the tar entries of a listed tree and of those `counted` (without the archive's end and records), with its files and bytes. */
export function entriesOfListing(listing: Listing, counted: Counted = NOTHING_COUNTED): { files: number; bytes: number; entries: number; folders: number } {
  const size = {
    files: listing.files.size + counted.files,
    folders: listing.folders.size,
    bytes: counted.bytes,
    entries: tarEntryBytes("./", 0) + counted.tarEntryBytes,
  };
  for (const folder of listing.folders) size.entries += tarFolderBytes(folder);
  for (const [path, bytes] of listing.files) {
    size.bytes += bytes;
    size.entries += tarFileBytes(path, bytes);
  }
  return size;
}

/** The size of a listed tree as hosts count it, with the files `counted` beside it; folders and files are named in the archive as `./api/` and `./api/index.json`. */
export function sizeOfListing(listing: Listing, counted: Counted = NOTHING_COUNTED): TreeSize {
  const { files, folders, bytes, entries } = entriesOfListing(listing, counted);
  return { files, folders, bytes, tarBytes: tarArchiveBytes(entries) };
}

/** The size of the tree at `dir`, every file read. */
export const treeSize = (dir: string): TreeSize => sizeOfListing(listTree(dir));
