/**
 * The asset reader of the Node server: pre-rendered files of a build directory, with their
 * precompressed siblings, kept in a byte-bounded memory cache that is dropped when a new build
 * is swapped in. Only paths that staticFileOf derives (plain segments, no dot segments) reach
 * it, and it reads only inside `<buildDir>/api`.
 */
import { readFile, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { COMPRESS_MIN_BYTES, ENCODINGS, SIBLING_SUFFIX, contentHash, type Asset, type AssetReader, type Bytes } from "./handler.js";

export interface NodeAssetOptions {
  /** Directory holding `api/…` pre-rendered files and `manifest.json`; may be missing. */
  buildDir: string;
  /** Bytes of files (with their compressed siblings) kept in memory; default 16 MB. */
  cacheBytes?: number;
  /** How often (ms) to look whether a new build replaced the directory; default 1000. */
  recheckMs?: number;
}

async function readIfFile(path: string): Promise<Bytes | undefined> {
  try {
    const data = await readFile(path);
    // A file's Buffer sits on a plain ArrayBuffer of its own; view it without copying.
    return new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "ENAMETOOLONG") return undefined;
    throw e;
  }
}

/** Least-recently-used map bounded by bytes (Map keeps insertion order). */
function byteBoundedCache<V>(limit: number, sizeOf: (v: V) => number) {
  const entries = new Map<string, V>();
  let bytes = 0;
  return {
    get(key: string): V | undefined {
      const v = entries.get(key);
      if (v !== undefined) {
        entries.delete(key);
        entries.set(key, v);
      }
      return v;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    set(key: string, v: V) {
      const size = sizeOf(v);
      if (size > limit) return;
      entries.set(key, v);
      bytes += size;
      for (const [k, old] of entries) {
        if (bytes <= limit) break;
        entries.delete(k);
        bytes -= sizeOf(old);
      }
    },
  };
}

const assetBytes = (a: Asset) => a.body.length + Object.values(a.encoded ?? {}).reduce((s, b) => s + b.length, 0);

export function nodeAssets(options: NodeAssetOptions): AssetReader {
  const root = resolve(options.buildDir, "api");
  const cache = byteBoundedCache<Asset>(options.cacheBytes ?? 16 * 1024 * 1024, assetBytes);
  // A build swaps in a whole new directory with a new manifest.json: its inode tells them apart.
  const buildStamp = async () => {
    const st = await stat(join(options.buildDir, "manifest.json")).catch(() => undefined);
    return st ? `${st.ino}:${st.mtimeMs}` : "";
  };
  let stamp: Promise<string> = buildStamp();
  let checkedAt = performance.now();
  return async (file) => {
    if (performance.now() - checkedAt >= (options.recheckMs ?? 1000)) {
      checkedAt = performance.now();
      const [before, now] = [await stamp, await buildStamp()];
      if (now !== before) cache.clear();
      stamp = Promise.resolve(now);
    }
    const cached = cache.get(file);
    if (cached) return cached;
    const full = resolve(root, file);
    const body = full.startsWith(root + sep) ? await readIfFile(full) : undefined;
    if (!body) return undefined;
    const encoded: Asset["encoded"] = {};
    if (body.length > COMPRESS_MIN_BYTES)
      for (const e of ENCODINGS) {
        const sibling = await readIfFile(full + SIBLING_SUFFIX[e]);
        if (sibling) encoded[e] = sibling;
      }
    const asset: Asset = { body, encoded, hash: await contentHash(body) };
    cache.set(file, asset);
    return asset;
  };
}
