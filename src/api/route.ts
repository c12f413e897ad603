/**
 * Route definitions and dispatch. A route is a path pattern, its declared parameters (params.ts),
 * the zod schema of its 200 body and a pure handler `(params, context) -> {status, body}` whose
 * body type is the schema's; the static build and the fallback server both go through
 * `dispatch`, so a pre-rendered file equals the live answer.
 */
import type { z } from "zod";
import { apiError, notFound, type Answer, type ApiResponse } from "./errors.js";
import { parseParams, type ParamDeclarations, type ParsedParams } from "./params.js";
import type { Catalog } from "../theory/catalog.js";
import { isFileBody } from "./shared/bodies.js";
import { onFirstUse } from "./shared/onFirstUse.js";

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

export interface RouteSpec<P extends string, D extends ParamDeclarations, B> {
  /** Path below /api; `{x}` matches one segment, or one or more where x is declared with `slashes` (idNames may contain `/`). */
  path: P;
  /** One line for the index, the OpenAPI document and the docs. */
  summary: string;
  /** Parameters in the order they are checked (the first failure answers). */
  params: D;
  /**
   * The 200 body (the schemas of its group); TEXT_FILE_BODY or BINARY_FILE_BODY for a file (the
   * exports). A function, called on first use: answering never reads the schema.
   */
  response: () => z.ZodType<B>;
  /** Its 200 body has the schema's type (inferred from `response` alone). */
  handle: (params: ParsedParams<D>, ctx: RequestContext) => Answer<NoInfer<B>>;
  /** No answer is pre-rendered: every request is computed (by the fallback, the worker or the browser). */
  computed?: boolean;
  /** Answers 422 when the entity cannot be realised in the requested tuning system. */
  unprocessable?: boolean;
  /** Optional parameters the example request adds to the needed ones, to keep the example small. */
  exampleQuery?: Record<string, string>;
}

/** A route with parameters D, 200 body B and name N (`GET /maqamat/{idName}`). */
export interface RouteOf<D extends ParamDeclarations, B, N extends string = string> {
  /** `GET /maqamat/{idName}` — the name used in docs and by the conformance scorer. */
  name: N;
  /** `/maqamat/{idName}`: the path template below /api. */
  path: string;
  summary: string;
  params: D;
  /** The schema of the 200 body, built on first use. */
  readonly response: z.ZodType<B>;
  computed: boolean;
  exampleQuery: Record<string, string>;
  /** A 200 is a file, ASCII text or bytes (errors.ts FileAnswer); errors are JSON as everywhere. */
  readonly answersFile: boolean;
  /** The error statuses it answers besides 500. */
  errorStatuses: readonly number[];
  matcher: RegExp;
  pathParams: string[];
  /** Validates the raw parameters and answers (its 200 body typed by `handle`, which `response` describes). */
  answer: (input: RawInput, ctx: RequestContext) => ApiResponse;
}

/** A route of the dispatch list, its types erased. */
export type Route = RouteOf<ParamDeclarations, unknown>;

export function defineRoute<const P extends string, D extends ParamDeclarations, B>(spec: RouteSpec<P, D, B>): RouteOf<D, B, `GET ${P}`> {
  const pathParams: string[] = [];
  // A literal `.` (a file extension) matches only itself.
  const source = spec.path.replace(/\./g, "\\.").replace(/\{(\w+)\}/g, (_, name: string) => {
    pathParams.push(name);
    return spec.params[name].slashes ? "(.+)" : "([^/]+)";
  });
  const response = onFirstUse(spec.response);
  return {
    name: `GET ${spec.path}`,
    path: spec.path,
    summary: spec.summary,
    params: spec.params,
    get response() {
      return response();
    },
    computed: spec.computed ?? false,
    exampleQuery: spec.exampleQuery ?? {},
    // A text or byte body is a file, as the handler's answer type says (errors.ts Success).
    get answersFile() {
      return isFileBody(response());
    },
    errorStatuses: spec.unprocessable ? [400, 404, 422] : [400, 404],
    // No trailing slash: the OpenAPI document has no way to allow one, so the API refuses it (404).
    matcher: new RegExp(`^${source}$`),
    pathParams,
    answer: (input, ctx) => {
      const parsed = parseParams(spec.params, input);
      return parsed.ok ? spec.handle(parsed.params, ctx) : parsed.answer;
    },
  };
}

/**
 * The spec of a route shared by the maqām and jins groups, less its response schema: the group
 * adds it (`defineRoute({ ...spec, response })`), where the kind, and so the body type the
 * handler returns, is known and checked against the schema.
 */
export const routeSpec = <const P extends string, D extends ParamDeclarations, A extends ApiResponse>(
  spec: Omit<RouteSpec<P, D, unknown>, "response" | "handle"> & { handle: (params: ParsedParams<D>, ctx: RequestContext) => A },
) => spec;

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

/** The first segment of a path below /api (`maqamat` of `/maqamat/maqam_rast`). */
const headOf = (path: string): string => {
  const end = path.indexOf("/", 1);
  return path.slice(1, end < 0 ? undefined : end);
};

/**
 * The routes of a list by the literal first segment of their path, in list order, so that a
 * request tries the few patterns that can match it rather than every one; undefined when some
 * route's first segment is a parameter (then every route is tried).
 */
const routesByHead = new WeakMap<readonly Route[], ReadonlyMap<string, readonly Route[]> | undefined>();
function indexOf(routes: readonly Route[]): ReadonlyMap<string, readonly Route[]> | undefined {
  if (routesByHead.has(routes)) return routesByHead.get(routes);
  const heads = routes.map((r) => headOf(r.path));
  const index = heads.some((h) => h.includes("{")) ? undefined : new Map([...new Set(heads)].map((head) => [head, routes.filter((_, i) => heads[i] === head)]));
  routesByHead.set(routes, index);
  return index;
}

export function dispatch(routes: readonly Route[], ctx: RequestContext): ApiResponse {
  const index = ctx.path.startsWith("/") ? indexOf(routes) : undefined;
  for (const route of index ? (index.get(headOf(ctx.path)) ?? []) : routes) {
    const m = route.matcher.exec(ctx.path);
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
    // A fault throws on: the web-standard handler makes it the one JSON 500 (errors.ts `fault`).
    return route.answer(input, ctx);
  }
  return notFound({
    error: "Route not found",
    message: `No endpoint answers GET /api${ctx.path}.`,
    hint: "GET /api lists every endpoint with an example; /api/openapi.json describes them all.",
  });
}
