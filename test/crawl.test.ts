/**
 * Every link leads somewhere: starting at /api, follow every link of every answer (breadth first,
 * through the web handler, bounded by TOTAL targets and PER_ROUTE of one endpoint). Each is a 200
 * — or, for a template link that lacks the parameters a data answer needs (a list's
 * `links.detail`), a 400 whose hint names one of them. The links reachable from /api are about
 * 1,250 distinct targets: the answers whose shape the recordings fix (the lists of tuning systems
 * and sources, the source record) carry no links to their items.
 */
import { it, expect } from "vitest";
import { handleRequest } from "../src/serve/handler.js";
import { routes } from "../src/api/routes.js";
import type { Route } from "../src/api/route.js";
import { routeOf } from "../scripts/fuzz.js";
import { catalog } from "./support/catalog.js";

const ORIGIN = "http://localhost:3000";
const TOTAL = 20_000;
const PER_ROUTE = 2_000;

/** Links under /api in a body: absolute ones of our origin, and root-relative ones (not path templates such as `/api/maqamat/{idName}`). */
function linksIn(body: unknown, out: string[] = []): string[] {
  if (typeof body === "string" && !body.includes("{")) {
    if (body.startsWith(`${ORIGIN}/api`)) out.push(body);
    else if (body.startsWith("/api/")) out.push(ORIGIN + body);
  } else if (body && typeof body === "object") for (const v of Object.values(body)) linksIn(v, out);
  return out;
}

/** Parameters a data answer needs that the link leaves out. */
const missingParameters = (route: Route, url: URL) =>
  Object.entries(route.params)
    .filter(([name, d]) => d.in === "query" && (d.required || d.neededForData) && !url.searchParams.has(name))
    .map(([name]) => name);

it("every link of every answer reachable from /api leads to an answer, over every endpoint", async () => {
  const options = { catalog, baseUrl: ORIGIN };
  const queue = [`${ORIGIN}/api`];
  const seen = new Set(queue);
  const perRoute = new Map<string, number>();
  const broken: string[] = [];
  let templates = 0;
  let followed = 0;
  while (queue.length && followed < TOTAL) {
    const link = queue.shift()!;
    const url = new URL(link);
    const route = routeOf(link);
    if (!route) {
      broken.push(`${link}: no endpoint`);
      continue;
    }
    const n = perRoute.get(route.name) ?? 0;
    if (n >= PER_ROUTE) continue;
    perRoute.set(route.name, n + 1);
    followed++;
    const response = await handleRequest(new Request(link), options);
    const text = await response.text();
    if (response.status === 400) {
      const missing = missingParameters(route, url);
      const hint = String(JSON.parse(text).hint);
      if (missing.length && missing.some((name) => hint.includes(name))) templates++;
      else broken.push(`${link}: 400 (${hint})`);
      continue;
    }
    if (response.status !== 200) {
      broken.push(`${link}: ${response.status} ${text.slice(0, 160)}`);
      continue;
    }
    if (route.answersFile) continue;
    for (const next of linksIn(JSON.parse(text)))
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
  }
  expect(broken).toEqual([]);
  expect(queue).toEqual([]);
  expect(followed).toBeGreaterThan(1200);
  expect([...perRoute.keys()].sort()).toEqual(routes.map((r) => r.name).sort());
  // Lists link to details that need a tuning system: those are followed too, as 400s with a hint.
  expect(templates).toBeGreaterThan(0);
}, 300_000);
