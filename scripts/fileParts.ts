/** Files read and written as bytes, a part or a line at a time, without joining them into one buffer or string. */
import { closeSync, openSync, writeSync, writevSync } from "node:fs";

/** The byte that ends a line. */
export const NEWLINE = 10;

/** At most this many parts (the system's IOV_MAX) or bytes written by one call. */
const BATCH_PARTS = 1024;
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * A head of `bytes` bytes at the start of a file, written last, once the parts after it are:
 * `of` gives it then, when it can sum them up (a digest), and the parts need not be held until then.
 */
export interface HeadWrittenLast {
  bytes: number;
  of: () => Uint8Array;
}

/**
 * Writes `parts` one after the other into `file` (made or emptied) and returns the bytes written:
 * many at a time (writev), as a state's 30,000 parts written one by one took 0.2–0.4 s of calls.
 * Parts made as they are asked for (a generator) are let go once written. With `head`, its room
 * is kept first and filled at the end.
 */
export function writeParts(file: string, parts: Iterable<Uint8Array>, head?: HeadWrittenLast): number {
  const fd = openSync(file, "w");
  let bytes = 0;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  const flush = () => {
    let written = batch.length ? writevSync(fd, batch) : 0;
    // What a short write leaves (a signal, a full disk) is written part by part.
    for (const part of batch) {
      if (written >= part.length) {
        written -= part.length;
        continue;
      }
      for (let at = written; at < part.length; ) at += writeSync(fd, part, at);
      written = 0;
    }
    bytes += batchBytes;
    batch = [];
    batchBytes = 0;
  };
  try {
    if (head) batch.push(Buffer.alloc(head.bytes));
    batchBytes = head?.bytes ?? 0;
    for (const part of parts) {
      batch.push(part);
      batchBytes += part.length;
      if (batch.length === BATCH_PARTS || batchBytes >= BATCH_BYTES) flush();
    }
    flush();
    if (head) {
      const bytesOfHead = head.of();
      if (bytesOfHead.length !== head.bytes) throw new Error(`writeParts: a head of ${bytesOfHead.length} bytes where ${head.bytes} were kept`);
      for (let at = 0; at < bytesOfHead.length; ) at += writeSync(fd, bytesOfHead, at, bytesOfHead.length - at, at);
    }
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** The lines of `bytes`, views of it without their line breaks; the last is empty when `bytes` ends with a line break. */
export function linesOf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let from = 0;
  for (let end = bytes.indexOf(NEWLINE); end >= 0; end = bytes.indexOf(NEWLINE, from)) {
    lines.push(bytes.subarray(from, end));
    from = end + 1;
  }
  lines.push(bytes.subarray(from));
  return lines;
}
