/**
 * The path map shared by the static build, the fallback server and the edge rules in deploy/:
 * a request (path below /api plus query) has a pre-rendered file only when it is in canonical
 * form — path without empty segments or trailing slash, parameters sorted by name and each given
 * once, every path segment and value plain URL-safe ASCII. Handlers echo the raw request in self
 * links, so only the canonical form may be answered by a file.
 *
 *   /                                                → index.json (the endpoint index)
 *   /openapi.json                                    → openapi.json
 *   /tuning-systems                                  → tuning-systems/index.json
 *   /maqamat/maqam_rast?startingNote=yegah&tuningSystem=ibnsina_1037
 *                                                    → maqamat/maqam_rast/@startingNote=yegah&tuningSystem=ibnsina_1037.json
 *
 * A `/` inside a query value (note idNames such as `saham/ramal_tuti`) is written `~`; a `/`
 * inside a path parameter simply becomes a directory level, as in the URL. A download of the
 * exports (Scala and AnaMark files, no query) is written at exactly its URL path:
 *
 *   /exports/tuning-systems/ibnsina_1037/yegah.scl   → exports/tuning-systems/ibnsina_1037/yegah.scl
 *
 * and so are the datasets' tables and database (`/datasets/pitch_classes.csv`).
 */
import { FORMATS } from "../exports/formats.js";
import { DATASET_FILE } from "./datasets/files.js";
export const SAFE_SEGMENT = /^[A-Za-z0-9_().-]+$/;
export const SAFE_NAME = /^[A-Za-z0-9]+$/;
export const SAFE_VALUE = /^[A-Za-z0-9_().,/-]*$/;
export const MAX_SEGMENT_BYTES = 255;

/** Character class (without brackets) of a regex that is a single `^[…]+$` / `^[…]*$` class. */
export const charClass = (re: RegExp): string => {
  const m = /^\^\[(.+)\][*+]\$$/.exec(re.source);
  if (!m) throw new Error(`not a single character class: ${re.source}`);
  return m[1];
};

/** Canonical query string of pairs (sorted by name), or undefined when a name repeats. */
export function canonicalQuery(pairs: [string, string][]): string | undefined {
  const names = pairs.map(([k]) => k);
  if (new Set(names).size !== names.length) return undefined;
  return [...pairs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

/** The file of `/api` itself: the index of the endpoints. */
const ROOT_FILE = "index.json";
/** Documents answered at their own file name directly below /api (`/api/openapi.json`). */
const TOP_LEVEL_DOCUMENTS = new Set(["openapi.json"]);

/** A download: a path below /exports ending in one of the export formats' extensions. */
export const DOWNLOAD = new RegExp(`^/exports/.+\\.(${FORMATS.join("|")})$`);
export const isDownloadPath = (path: string): boolean => DOWNLOAD.test(path);
/** A file written at exactly its URL path: a download, or a table or database of the datasets. */
const isOwnPath = (path: string): boolean => isDownloadPath(path) || DATASET_FILE.test(path);

/**
 * The name a download is saved as, the same for a file and a computed answer: the path's
 * segments after `/exports/{collection}/`, joined by `-`
 * (`/exports/maqamat/maqam_rast/ibnsina_1037/yegah.kbm` → `maqam_rast-ibnsina_1037-yegah.kbm`).
 */
export const downloadNameOf = (path: string): string =>
  path
    .split("/")
    .filter((s) => s !== "")
    .slice(2)
    .join("-");

/**
 * A path of safe segments: each of SAFE_SEGMENT's characters, not dots alone, at most
 * MAX_SEGMENT_BYTES long. One expression for the whole path, since the build asks it of every
 * request of its plan.
 */
export const SAFE_PATH = new RegExp(`^(?:/(?!\\.+(?:/|$))[${charClass(SAFE_SEGMENT)}]{1,${MAX_SEGMENT_BYTES}})+$`);

/**
 * A request's path and query, split by hand rather than parsed as a URL (a third of the planning's
 * time, over 266,000 requests): staticFileOf takes only plain URL-safe segments and values, which a
 * URL parse would leave as they are, so the path of a canonical request is its URL's.
 */
export function requestParts(request: string): [path: string, query: URLSearchParams] {
  const q = request.indexOf("?");
  return [q < 0 ? request : request.slice(0, q), new URLSearchParams(q < 0 ? "" : request.slice(q + 1))];
}

/** A request as one string, requestParts' inverse: the path, and `?` and the query when there is one. */
export const requestText = (path: string, query: URLSearchParams): string => (query.size ? `${path}?${query}` : path);

/**
 * Relative file path under `build/api/` of a request, or undefined when the request is not
 * in canonical form (then only the fallback answers it).
 */
export function staticFileOf(path: string, query: URLSearchParams): string | undefined {
  if (query.size === 0 && path === "/") return ROOT_FILE;
  if (query.size === 0 && TOP_LEVEL_DOCUMENTS.has(path.slice(1))) return path.slice(1);
  // A safe segment is never empty: this also refuses an empty segment and a trailing slash.
  if (!SAFE_PATH.test(path)) return undefined;
  const below = path.slice(1);
  const pairs = [...query];
  if (pairs.length === 0) return isOwnPath(path) ? below : `${below}/index.json`;
  // In canonical order exactly when the names strictly increase (canonicalQuery's order; a repeated name is refused).
  if (!pairs.every(([k, v], i) => SAFE_NAME.test(k) && SAFE_VALUE.test(v) && (i === 0 || pairs[i - 1][0] < k))) return undefined;
  const file = `@${pairs.map(([k, v]) => `${k}=${v.replace(/\//g, "~")}`).join("&")}.json`;
  // Safe names and values are ASCII, so the name's length is its length in bytes.
  if (file.length > MAX_SEGMENT_BYTES) return undefined;
  return `${below}/${file}`;
}

/**
 * The canonical request a file path stands for (the inverse of staticFileOf), or undefined when
 * `file` is not a name staticFileOf produces. Lets the fallback answer file URLs that an edge
 * rewrote but the static origin did not have.
 */
export function requestOfStaticFile(file: string): { path: string; query: URLSearchParams } | undefined {
  if (file === ROOT_FILE) return { path: "/", query: new URLSearchParams() };
  if (TOP_LEVEL_DOCUMENTS.has(file)) return { path: `/${file}`, query: new URLSearchParams() };
  if (isOwnPath(`/${file}`)) return staticFileOf(`/${file}`, new URLSearchParams()) === file ? { path: `/${file}`, query: new URLSearchParams() } : undefined;
  const slash = file.lastIndexOf("/");
  if (slash <= 0) return undefined;
  const name = file.slice(slash + 1);
  let query: URLSearchParams;
  if (name === "index.json") query = new URLSearchParams();
  else if (name.startsWith("@") && name.endsWith(".json") && name.length > 6) query = new URLSearchParams(name.slice(1, -".json".length).replace(/~/g, "/"));
  else return undefined;
  const path = `/${file.slice(0, slash)}`;
  return staticFileOf(path, query) === file ? { path, query } : undefined;
}

/** URL path (below the site root) at which a static host serves the pre-rendered file. */
export const staticUrlOf = (file: string): string => `/api/${file}`;
