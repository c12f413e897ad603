/**
 * The path map shared by the static build and the fallback server: a request (path below /api
 * plus query) has a pre-rendered file only when its query is canonical — parameters sorted by
 * name, each given once — and every path segment and value is plain URL-safe ASCII.
 *
 *   /tuning-systems                                  → tuning-systems/index.json
 *   /maqamat/maqam_rast?startingNote=yegah&tuningSystem=ibnsina_1037
 *                                                    → maqamat/maqam_rast/@startingNote=yegah&tuningSystem=ibnsina_1037.json
 *
 * A `/` inside a query value (note idNames such as `saham/ramal_tuti`) is written `~`; a `/`
 * inside a path parameter simply becomes a directory level, as in the URL.
 */
const SAFE_SEGMENT = /^[A-Za-z0-9_().-]+$/;
const SAFE_VALUE = /^[A-Za-z0-9_().,/-]*$/;
const MAX_SEGMENT_BYTES = 255;

/** Canonical query string of pairs (sorted by name), or undefined when a name repeats. */
export function canonicalQuery(pairs: [string, string][]): string | undefined {
  const names = pairs.map(([k]) => k);
  if (new Set(names).size !== names.length) return undefined;
  return [...pairs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

/**
 * Relative file path under `build/api/` of a request, or undefined when the request is not
 * in canonical form (then only the fallback answers it).
 */
export function staticFileOf(path: string, query: URLSearchParams): string | undefined {
  const segments = path.split("/").filter((s) => s !== "");
  const safe = (s: string) => SAFE_SEGMENT.test(s) && !/^\.+$/.test(s) && s.length <= MAX_SEGMENT_BYTES;
  if (segments.length === 0 || !segments.every(safe)) return undefined;
  const pairs = [...query];
  if (pairs.length === 0) return `${segments.join("/")}/index.json`;
  if (!pairs.every(([k, v]) => /^[A-Za-z0-9]+$/.test(k) && SAFE_VALUE.test(v))) return undefined;
  const canonical = canonicalQuery(pairs);
  const inOrder = pairs.map(([k, v]) => `${k}=${v}`).join("&");
  if (canonical === undefined || canonical !== inOrder) return undefined;
  const file = `@${canonical.replace(/\//g, "~")}.json`;
  if (Buffer.byteLength(file) > MAX_SEGMENT_BYTES) return undefined;
  return `${segments.join("/")}/${file}`;
}

/** URL path (below the site root) at which a static host serves the pre-rendered file. */
export const staticUrlOf = (file: string): string => `/api/${file}`;
