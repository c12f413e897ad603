/**
 * Pre-renders every request the endpoint groups list into build/api/, through the same
 * dispatch the server uses, and writes build/manifest.json (base URL and totals, no timestamps).
 *
 * Usage: npm run build   (BASE_URL=https://example.org to set the host of absolute links)
 */
import { mkdirSync, writeFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { dispatch } from "../src/api/route.js";
import { routes, prerenderRequests } from "../src/api/routes.js";
import { staticFileOf } from "../src/api/staticPath.js";
import { serialize } from "../src/serve/server.js";

export const DEFAULT_BASE_URL = "http://localhost:3000";

export interface BuildResult {
  files: number;
  bytes: number;
  skipped: number;
  seconds: number;
}

export function build(outDir: string, baseUrl: string, requests: Iterable<string> = prerenderRequests()): BuildResult {
  const started = performance.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "api"), { recursive: true });
  let files = 0;
  let bytes = 0;
  let skipped = 0;
  const seen = new Set<string>();
  const progress = process.stderr.isTTY;
  for (const request of requests) {
    const url = new URL(request, "http://x");
    const path = url.pathname;
    const file = staticFileOf(path, url.searchParams);
    if (!file) throw new Error(`build: '${request}' is not a canonical request (sort its parameters)`);
    if (seen.has(file)) continue;
    seen.add(file);
    const response = dispatch(routes, { baseUrl, path, query: url.searchParams });
    if (response.status !== 200) {
      skipped++;
      continue;
    }
    const body = serialize(response);
    const target = join(outDir, "api", file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, body);
    files++;
    bytes += body.length;
    if (progress && files % 500 === 0) process.stderr.write(`\r${files} files, ${(bytes / 1e6).toFixed(1)} MB`);
  }
  if (progress) process.stderr.write("\n");
  writeFileSync(join(outDir, "manifest.json"), JSON.stringify({ baseUrl, files, bytes }, null, 2) + "\n");
  return { files, bytes, skipped, seconds: (performance.now() - started) / 1000 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = resolve(process.env.BUILD_DIR ?? "build");
  const baseUrl = (process.env.BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const r = build(outDir, baseUrl);
  console.log(
    `build: ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB, ${r.skipped} non-200 requests skipped, ${r.seconds.toFixed(1)} s → ${outDir}`,
  );
}
