/** Bytes and files of a directory tree: what a host publishes when it uploads the tree. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export interface TreeSize {
  files: number;
  bytes: number;
}

export function treeSize(dir: string): TreeSize {
  const size = { files: 0, bytes: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    size.files++;
    size.bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return size;
}
