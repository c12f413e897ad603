/**
 * `npm run mirror`: packs build/ into maqam-api-mirror.tar.gz — one folder, `maqam-api-mirror/`,
 * that `npx serve maqam-api-mirror` serves after `tar -xzf` (its serve.json sets the headers).
 * The `.gz`/`.br` siblings stay out: serve compresses by itself. Entries are sorted and carry
 * no owner or time, so the same build gives the same archive.
 *
 * Usage: npm run mirror [-- <out.tar.gz>]   (BUILD_DIR honoured)
 */
import { createWriteStream, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { once } from "node:events";
import { createGzip } from "node:zlib";
import { finished } from "node:stream/promises";

export const MIRROR_FOLDER = "maqam-api-mirror";
const BLOCK = 512;

/** Files and folders below `dir` (relative, `/`-separated, sorted), without compressed siblings. */
export function mirrorEntries(dir: string, prefix = ""): { path: string; isDir: boolean }[] {
  const entries = readdirSync(join(dir, prefix), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  return entries.flatMap((e) => {
    const path = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) return [{ path, isDir: true }, ...mirrorEntries(dir, path)];
    return /\.(gz|br)$/.test(e.name) ? [] : [{ path, isDir: false }];
  });
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

/** One ustar header block; names over 100 bytes go in a preceding pax `path` record. */
function header(name: string, size: number, type: "0" | "5" | "x"): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, "utf8");
  h.write(octal(type === "5" ? 0o755 : 0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(0, 12), 136);
  h.write("        ", 148);
  h.write(type, 156);
  h.write("ustar\u000000", 257);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + " ", 148);
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

function paxPath(path: string): Buffer {
  const body = ` path=${path}\n`;
  // The record starts with its own length in decimal, which counts its own digits.
  const bytes = Buffer.byteLength(body);
  let length = bytes + 1;
  while (length !== bytes + String(length).length) length = bytes + String(length).length;
  return Buffer.from(`${length}${body}`);
}

function* tarBlocks(name: string, data: Buffer | undefined): Generator<Buffer> {
  if (Buffer.byteLength(name) > 100) {
    const record = paxPath(name);
    yield header("PaxHeader", record.length, "x");
    yield record;
    yield padding(record.length);
  }
  const size = data?.length ?? 0;
  yield header(name.slice(0, 100), size, data ? "0" : "5");
  if (data) {
    yield data;
    yield padding(size);
  }
}

export async function packMirror(buildDir: string, outFile: string): Promise<{ files: number; bytes: number }> {
  const out = createWriteStream(outFile);
  const gzip = createGzip({ level: 9 });
  gzip.pipe(out);
  const write = async (chunk: Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, "drain");
  };
  let files = 0;
  for (const block of tarBlocks(`${MIRROR_FOLDER}/`, undefined)) await write(block);
  for (const entry of mirrorEntries(buildDir)) {
    const name = `${MIRROR_FOLDER}/${entry.path}${entry.isDir ? "/" : ""}`;
    for (const block of tarBlocks(name, entry.isDir ? undefined : readFileSync(join(buildDir, entry.path)))) await write(block);
    if (!entry.isDir) files++;
  }
  await write(Buffer.alloc(BLOCK * 2));
  gzip.end();
  await finished(out);
  return { files, bytes: out.bytesWritten };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const buildDir = resolve(process.env.BUILD_DIR ?? "build");
  const outFile = resolve(process.argv[2] ?? `${MIRROR_FOLDER}.tar.gz`);
  const { files, bytes } = await packMirror(buildDir, outFile);
  console.log(`mirror: ${files} files from ${buildDir} → ${outFile} (${(bytes / 1e6).toFixed(1)} MB)`);
  console.log(`serve it with: tar -xzf ${outFile} && npx serve ${MIRROR_FOLDER}`);
}
