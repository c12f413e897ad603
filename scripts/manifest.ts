/**
 * The build's manifest: what build/manifest.json holds (totals per route, the content digest, the
 * host's limits and what was left out), made from the rendered results, and the per-endpoint
 * table of docs/static-layout.md made from it.
 */
import { createHash } from "node:crypto";
import type { Encoding } from "../src/serve/handler.js";
import type { QueryShapes } from "../src/serve/deploy.js";
import type { Rendered } from "./buildWorker.js";
import type { HostProfile } from "./profiles.js";
import type { SiteSummary } from "./site.js";
import type { HostLimits, LeftOut, NotRendered, ValueClass } from "./budget.js";

export interface FileRef {
  file: string;
  bytes: number;
}

export interface RouteTotals {
  files: number;
  bytes: number;
  compressedBytes: Partial<Record<Encoding, number>>;
  largest: FileRef;
  /** Parameter-name lists pre-rendered (`octave&pitchClassDataType`; `` for no query). */
  queries: string[];
}

export interface Manifest {
  baseUrl: string;
  files: number;
  bytes: number;
  largest: FileRef;
  medianBytes: number;
  precompressed: Partial<Record<Encoding, { files: number; bytes: number }>>;
  routes: Record<string, RouteTotals>;
  /** Listed requests that did not answer 200 (not written): count and the first few, sorted. */
  skipped: { count: number; examples: string[] };
  /** sha256 over the sorted `file<TAB>sha1` lines: equal digests, equal trees. */
  digest: string;
  /** The host profile the build was made for. */
  profile: HostProfile;
  /** build/_worker.js, the fallback for web-standard runtimes. */
  worker: { bytes: number };
  /** The landing page, explorer, reference, client, service worker and pictures (scripts/site.ts). */
  site: SiteSummary;
  /**
   * The host's limits the tree was fitted to, the tree as the fit counted it (the tar with room kept
   * for the root files written after it), what was rendered and did not fit, and what the rendering
   * in value order stopped before (it could not have fitted either).
   */
  published: { limits: HostLimits; files: number; bytes: number; tarBytes: number; leftOut: LeftOut; notRendered: NotRendered };
}

export interface Planned {
  request: string;
  file: string;
  route: string;
  query: string;
  /** Its value class (scripts/budget.ts), which the rendering's stop, the fit and the manifest ask of every request. */
  valueClass: ValueClass;
  /** Its cache group (slicePlan.ts's cacheGroupOf), worked out once: the batches, the groups' hashes and the state ask it of every request. */
  group: string;
}

/**
 * The answers written (status 200), one per file (a file's last result), in the order of their
 * files: sorted as strings (by UTF-16 code units, as `<` compares them) without a comparator,
 * which sorts some 200,000 of them in half the time of one.
 */
export function writtenInFileOrder(planned: readonly Planned[], results: readonly Rendered[]): Rendered[] {
  const byFile = new Map<string, Rendered>();
  for (const r of results) if (r.status === 200) byFile.set(planned[r.index].file, r);
  return [...byFile.keys()].sort().map((file) => byFile.get(file) as Rendered);
}

/** sha256 over the `file<TAB>sha1` lines of the answers written (writtenInFileOrder): equal digests, equal trees. */
export function writtenDigest(planned: readonly Planned[], written: readonly Rendered[]): string {
  const digest = createHash("sha256");
  // Hashed some thousands of lines at a time: a call per line cost a third more for the `full` profile's 1.8 M answers.
  let lines: string[] = [];
  for (const r of written) {
    lines.push(`${planned[r.index].file}\t${r.hash}\n`);
    if (lines.length === DIGEST_LINES) {
      digest.update(lines.join(""));
      lines = [];
    }
  }
  digest.update(lines.join(""));
  return digest.digest("hex");
}

/** Lines of writtenDigest hashed in one call. */
const DIGEST_LINES = 4096;

/** The manifest's totals of `results`; `written` and `digest` are theirs (writtenInFileOrder, writtenDigest) when the caller has them already. */
export function summarise(
  planned: Planned[],
  results: Rendered[],
  baseUrl: string,
  encodings: Encoding[],
  written: readonly Rendered[] = writtenInFileOrder(planned, results),
  digest: string = writtenDigest(planned, written),
): Omit<Manifest, "profile" | "worker" | "site" | "published"> {
  const skipped = results
    .filter((r) => r.status !== 200)
    .map((r) => `${r.status} ${planned[r.index].request}`)
    .sort();
  const routeTotals: Record<string, RouteTotals> = {};
  const precompressed: Manifest["precompressed"] = {};
  for (const e of encodings) precompressed[e] = { files: 0, bytes: 0 };
  let largest: FileRef = { file: "", bytes: 0 };
  let bytes = 0;
  for (const r of written) {
    const p = planned[r.index];
    routeTotals[p.route] ??= { files: 0, bytes: 0, compressedBytes: {}, largest: { file: "", bytes: 0 }, queries: [] };
    const t = routeTotals[p.route];
    t.files++;
    t.bytes += r.bytes;
    bytes += r.bytes;
    if (r.bytes > t.largest.bytes) t.largest = { file: p.file, bytes: r.bytes };
    if (r.bytes > largest.bytes) largest = { file: p.file, bytes: r.bytes };
    if (!t.queries.includes(p.query)) t.queries.push(p.query);
    for (const [e, n] of Object.entries(r.encoded) as [Encoding, number][]) {
      t.compressedBytes[e] = (t.compressedBytes[e] ?? 0) + n;
      precompressed[e]!.files++;
      precompressed[e]!.bytes += n;
    }
  }
  for (const t of Object.values(routeTotals)) t.queries.sort();
  const sizes = written.map((r) => r.bytes).sort((a, b) => a - b);
  return {
    baseUrl,
    files: written.length,
    bytes,
    largest,
    medianBytes: sizes.length ? sizes[Math.floor((sizes.length - 1) / 2)] : 0,
    precompressed,
    routes: Object.fromEntries(Object.entries(routeTotals).sort(([a], [b]) => (a < b ? -1 : 1))),
    skipped: { count: skipped.length, examples: skipped.slice(0, 20) },
    digest,
  };
}

/**
 * The query shapes of every planned request, by route: what a build may have written, whatever its
 * host's limits then keep. The worker's list: made from the plan, it is the same however far the
 * rendering went, so its size (counted in the tree's limits) is too.
 */
export function plannedShapesOf(planned: readonly Planned[]): QueryShapes {
  const shapes = new Map<string, Set<string>>();
  for (const p of planned) {
    const queries = shapes.get(p.route);
    if (queries) queries.add(p.query);
    else shapes.set(p.route, new Set([p.query]));
  }
  return Object.fromEntries([...shapes].sort(([a], [b]) => (a < b ? -1 : 1)).map(([route, queries]) => [route, [...queries].sort()]));
}

export const queryShapesOf = (manifest: Pick<Manifest, "routes">): QueryShapes =>
  Object.fromEntries(Object.entries(manifest.routes).map(([name, t]) => [name, t.queries]));

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
export const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** The per-endpoint table of docs/static-layout.md, from a manifest; `routeNames` adds the endpoints with no file. */
export function layoutTable(manifest: Manifest, routeNames: string[] = []): string {
  const names = [...new Set([...Object.keys(manifest.routes), ...routeNames])].sort();
  const rows = names.map((name) => {
    const t = manifest.routes[name];
    if (!t) return `| \`${name}\` | 0 | – | – | – | fallback only |`;
    const gz = t.compressedBytes.gzip;
    const shown = t.queries.slice(0, 8).map((q) => (q === "" ? "(none)" : `\`${q}\``));
    const queries = t.queries.length > 8 ? `${shown.join(", ")} and ${t.queries.length - 8} more (manifest.json)` : shown.join(", ");
    return `| \`${name}\` | ${t.files} | ${mb(t.bytes)} | ${gz === undefined ? "–" : mb(gz)} | ${kb(t.largest.bytes)} | ${queries} |`;
  });
  const gz = manifest.precompressed.gzip;
  return [
    "| endpoint | files | bytes | `.gz` bytes | largest file | parameter sets pre-rendered |",
    "|---|---:|---:|---:|---:|---|",
    ...rows,
    `| **total** | **${manifest.files}** | **${mb(manifest.bytes)}** | **${gz ? mb(gz.bytes) : "–"}** | **${kb(manifest.largest.bytes)}** | median file ${kb(manifest.medianBytes)}; ${manifest.skipped.count} listed requests not 200, not written |`,
  ].join("\n");
}
