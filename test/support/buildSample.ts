/** A small, quick build for the build, server and deploy tests: a sample of cheap requests. */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { catalog } from "./catalog.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prerenderRequests } from "../../scripts/prerender/index.js";
import { toIdName } from "../../src/theory/idName.js";
import { transpositionsOf } from "../../src/theory/transposition.js";
import { build, type BuildOptions } from "../../scripts/build.js";
import type { Encoding } from "../../src/serve/handler.js";
import { writeDatasets } from "../../scripts/datasets.js";
import { createCatalog } from "../../src/theory/catalog.js";
import { readFacts } from "../../src/data/load.js";
import { trashOf } from "../../scripts/swap.js";
import { until } from "./processes.js";

export const SAMPLE_BASE_URL = "http://localhost:3000";

const samples = new Map<number, string[]>();

/**
 * Every request of the tuning-system and source groups (and the tuning-system downloads) at a stride, plus every list page.
 * Made once per stride and test file: listing the whole plan computes much of the theory.
 */
export function sampleRequests(stride = 37): string[] {
  const made = samples.get(stride);
  if (made) return made;
  const cheap = [...prerenderRequests(catalog)].filter(
    (r) => r.startsWith("/tuning-systems") || r.startsWith("/sources") || r.startsWith("/exports/tuning-systems/"),
  );
  const sample = cheap.filter((r, i) => i % stride === 0 || !r.includes("?") || r.startsWith("/tuning-systems?"));
  samples.set(stride, sample);
  return sample;
}

/**
 * A small plan listed without computing: per tuning system, at its first starting note, its pitch
 * classes, a download, and the realisations of maqām rāst and jins rāst (each with a picture where
 * the tuning system has it), with a few lists. For the tests that build the same plan several times.
 */
export function smallRequests(): string[] {
  const requests = ["/tuning-systems", "/tuning-systems?includeArabic=true", "/sources"];
  for (const ts of catalog.tuningSystems) {
    const note = toIdName(ts.startingNotes[0]);
    const tuning = `startingNote=${note}&tuningSystem=${ts.id}`;
    requests.push(
      `/tuning-systems/${ts.id}`,
      `/tuning-systems/${ts.id}/${note}/pitch-classes`,
      `/exports/tuning-systems/${ts.id}/${note}.scl`,
      `/maqamat/maqam_rast?${tuning}`,
      `/ajnas/jins_rast?${tuning}`,
    );
  }
  return requests;
}

/**
 * The availability of maqām rāst and jins rāst through their base idNames and every transposed
 * idName some tuning system × starting note reaches, with and without Arabic: answers that read
 * every tuning system, most of which a change to one of them leaves as they were.
 */
export function availabilityRequests(): string[] {
  const requests: string[] = [];
  for (const [collection, entity] of [
    ["maqamat", catalog.findMaqam("maqam_rast")?.entity],
    ["ajnas", catalog.findJins("jins_rast")?.entity],
  ] as const) {
    if (!entity) throw new Error(`test data: no rāst in ${collection}`);
    const ids = new Set([entity.idName]);
    for (const ts of catalog.tuningSystems) for (const note of ts.startingNotes) for (const t of transpositionsOf(catalog, entity, ts, note)) ids.add(t.idName);
    for (const id of ids) requests.push(`/${collection}/${id}/availability`, `/${collection}/${id}/availability?includeArabic=true`);
  }
  return requests;
}

export async function buildSample(encodings: Encoding[] = ["gzip", "br"], options: Partial<BuildOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "maqam-build-"));
  const outDir = join(dir, "build");
  const result = await build({ outDir, baseUrl: SAMPLE_BASE_URL, requests: sampleRequests(), workers: 2, encodings, ...options });
  return { dir, outDir, ...result };
}

/**
 * A build of two lists with the datasets (tables and database) of the first `tuningSystems` tuning
 * systems: for the SQL page and the range requests of the Node server.
 */
export async function buildWithDatasets(tuningSystems = 3) {
  const sample = await buildSample([], { requests: ["/tuning-systems", "/sources"] });
  const facts = readFacts();
  await writeDatasets(join(sample.outDir, "api"), createCatalog({ ...facts, tuningSystems: facts.tuningSystems.slice(0, tuningSystems) }, "build"));
  return sample;
}

/** Waits for the detached removals of what builds into `trees` (folders below `dir`) replaced. */
export async function trashRemoved(dir: string, trees: readonly string[]): Promise<void> {
  for (const tree of trees) await until(() => !existsSync(trashOf(join(dir, tree))), 120_000, `${tree}'s trash removed`);
}

/** Removes a folder of builds once the trees they replaced are removed (trashRemoved). */
export async function removeBuilds(dir: string | undefined, trees: readonly string[]): Promise<void> {
  if (!dir) return;
  await trashRemoved(dir, trees);
  rmSync(dir, { recursive: true, force: true });
}
