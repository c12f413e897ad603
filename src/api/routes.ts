/**
 * Every endpoint, most specific pattern first (a fixed segment such as `families` must win over
 * `{idName}`). Each endpoint group (a folder: routes, schemas.ts, prerender.ts) registers here;
 * scripts/prerender assembles what a build pre-renders from the same groups.
 */
import { dispatch, type RequestContext, type Route } from "./route.js";
import { exampleRequest } from "./describe.js";
import { indexRoute } from "./apiIndex.js";
import { openApiRoute } from "./openapi.js";
import * as classificationApi from "./classification/routes.js";
import * as maqamatApi from "./maqamat/routes.js";
import * as tuningSystemMaqamatApi from "./tuning-systems/maqamat.js";
import * as tuningSystemsApi from "./tuning-systems/routes.js";
import * as noteNamesApi from "./pitch-classes/routes.js";
import * as intervalsApi from "./intervals/routes.js";
import * as sourcesApi from "./sources/routes.js";
import * as ajnasApi from "./ajnas/routes.js";
import * as maqamDetailApi from "./maqamat/detail.js";
import * as modulationRoutesApi from "./modulations/routes.js";
import * as exportsApi from "./exports/routes.js";

// maqamDetailApi last: its greedy `/maqamat/{idName}` must not shadow fixed segments (families, classification, …).
const groups = [
  exportsApi,
  classificationApi,
  maqamatApi,
  tuningSystemMaqamatApi,
  tuningSystemsApi,
  noteNamesApi,
  intervalsApi,
  sourcesApi,
  ajnasApi,
  modulationRoutesApi,
  maqamDetailApi,
];

/** The endpoints of the specification. */
export const dataRoutes = groups.flatMap((g): readonly Route[] => g.routes);

/** Every route: the index (/api) and the OpenAPI document describe the endpoints, the document the index too. */
const apiIndex = indexRoute(dataRoutes);
const described = [apiIndex, ...dataRoutes];

/** An endpoint's example request, answered as any request is. */
const answerExample = (route: Route, ctx: RequestContext) => {
  const { path, query } = exampleRequest(route);
  return dispatch(described, { ...ctx, path, query });
};

export const routes: readonly Route[] = [apiIndex, openApiRoute(described, answerExample), ...dataRoutes];

/** Every route with its name and body types, which the dispatch list erases (the client's ResponseBodies). */
export type TypedRoute = (typeof groups)[number]["routes"][number] | ReturnType<typeof indexRoute> | ReturnType<typeof openApiRoute>;
