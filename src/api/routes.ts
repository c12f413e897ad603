/**
 * Every endpoint, most specific pattern first (a fixed segment such as `families` must win over
 * `{idName}`), and the requests each group pre-renders. Endpoint groups register here.
 */
import type { PrerenderOptions, Route } from "./route.js";
import type { Catalog } from "../theory/catalog.js";
import * as classificationApi from "./classification.js";
import * as maqamatApi from "./maqamat.js";
import * as tuningSystemMaqamatApi from "./tuningSystemMaqamat.js";
import * as tuningSystemsApi from "./tuningSystems.js";
import * as noteNamesApi from "./noteNames.js";
import * as intervalsApi from "./intervals.js";
import * as sourcesApi from "./sources.js";
import * as ajnasApi from "./ajnas.js";
import * as maqamDetailApi from "./maqamDetail.js";
import * as modulationRoutesApi from "./modulationRoutes.js";

// maqamDetailApi last: its greedy `/maqamat/{idName+}` must not shadow fixed segments (families, classification, …).
const groups = [classificationApi, maqamatApi, tuningSystemMaqamatApi, tuningSystemsApi, noteNamesApi, intervalsApi, sourcesApi, ajnasApi, modulationRoutesApi, maqamDetailApi];

export const routes: readonly Route[] = groups.flatMap((g) => g.routes);

/** Requests (path below /api plus canonical query) worth pre-rendering, group by group. */
export function* prerenderRequests(cat: Catalog, options: PrerenderOptions = { full: false }): Generator<string> {
  for (const g of groups) yield* g.prerender(cat, options);
}
