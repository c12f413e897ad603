/** Request sets the benchmarks share: built files as spec URLs, and the recorded requests of test/fixtures. */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { requestOfStaticFile } from "../src/api/staticPath.js";

const FIXTURES = resolve(import.meta.dirname, "..", "test", "fixtures");

/** Every pre-rendered file below `<buildDir>/api` (no siblings), sorted. */
export function builtFiles(buildDir: string, prefix = ""): string[] {
  const dir = join(buildDir, "api");
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) return builtFiles(buildDir, rel);
      return e.name.endsWith(".json") ? [rel] : [];
    })
    .sort();
}

/** At most `n` items spread evenly over `items`. */
export function evenSample<T>(items: readonly T[], n: number): T[] {
  const stride = Math.max(1, Math.floor(items.length / n));
  return items.filter((_, i) => i % stride === 0).slice(0, n);
}

/** The spec URL a file answers, encoded as a client would send it. */
export function specUrlOf(file: string): string {
  const { path, query } = requestOfStaticFile(file)!;
  const q = [...query].map(([k, v]) => `${k}=${v}`).join("&");
  return `/api${encodeURI(path)}${q ? `?${encodeURI(q)}` : ""}`;
}

export interface RecordedRequest {
  /** Below /api, as recorded (`/maqamat?sortBy=alphabetical`). */
  path: string;
  status: number;
}

/** The recorded requests of test/fixtures/*.jsonl.gz, in file order. */
export function recordedRequests(): RecordedRequest[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".jsonl.gz"))
    .sort()
    .flatMap((f) =>
      gunzipSync(readFileSync(join(FIXTURES, f)))
        .toString("utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => {
          const { path, status } = JSON.parse(line) as RecordedRequest;
          return { path, status };
        }),
    );
}
