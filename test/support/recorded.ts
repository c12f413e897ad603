/**
 * Recorded answers of the reference service (test/fixtures/*.jsonl.gz, copied from
 * ../shared/conformance by `npm run import-fixtures`), replayed
 * in-process through `dispatch` and compared with the scorer's rules (see its README).
 */
import { readFileSync, readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { dispatch } from "../../src/api/route.js";
import { routes } from "../../src/api/routes.js";
import { catalog } from "./catalog.js";

export interface RecordedCase {
  path: string;
  status: number;
  body: unknown;
}

const DIR = resolve(import.meta.dirname, "..", "fixtures");

let all: RecordedCase[] | undefined;
export function recordedCases(): RecordedCase[] {
  all ??= readdirSync(DIR)
    .filter((f) => f.endsWith(".jsonl.gz"))
    .flatMap((f) =>
      gunzipSync(readFileSync(join(DIR, f)))
        .toString("utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as RecordedCase),
    );
  return all;
}

/** Endpoint name of a recorded path (the route that answers it), e.g. `GET /sources/{id}`. */
export function endpointOf(path: string): string {
  const bare = path.split("?")[0].replace(/(?<=.)\/+$/, "");
  return routes.find((r) => r.matcher.test(bare))?.name ?? "other";
}

const PROSE = new Set(["comments", "commentsEnglish", "commentsArabic", "commentsAr"]);
const ANY = "__ANY__";

function normalize(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(normalize);
  if (x && typeof x === "object")
    return Object.fromEntries(
      Object.entries(x)
        .filter(([k]) => !PROSE.has(k))
        .map(([k, v]) => [k, normalize(v)]),
    );
  if (typeof x === "string") return x.replace(/^https?:\/\/[^/]+/, "");
  return x;
}

/** First difference between a recorded and a produced body, or undefined when they agree. */
export function firstDifference(want: unknown, got: unknown, where = ""): string | undefined {
  if (want === ANY) return undefined;
  if (typeof want === "boolean" || typeof got === "boolean")
    return want === got ? undefined : `${where || "/"}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
  if (typeof want === "number" && typeof got === "number") {
    if (Math.abs(want - got) <= Math.max(1e-6, 1e-9 * Math.max(Math.abs(want), Math.abs(got)))) return undefined;
    return `${where || "/"}: want ${want}, got ${got}`;
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    if (want.length !== got.length) return `${where || "/"}: want ${want.length} items, got ${got.length}`;
    for (let i = 0; i < want.length; i++) {
      const d = firstDifference(want[i], got[i], `${where}/${i}`);
      if (d) return d;
    }
    return undefined;
  }
  if (want && got && typeof want === "object" && typeof got === "object" && !Array.isArray(want) && !Array.isArray(got)) {
    const w = want as Record<string, unknown>;
    const g = got as Record<string, unknown>;
    const missing = Object.keys(w).filter((k) => !(k in g));
    const extra = Object.keys(g).filter((k) => !(k in w));
    if (missing.length || extra.length) return `${where || "/"}: missing keys ${JSON.stringify(missing)}, extra keys ${JSON.stringify(extra)}`;
    for (const k of Object.keys(w)) {
      const d = firstDifference(w[k], g[k], `${where}/${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return want === got ? undefined : `${where || "/"}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
}

/** Replays one case through the handlers; undefined when it passes, else the difference. */
export function replay(c: RecordedCase): string | undefined {
  const url = new URL(c.path, "http://x");
  const path = c.path.split("?")[0];
  const response = dispatch(routes, { catalog, baseUrl: "https://recorded.example", path, query: url.searchParams });
  if (response.status !== c.status) return `status: want ${c.status}, got ${response.status}`;
  if (c.status >= 400) {
    const body = response.body as Record<string, unknown>;
    return body && typeof body.error === "string" ? undefined : "error body without a string 'error'";
  }
  return firstDifference(normalize(c.body), normalize(JSON.parse(JSON.stringify(response.body))));
}
