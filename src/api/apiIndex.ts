/**
 * GET /api (and /api/): the index of the endpoints — each one's path template, summary, the
 * parameters a data answer needs, an example URL and the static file that answers it — with
 * links to the OpenAPI document and the rule that maps a request to its file.
 */
import { ok } from "./errors.js";
import { exampleRequest, exampleTarget, requiredParameters } from "./describe.js";
import { apiUrl } from "./links.js";
import { API_TITLE, API_VERSION } from "./openapi.js";
import { defineRoute, type Route } from "./route.js";
import { staticFileOf, staticUrlOf } from "./staticPath.js";
import { describeSchemas } from "./describeSchemas.js";

const FILE_RULE =
  "A request has a pre-rendered file when its path has plain segments and its query parameters are sorted by name, each given once: " +
  "/api/{path} → /api/{path}/index.json without a query, /api/{path}/@{query}.json with one ('/' in a query value written '~'); " +
  "a download below /api/exports (.scl, .kbm, .tun) is the file at its own path. " +
  "Requests of computed endpoints, and other parameter combinations, are answered by the fallback, the worker or the browser client.";

/** The route answering /api with the index of `routes`. */
export const indexRoute = (routes: readonly Route[]) =>
  defineRoute({
    path: "/",
    summary: "The index of the endpoints, with an example of each.",
    response: () => describeSchemas().apiIndex,
    params: {},
    handle: (_p, ctx) => {
      const endpoints = routes.map((route) => {
        const example = exampleRequest(route);
        const file = route.computed ? undefined : staticFileOf(example.path, example.query);
        return {
          name: route.name,
          path: `/api${route.path}`,
          summary: route.summary,
          requiredParameters: requiredParameters(route),
          example: apiUrl(ctx, exampleTarget(route)),
          staticFile: file === undefined ? null : `${ctx.baseUrl}${staticUrlOf(file)}`,
        };
      });
      return ok({
        title: API_TITLE,
        version: API_VERSION,
        count: endpoints.length,
        endpoints,
        staticFiles: { rule: FILE_RULE, example: `${ctx.baseUrl}${staticUrlOf("tuning-systems/index.json")}` },
        links: { self: apiUrl(ctx, ""), openapi: apiUrl(ctx, "/openapi.json"), docs: `${ctx.baseUrl}/reference.html` },
      });
    },
  });
