/**
 * What the endpoint tests share: requests answered in-process through `dispatch` (as the static
 * build and the fallback server answer them), the shape of every 4xx, the checks of pre-rendered
 * requests and a seeded generator for properties over generated requests.
 */
import { expect } from "vitest";
import { dispatch } from "../../src/api/route.js";
import { routes } from "../../src/api/routes.js";
import { staticFileOf } from "../../src/api/staticPath.js";
import { catalog } from "./catalog.js";

export interface Answer {
  status: number;
  body: any;
}

export const ask = (path: string, query = ""): Answer =>
  dispatch(routes, { catalog, baseUrl: "http://localhost:3000", path, query: new URLSearchParams(query) }) as Answer;

/** Every 4xx is `{error, message, hint}` strings (+ extras). */
export function expectError(r: Answer, status: number) {
  expect(r.status).toBe(status);
  expect(typeof r.body.error).toBe("string");
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.hint).toBe("string");
}

/** A pre-rendered request is canonical: it has a static file. */
export function expectCanonical(request: string): URL {
  const url = new URL(request, "http://x");
  expect(staticFileOf(url.pathname, url.searchParams), request).toBeDefined();
  return url;
}

/** A pre-rendered request is canonical and answers 200. */
export function expectPrerendered(request: string) {
  const url = expectCanonical(request);
  expect(ask(url.pathname, url.search.slice(1)).status, request).toBe(200);
}

/** A small deterministic generator (mulberry32), so a property runs the same requests every time. */
export function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
