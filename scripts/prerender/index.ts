/**
 * What a build pre-renders: requests (path below /api plus canonical query) worth writing as
 * files for a static host. Everything else is answered by the fallback, the worker or the browser
 * with the same handler, so this is a policy of size, not of behaviour.
 */
import type { Catalog } from "../../src/theory/catalog.js";
import { ajnasRequests, REALISATIONS_PART } from "../../src/api/ajnas/prerender.js";
import { classificationRequests } from "../../src/api/classification/prerender.js";
import { exportRequests, JINS_FILES_PART, MAQAM_FILES_PART, SETS_PART } from "../../src/api/exports/prerender.js";
import { DETAILS_PART, maqamatRequests, maqamDetailRequests, TRANSPOSITIONS_PART } from "../../src/api/maqamat/prerender.js";
import { noteNamesRequests } from "../../src/api/pitch-classes/prerender.js";
import type { PrerenderOptions } from "../../src/api/shared/prerender.js";
import { sourcesRequests } from "../../src/api/sources/prerender.js";
import { tuningSystemMaqamatRequests, tuningSystemsRequests } from "../../src/api/tuning-systems/prerender.js";
import { DEFAULTS, explorerRequests } from "../../public/state.js";
import { requestOf } from "../../src/client/index.js";
import { requestText } from "../../src/api/staticPath.js";

export type { PrerenderOptions } from "../../src/api/shared/prerender.js";

/**
 * Every request of the explorer's first view (public/state.ts), in English and Arabic, canonical:
 * its rendering with every value format and its Arabic lists are variants no other list holds.
 * Without their files the landing page would load the engine to compute them.
 */
export const EXPLORER_FIRST_VIEW: readonly string[] = [false, true].flatMap((arabic) =>
  Object.values(explorerRequests(DEFAULTS, arabic))
    .filter((ask) => ask !== undefined)
    .map(([template, params]) => {
      const { path, query } = requestOf(template, params);
      return requestText(path, query);
    }),
);

/**
 * The index, the OpenAPI document and each endpoint group's requests. Interval calculation,
 * route searches and the compare routes have nothing bounded to pre-render: they name free notes,
 * values, waypoints or lists of tuning systems.
 */
export function* prerenderRequests(cat: Catalog, options: PrerenderOptions = { full: false }): Generator<string> {
  yield "/";
  yield "/openapi.json";
  yield* EXPLORER_FIRST_VIEW;
  yield* exportRequests(cat, options);
  yield* classificationRequests(cat);
  yield* maqamatRequests(cat, options);
  yield* tuningSystemMaqamatRequests(cat);
  yield* tuningSystemsRequests(cat);
  yield* noteNamesRequests(cat);
  yield* sourcesRequests(cat);
  yield* ajnasRequests(cat, options);
  yield* maqamDetailRequests(cat, options);
}

/** The parts each tuning system adds to prerenderRequests' lists (ListOf), in the order it asks for them. */
export const TUNING_SYSTEM_PARTS = [MAQAM_FILES_PART, JINS_FILES_PART, SETS_PART, TRANSPOSITIONS_PART, REALISATIONS_PART, DETAILS_PART] as const;
