/** The reduced build the site tests serve on a plain static server, and the requests they share. */
import { afterAll, beforeAll } from "vitest";
import { mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import type { HandlerOptions } from "../../src/serve/handler.js";
import { nodeAssets } from "../../src/serve/nodeAssets.js";
import { startStatic, type Running } from "../../scripts/browser.js";
import { buildSample, sampleRequests, SAMPLE_BASE_URL } from "./buildSample.js";
import { catalog } from "./catalog.js";
import { EXPLORER_FIRST_VIEW } from "../../scripts/prerender/index.js";

export const SHOTS = resolve(import.meta.dirname, "..", "..", "test-results");
/** What the landing page's default view (maqām rāst, Ibn Sīnā, yegāh) reads, pre-rendered. */
const EXPLORER_FILES = [
  // Its lists, transpositions and rendering in both languages, as the build plans them.
  ...EXPLORER_FIRST_VIEW,
  "/maqamat/maqam_rast?startingNote=yegah&tuningSystem=ibnsina_1037",
  "/ajnas/jins_rast?startingNote=yegah&tuningSystem=ibnsina_1037",
  // The API reference renders the OpenAPI document.
  "/openapi.json",
];
/** The MIDI Tuning Standard dump of maqām rāst in Ibn Sīnā from yegāh, which the explorer sends to a synthesizer. */
export const RAST_SYX = "/exports/maqamat/maqam_rast/ibnsina_1037/yegah.syx";
export const ROUTE_SEARCH =
  "/modulation-routes?tuningSystem=ibnsina_1037&startingNote=ushayran&fromMaqam=maqam_kurdan&toMaqam=maqam_hijaz_kar_kurd&maxHops=2&maxRoutes=25&limitToShortestHops=true&includeArabic=true";
export const INTERVALS = "/intervals/calculate?from=dugah&to=nim_hijaz&tuningSystem=ibnsina_1037&startingNote=ushayran&unit=decimalRatio";

export interface SiteSample {
  sample: Awaited<ReturnType<typeof buildSample>>;
  server: Running;
  /** The Node handler over the same build: what every answer is compared with. */
  reference: HandlerOptions;
}

/** Builds the sample and serves it for the calling test file; the fields are set once its beforeAll has run. */
export function useSiteSample(): SiteSample {
  const site = {} as SiteSample;
  beforeAll(async () => {
    site.sample = await buildSample([], { requests: [...sampleRequests(), ...EXPLORER_FILES, RAST_SYX] });
    site.server = await startStatic(site.sample.outDir);
    site.reference = { catalog, baseUrl: SAMPLE_BASE_URL, assets: nodeAssets({ buildDir: site.sample.outDir }) };
    mkdirSync(SHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await site.server?.stop();
    if (site.sample) rmSync(site.sample.dir, { recursive: true, force: true });
  });
  return site;
}
