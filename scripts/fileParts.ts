/** Files read and written as bytes, a part or a line at a time, without joining them into one buffer or string. */
import { closeSync, openSync, writeSync } from "node:fs";

const NEWLINE = 10;

/** Writes `parts` one after the other into `file` (made or emptied) and returns the bytes written. */
export function writeParts(file: string, parts: Iterable<Uint8Array>): number {
  const fd = openSync(file, "w");
  let bytes = 0;
  try {
    for (const part of parts) {
      for (let at = 0; at < part.length; ) at += writeSync(fd, part, at);
      bytes += part.length;
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
