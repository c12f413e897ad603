/**
 * A client of the archive's API for browsers, Node ≥ 20 and Deno (build/client/maqam-api.js).
 * `client.get(path, params)` asks for the canonical pre-rendered file when the request has one;
 * when the host has no such file it computes the answer with the engine, a chunk loaded on first
 * need, or asks the fallback server. Every path gives the same JSON as the Node server.
 */
import { canonicalQuery, requestText, staticFileOf } from "../api/staticPath.js";
import { notFound } from "../api/errors.js";
import type { ResponseBodies } from "./bodies.js";

export type { ResponseBodies } from "./bodies.js";

export interface ClientOptions {
  /** Where the build is published (the site root): files are read from `${baseUrl}/api/…`. */
  baseUrl: string;
  /** A server that answers every /api request (npm start, build/_worker.js); asked when no file answers and `compute` is off. */
  fallbackUrl?: string;
  /** Compute answers that have no file here, with the bundled engine (loaded on first need); default true. */
  compute?: boolean;
  /** Scheme + host of links in computed answers; default the build's own (`${baseUrl}/manifest.json`), so they equal its files. */
  linkBase?: string;
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch;
}

export type ParamValue = string | number | boolean | readonly (string | number)[];
export type Params = Record<string, ParamValue | undefined>;
/** Where an answer came from. */
export type Source = "static" | "computed" | "fallback";

export interface ApiAnswer<B = unknown> {
  status: number;
  body: B;
  source: Source;
  /** The request as the client made it: path below /api with its canonical query. */
  request: string;
}

/** The body of an error answer: `{error, message, hint}`. */
export interface ErrorBody {
  error: string;
  message?: string;
  hint?: string;
}

/** A 4xx or 5xx answer, thrown by `get`. */
export class MaqamApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly request: string,
  ) {
    super(`${status} ${body.error}${body.message ? `: ${body.message}` : ""} (${request})`);
    this.name = "MaqamApiError";
  }
}

/** The body type of a route template such as `/maqamat/{idName}`; `unknown` for a concrete path. */
export type BodyOf<P extends string> = P extends keyof ResponseBodies ? ResponseBodies[P] : unknown;

export interface Client {
  /** The 200 body of a request; `path` is concrete (`/maqamat/maqam_rast`) or a template whose `{names}` come from `params`. Throws MaqamApiError otherwise. */
  get<P extends string>(path: P, params?: Params): Promise<BodyOf<P>>;
  /** Any answer with its status and source (no throw on 4xx). */
  request<P extends string>(path: P, params?: Params): Promise<ApiAnswer<BodyOf<P> | ErrorBody>>;
}

type Engine = (request: Request) => Promise<Response>;

const paramText = (v: ParamValue): string => (Array.isArray(v) ? v.join(",") : String(v));

/** The path below /api with template names filled in, and the remaining parameters as a canonical query. */
export function requestOf(path: string, params: Params = {}): { path: string; query: URLSearchParams } {
  const rest = new Map(Object.entries(params).filter((e): e is [string, ParamValue] => e[1] !== undefined));
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = rest.get(name);
    if (value === undefined) throw new TypeError(`${path}: no value for {${name}}`);
    rest.delete(name);
    // Note names may hold `/` (saham/ramal_tuti): it stays a path separator, as the API expects.
    return paramText(value).split("/").map(encodeURIComponent).join("/");
  });
  const pairs = [...rest].map(([k, v]): [string, string] => [k, paramText(v)]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (canonicalQuery(pairs) === undefined) throw new TypeError(`${path}: a parameter is given twice`);
  return { path: filled.startsWith("/") ? filled : `/${filled}`, query: new URLSearchParams(pairs) };
}

const trimmed = (url: string) => url.replace(/\/+$/, "");

/** What the client reads of build/manifest.json. */
interface Manifest {
  baseUrl?: string;
  /** By route name (`GET /maqamat/{idName}`): the parameter-name lists pre-rendered (`` for none). */
  routes?: Record<string, { queries?: string[] }>;
}

const literalSegments = (template: string) => template.split("/").filter((s) => s && !s.startsWith("{")).length;

/**
 * Whether the build may have a file for the request: its route (the manifest's template that
 * matches with the most fixed segments, as the router prefers them) pre-rendered this set of
 * parameter names. Without a manifest every canonical request may have one.
 */
export function mayHaveFile(manifest: Manifest | undefined, path: string, query: URLSearchParams): boolean {
  if (!manifest?.routes) return true;
  const matching = Object.keys(manifest.routes)
    .map((name) => name.replace(/^GET /, ""))
    .filter((template) =>
      new RegExp(
        `^${template
          .replace(/[.()]/g, "\\$&")
          .replace(/\{\w+\}$/, ".+")
          .replace(/\{\w+\}/g, "[^/]+")}$`,
      ).test(path),
    )
    .sort((a, b) => literalSegments(b) - literalSegments(a));
  if (matching.length === 0) return false;
  return manifest.routes[`GET ${matching[0]}`].queries?.includes([...query.keys()].join("&")) ?? true;
}

export function createClient(options: ClientOptions): Client {
  const baseUrl = trimmed(options.baseUrl);
  const fallbackUrl = options.fallbackUrl && trimmed(options.fallbackUrl);
  const compute = options.compute ?? true;
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let engine: Promise<{ answer: Engine; links: string }> | undefined;
  let manifest: Promise<Manifest | undefined> | undefined;

  // The build's manifest says which routes and parameter names have files, and the links' base.
  const readManifest = () =>
    (manifest ??= fetchFn(`${baseUrl}/manifest.json`)
      .then((r) => (r.ok ? (r.json() as Promise<Manifest>) : undefined))
      .catch(() => undefined));
  const linkBase = async (): Promise<string> => {
    if (options.linkBase) return trimmed(options.linkBase);
    const built = (await readManifest())?.baseUrl;
    return typeof built === "string" ? trimmed(built) : baseUrl;
  };
  const loadEngine = () =>
    (engine ??= Promise.all([import("./engine.js"), linkBase()])
      .then(([m, links]) => ({ answer: m.createEngine({ baseUrl: links }), links }))
      .catch((e: unknown) => {
        engine = undefined;
        throw e;
      }));

  /** The pre-rendered file's body, or undefined when the host has none (any non-JSON or non-200 answer). */
  const fromFile = async (file: string): Promise<unknown> => {
    const response = await fetchFn(`${baseUrl}/api/${file}`).catch(() => undefined);
    if (!response?.ok || !/json/.test(response.headers.get("content-type") ?? "")) {
      await response?.body?.cancel();
      return undefined;
    }
    return response.json();
  };

  async function request(path: string, params?: Params): Promise<ApiAnswer> {
    const { path: below, query } = requestOf(path, params);
    const target = requestText(below, query);
    const file = staticFileOf(below, query);
    const body = file === undefined || !mayHaveFile(await readManifest(), below, query) ? undefined : await fromFile(file);
    if (body !== undefined) return { status: 200, body, source: "static", request: target };
    if (compute) {
      const { answer: computed, links } = await loadEngine();
      const answer = await computed(new Request(`${links}/api${target}`));
      return { status: answer.status, body: await answer.json(), source: "computed", request: target };
    }
    if (fallbackUrl) {
      const answer = await fetchFn(`${fallbackUrl}/api${target}`);
      return { status: answer.status, body: await answer.json(), source: "fallback", request: target };
    }
    const { status, body: error } = notFound({ error: "Not found", message: `No file answers ${target}.`, hint: "Turn compute on or give a fallbackUrl." });
    return { status, body: error, source: "static", request: target };
  }

  return {
    request: request as Client["request"],
    async get(path, params) {
      const answer = await request(path, params);
      if (answer.status !== 200) throw new MaqamApiError(answer.status, answer.body as ErrorBody, answer.request);
      return answer.body as never;
    },
  };
}
