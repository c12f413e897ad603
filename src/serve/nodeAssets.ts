/**
 * The files of the Node server: a build directory's pre-rendered answers (below `api/`) and the
 * site beside them, kept in a byte-bounded memory cache that is dropped when a new build is
 * swapped in. Each file over COMPRESS_MIN_BYTES is kept with its gzip and brotli forms (the
 * build's precompressed siblings when it wrote them, else made once, off the main thread, when the
 * file is first read) and the answers the server recorded for it (server.ts), so a file is read,
 * compressed and given its headers once. Only keys that staticFileOf or siteFileOf derive (plain
 * segments, no dot segments) reach it, and it reads only inside the build directory. The datasets'
 * tables and database (up to tens of MB, read by ranges) never enter it: they are read from disk,
 * the range asked for, at each request (streamedFile).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readFile, stat, type FileHandle } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import { join, resolve, sep } from "node:path";
import { DATASET_FILE } from "../api/datasets/files.js";
import {
  COMPRESS_MIN_BYTES,
  ENCODINGS,
  SIBLING_SUFFIX,
  contentHash,
  isBytes,
  type Asset,
  type AssetReader,
  type Bytes,
  type Encoding,
  type StreamedAsset,
} from "./handler.js";
import type { ByteRange } from "./ranges.js";

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

/** undefined for the errors that mean "no such file"; others are faults. */
const absent = (e: unknown): undefined => {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "ENAMETOOLONG") return undefined;
  throw e;
};

async function readIfFile(path: string): Promise<Bytes | undefined> {
  const data = await readFile(path).catch(absent);
  // A file's Buffer sits on a plain ArrayBuffer of its own; view it without copying.
  return data && new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}

export const isStoredFile = (file: StoredFile | StreamedAsset): file is StoredFile => isBytes(file.body);

/** Whether a key (below the build directory) is a table or the database of the datasets: streamed, never held. */
export const isStreamedKey = (key: string) => key.startsWith("api/") && DATASET_FILE.test(key.slice(3));

/** Bytes read from disk per chunk of a streamed file. */
const STREAM_CHUNK = 64 * 1024;

/**
 * Bytes `start`..`end` of a file as a web stream that reads a chunk only when the consumer asks
 * (Node 20's Readable.toWeb reads ahead of a slow socket, holding a whole file in memory).
 */
function rangeStream(path: string, { start, end }: ByteRange): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  let at = start;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          handle ??= await open(path);
          const wanted = Math.min(STREAM_CHUNK, end + 1 - at);
          const { bytesRead, buffer } = await handle.read(new Uint8Array(wanted), 0, wanted, at);
          at += bytesRead;
          if (bytesRead > 0) controller.enqueue(buffer.subarray(0, bytesRead));
          // A file cut short since it was measured ends the stream where it ends.
          if (at > end || bytesRead === 0) {
            await handle.close();
            controller.close();
          }
        } catch (e) {
          await handle?.close();
          throw e;
        }
      },
      cancel: () => handle?.close(),
    },
    { highWaterMark: 0 },
  );
}

/** A file on disk as a streamed asset: its content hash (contentHash's SHA-1, base64url, read once a chunk at a time) and a stream of any range. */
async function streamedFile(path: string, size: number): Promise<StreamedAsset> {
  const sha1 = createHash("sha1");
  await pipeline(createReadStream(path), sha1);
  return { body: { size, read: (range) => rangeStream(path, range) }, hash: sha1.digest("base64url") };
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
  get(key: string): Promise<StoredFile | StreamedAsset | undefined>;
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
  // Streamed files by key, with the file's identity when hashed: a new build's file gets a new inode.
  const streamed = new Map<string, Promise<{ identity: string; file: StreamedAsset }>>();
  const getStreamed = async (key: string): Promise<StreamedAsset | undefined> => {
    const full = resolve(root, key);
    const st = full.startsWith(root + sep) ? await stat(full).catch(absent) : undefined;
    if (!st?.isFile()) return undefined;
    const identity = `${st.ino}:${st.size}:${st.mtimeMs}`;
    let entry = streamed.get(key);
    if (!entry || (await entry.catch(() => undefined))?.identity !== identity) {
      entry = streamedFile(full, st.size).then((file) => ({ identity, file }));
      streamed.set(key, entry);
      const made = entry;
      made.catch(() => streamed.get(key) === made && streamed.delete(key));
    }
    return (await entry).file;
  };

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
      if (isStreamedKey(key)) return getStreamed(key);
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
