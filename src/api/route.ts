/**
 * Route definitions and dispatch. A route is a path pattern, a zod schema over its path and query
 * parameters, and a pure handler `(params, context) -> {status, body}`; the static build and the
 * fallback server both go through `dispatch`, so a pre-rendered file equals the live answer.
 */
import { z } from "zod";
import { apiError, type ApiResponse } from "./errors.js";
import { issueToResponse } from "./params.js";
import type { Catalog } from "../theory/catalog.js";

export interface RequestContext {
  /** The archive every answer is computed from. */
  catalog: Catalog;
  /** Scheme + host of absolute links, e.g. `http://localhost:3000` (no trailing slash). */
  baseUrl: string;
  /** Request path below `/api`, as received (still percent-encoded), e.g. `/maqamat/maqam_rast`. */
  path: string;
  /** The request's query parameters, in the order received. */
  query: URLSearchParams;
}

type RawInput = Record<string, string | undefined>;

/** Which answers a build pre-renders: `full` adds every maqām and jins rendering (hosts without a size limit). */
export interface PrerenderOptions {
  full: boolean;
}

export interface Route<P = unknown> {
  /** `GET /maqamat/{idName}` — the name used in docs and by the conformance scorer. */
  name: string;
  matcher: RegExp;
  pathParams: string[];
  schema: z.ZodType<P, RawInput>;
  handle: (params: P, ctx: RequestContext) => ApiResponse;
}

/**
 * Builds a route. In `pattern`, `{x}` matches one path segment and `{x+}` one or more
 * (note idNames may contain `/`).
 */
export function defineRoute<P>(
  pattern: string,
  schema: z.ZodType<P, RawInput>,
  handle: (params: P, ctx: RequestContext) => ApiResponse,
): Route<P> {
  const pathParams: string[] = [];
  const source = pattern.replace(/\{(\w+)(\+?)\}/g, (_, name: string, greedy: string) => {
    pathParams.push(name);
    return greedy ? "(.+)" : "([^/]+)";
  });
  return { name: `GET ${pattern.replace("+}", "}")}`, matcher: new RegExp(`^${source}/?$`), pathParams, schema, handle };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** First value of each query parameter. */
export function firstValues(query: URLSearchParams): RawInput {
  const input: RawInput = {};
  for (const [k, v] of query) if (!(k in input)) input[k] = v;
  return input;
}

export function dispatch(routes: readonly Route<any>[], ctx: RequestContext): ApiResponse {
  const path = ctx.path.length > 1 ? ctx.path.replace(/\/+$/, "") : ctx.path;
  for (const route of routes) {
    const m = route.matcher.exec(path);
    if (!m) continue;
    const input = firstValues(ctx.query);
    for (let i = 0; i < route.pathParams.length; i++) {
      const value = safeDecode(m[i + 1]);
      if (value === undefined)
        return apiError({
          error: `Invalid path parameter: ${route.pathParams[i]}`,
          message: `'${m[i + 1]}' is not valid percent-encoded text.`,
          hint: "Encode path segments as UTF-8 percent-encoding.",
        });
      input[route.pathParams[i]] = value;
    }
    const parsed = route.schema.safeParse(input);
    if (!parsed.success) return issueToResponse(parsed.error.issues);
    try {
      return route.handle(parsed.data, ctx);
    } catch (e) {
      return {
        status: 500,
        body: { error: "Internal server error", message: `${route.name} failed: ${(e as Error).message}` },
      };
    }
  }
  return apiError({
    status: 404,
    error: "Route not found",
    message: `No endpoint answers GET /api${ctx.path}.`,
    hint: "See the README for the list of endpoints; every path starts with /api.",
  });
}
