/**
 * Single byte ranges of a file answer (RFC 9110 §14): the part a `Range` header asks for and
 * whether an `If-Range` lets it apply. Web-standard, so every adapter of the handler answers ranges
 * alike. A strict parser of its own: the common ones read `bytes=1x-2` as `1-2` and call `5-2`
 * unsatisfiable, where RFC 9110 makes such a header invalid, to be ignored (the whole file).
 */

/** Bytes `start` to `end` (inclusive) of a body. */
export interface ByteRange {
  start: number;
  end: number;
}

/** One range: `first-last`, `first-` or `-suffix`, optional blanks around it (a list element). */
const SINGLE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;

/**
 * The range of a body of `size` bytes a Range header asks for: undefined when there is none, it is
 * malformed, names another unit or several ranges (the whole body then, as RFC 9110 allows);
 * "unsatisfiable" when it starts at or past the end (or asks for the last 0 bytes).
 */
export function rangeOf(header: string | null | undefined, size: number): ByteRange | "unsatisfiable" | undefined {
  const match = header ? SINGLE_RANGE.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const last = match[2] === "" ? Number.POSITIVE_INFINITY : Number(match[2]);
  if (last < start) return undefined;
  return start >= size ? "unsatisfiable" : { start, end: Math.min(last, size - 1) };
}

/**
 * Whether a range may be sent under an If-Range header: none, or exactly the strong ETag of the
 * unencoded file (ranges are of it alone). A date never matches: the answers carry no Last-Modified.
 */
export const ifRangeHolds = (header: string | null | undefined, hash: string): boolean => header == null || header.trim() === `"${hash}"`;
