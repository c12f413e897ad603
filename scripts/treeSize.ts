/**
 * Bytes and files of a directory tree as hosts count them: the bytes of its files, and the bytes
 * of the tar archive GitHub Pages publishes (`tar -cf artifact.tar .` in GNU format: a 512-byte
 * header for each file and folder, a GNU long-name entry for names over 100 bytes, data padded to
 * 512 bytes, two zero blocks at the end, the whole padded to 10,240-byte records).
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

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

/** Tar bytes of one entry: its header, a long-name entry when its name does not fit, its data. */
export function tarEntryBytes(name: string, bytes: number): number {
  const nameBytes = Buffer.byteLength(name);
  return BLOCK + (nameBytes > 100 ? BLOCK + blocks(nameBytes + 1) : 0) + blocks(bytes);
}

/** Tar bytes of a whole archive whose entries add up to `entryBytes`. */
export const tarArchiveBytes = (entryBytes: number): number => Math.ceil((entryBytes + 2 * BLOCK) / RECORD) * RECORD;

/** A folder's name in the archive (`./api/`) and a file's (`./api/index.json`), relative to the root. */
export const tarName = (root: string, path: string, folder: boolean): string => {
  const rel = relative(root, path);
  return rel === "" ? "./" : `./${rel}${folder ? "/" : ""}`;
};

export function treeSize(dir: string): TreeSize {
  const size = { files: 0, folders: 0, bytes: 0, tarBytes: 0 };
  let entries = tarEntryBytes("./", 0);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) {
      size.folders++;
      entries += tarEntryBytes(tarName(dir, path, true), 0);
    } else if (entry.isFile()) {
      const bytes = statSync(path).size;
      size.files++;
      size.bytes += bytes;
      entries += tarEntryBytes(tarName(dir, path, false), bytes);
    }
  }
  size.tarBytes = tarArchiveBytes(entries);
  return size;
}
