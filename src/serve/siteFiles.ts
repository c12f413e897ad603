/**
 * The site beside the API in a build (index.html, reference.html, pictures/, client/, sw.js and
 * their assets) as the Node server serves it: which file a path names and its Content-Type.
 * Names starting with `_` or `.` are what the build writes for other hosts (the worker and Lambda
 * bundles, host configurations) and are not served, as Cloudflare Pages does not serve them.
 */

/**
 * Content types by extension, for the kinds of file a site build holds. A table of our own: the
 * general ones name `.ts` a video (MPEG transport stream), and the client's `.d.ts` is text.
 */
const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  webmanifest: "application/manifest+json; charset=utf-8",
  ts: "text/plain; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  svg: "image/svg+xml; charset=utf-8",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  wasm: "application/wasm",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  wav: "audio/wav",
  pdf: "application/pdf",
  scl: "text/plain; charset=us-ascii",
  kbm: "text/plain; charset=us-ascii",
  tun: "text/plain; charset=us-ascii",
  ascl: "text/plain; charset=us-ascii",
  syx: "application/octet-stream",
  gz: "application/gzip",
};

/** The Content-Type of a site file by its name's extension; bytes of an unknown kind otherwise. */
export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return (dot > name.lastIndexOf("/") && CONTENT_TYPES[name.slice(dot + 1).toLowerCase()]) || "application/octet-stream";
}

/**
 * The site file (a path below the build directory) a URL path outside /api names: `/` and paths
 * ending in `/` name their index.html; undefined for dot segments, names starting with `_` or `.`,
 * malformed percent-encoding, NUL or backslash.
 */
export function siteFileOf(pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (!decoded.startsWith("/") || /[\0\\]/.test(decoded)) return undefined;
  const segments = decoded.slice(1).split("/");
  if (segments.at(-1) === "") segments[segments.length - 1] = "index.html";
  if (segments.some((s) => s === "" || s.startsWith(".") || s.startsWith("_")) || segments[0] === "api") return undefined;
  return segments.join("/");
}
