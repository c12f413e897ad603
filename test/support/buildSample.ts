/** A small, quick build for the build, server and deploy tests: a sample of cheap requests. */
import { mkdtempSync } from "node:fs";
import { catalog } from "./catalog.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prerenderRequests } from "../../scripts/prerender/index.js";
import { build, type BuildOptions } from "../../scripts/build.js";
import type { Encoding } from "../../src/serve/handler.js";

export const SAMPLE_BASE_URL = "http://localhost:3000";

/** Every request of the tuning-system and source groups (and the tuning-system downloads) at a stride, plus every list page. */
export function sampleRequests(stride = 37): string[] {
  const cheap = [...prerenderRequests(catalog)].filter(
    (r) => r.startsWith("/tuning-systems") || r.startsWith("/sources") || r.startsWith("/exports/tuning-systems/"),
  );
  return cheap.filter((r, i) => i % stride === 0 || !r.includes("?") || r.startsWith("/tuning-systems?"));
}

export async function buildSample(encodings: Encoding[] = ["gzip", "br"], options: Partial<BuildOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "maqam-build-"));
  const outDir = join(dir, "build");
  const result = await build({ outDir, baseUrl: SAMPLE_BASE_URL, requests: sampleRequests(), workers: 2, encodings, ...options });
  return { dir, outDir, ...result };
}
