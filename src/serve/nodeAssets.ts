/**
 * The files of the Node server: a build directory's pre-rendered answers (below `api/`) and the
 * site beside them, kept in a byte-bounded memory cache that is dropped when a new build is
 * swapped in. Each file over COMPRESS_MIN_BYTES is kept with its gzip and brotli forms (the
 * build's precompressed siblings when it wrote them, else made once, off the main thread, when the
 * file is first read) and the answers the server recorded for it (server.ts), so a file is read,
 * compressed and given its headers once. Only keys that staticFileOf or siteFileOf derive (plain
 * segments, no dot segments) reach it, and it reads only inside the build directory.
 */
import { readFile, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import { join, resolve, sep } from "node:path";
import { COMPRESS_MIN_BYTES, ENCODINGS, SIBLING_SUFFIX, contentHash, type Asset, type AssetReader, type Bytes, type Encoding } from "./handler.js";

export interface NodeAssetOptions {
  /** Directory holding `api/…` pre-rendered files, the site and `manifest.json`; may be missing. */
  buildDir: string;
  /** Bytes of files (with their compressed forms) kept in memory; default DEFAULT_CACHE_BYTES. */
  cacheBytes?: number;
  /** How often (ms) to look whether a new build replaced the directory; default 1000. */
  recheckMs?: number;
}

export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** An answer the server recorded for one form of a file: status, header list (name, value, …) and body. */
export interface RecordedAnswer {
  status: number;
  headers: string[];
  body: Bytes | undefined;
}

/** A file in the cache: its bytes, compressed forms, content hash and the answers recorded for it. */
export interface StoredFile extends Asset {
  encoded: Partial<Record<Encoding, Bytes>>;
  hash: string;
  answers: Map<string, RecordedAnswer>;
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

/** Room for the recorded answers' headers (a few hundred bytes each, a handful per file). */
const ANSWERS_ALLOWANCE = 2048;
const storedBytes = (f: StoredFile) => f.body.length + Object.values(f.encoded).reduce((s, b) => s + b.length, 0) + ANSWERS_ALLOWANCE;

const asBytes = (b: Buffer): Bytes => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** The forms made when the build wrote no sibling: zlib's default gzip level and brotli 5, as PRECOMPRESS=gzip,br writes them. */
const MAKE: Record<Encoding, (body: Bytes) => Promise<Bytes>> = {
  gzip: async (body) => asBytes(await gzipAsync(body)),
  br: async (body) => asBytes(await brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })),
};

export interface FileStore {
  /** The file at `key` (a path below the build directory), read on first use; undefined when absent. */
  get(key: string): Promise<StoredFile | undefined>;
  /** The file at `key` when it is in memory and the build was looked at recently; else undefined (use get). */
  peek(key: string): StoredFile | undefined;
}

export function fileStore(options: NodeAssetOptions): FileStore {
  const root = resolve(options.buildDir);
  const recheckMs = options.recheckMs ?? 1000;
  const cache = byteBoundedCache<StoredFile>(options.cacheBytes ?? DEFAULT_CACHE_BYTES, storedBytes);
  // A build swaps in a whole new directory with a new manifest.json: its inode tells them apart.
  const buildStamp = async () => {
    const st = await stat(join(root, "manifest.json")).catch(() => undefined);
    return st ? `${st.ino}:${st.mtimeMs}` : "";
  };
  let stamp: Promise<string> = buildStamp();
  let checkedAt = performance.now();
  const due = () => performance.now() - checkedAt >= recheckMs;
  // Reads of a file already under way, so that concurrent first requests read and compress it once.
  const reading = new Map<string, Promise<StoredFile | undefined>>();

  const load = async (key: string): Promise<StoredFile | undefined> => {
    const full = resolve(root, key);
    const body = full.startsWith(root + sep) ? await readIfFile(full) : undefined;
    if (!body) return undefined;
    const encoded: StoredFile["encoded"] = {};
    if (body.length > COMPRESS_MIN_BYTES) for (const e of ENCODINGS) encoded[e] = (await readIfFile(full + SIBLING_SUFFIX[e])) ?? (await MAKE[e](body));
    const file: StoredFile = { body, encoded, hash: await contentHash(body), answers: new Map() };
    cache.set(key, file);
    return file;
  };

  return {
    peek: (key) => (due() ? undefined : cache.get(key)),
    async get(key) {
      if (due()) {
        checkedAt = performance.now();
        const [before, now] = [await stamp, await buildStamp()];
        if (now !== before) cache.clear();
        stamp = Promise.resolve(now);
      }
      const cached = cache.get(key);
      if (cached) return cached;
      let pending = reading.get(key);
      if (!pending) {
        pending = load(key).finally(() => reading.delete(key));
        reading.set(key, pending);
      }
      return pending;
    },
  };
}

/** The pre-rendered files of a build (below `api/`) as the web handler reads them. */
export function nodeAssets(options: NodeAssetOptions | FileStore): AssetReader {
  const store = "get" in options ? options : fileStore(options);
  // staticFileOf derives plain segments only; anything else is no file, whoever asks.
  return async (file) => (file.split("/").every((s) => s !== "" && s !== "." && s !== "..") ? store.get(`api/${file}`) : undefined);
}
