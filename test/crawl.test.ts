/**
 * Every link leads somewhere: starting at /api, follow every link of every answer (breadth first,
 * through the web handler, bounded by TOTAL targets and PER_ROUTE of one endpoint). Each is a 200
 * — or, for a template link that lacks the parameters a data answer needs (a list's
 * `links.detail`), a 400 whose hint names one of them. Such a hint also names the entity's
 * availability, as a client would read it: the crawl completes the template with every tuning
 * system and starting note that availability lists, and follows those too. Links alone reach
 * about 1,250 targets (the answers whose shape the specification fixes, such as the lists of
 * tuning systems and sources and the availability answers, carry no links to their items).
 */
import { it, expect } from "vitest";
import { handleRequest } from "../src/serve/handler.js";
import { routes } from "../src/api/routes.js";
import type { Route } from "../src/api/route.js";
import { routeOf } from "../scripts/fuzz.js";
import { catalog } from "./support/catalog.js";

const ORIGIN = "http://localhost:3000";
const TOTAL = 20_000;
const PER_ROUTE = 3_000;

/** Links under /api in a body: absolute ones of our origin, and root-relative ones (not path templates such as `/api/maqamat/{idName}`). */
function linksIn(body: unknown, out: string[] = []): string[] {
  if (typeof body === "string" && !body.includes("{")) {
    if (body.startsWith(`${ORIGIN}/api`)) out.push(body);
    else if (body.startsWith("/api/")) out.push(ORIGIN + body);
  } else if (body && typeof body === "object") for (const v of Object.values(body)) linksIn(v, out);
  return out;
}

/** What the crawl reads of an availability answer to complete a template link. */
interface AvailabilityBody {
  availability: { tuningSystems: { tuningSystemId: string; tuningSystemStartingNoteNamesIds: string[] }[] };
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
  const enqueue = (next: string) => {
    if (seen.has(next)) return;
    seen.add(next);
    queue.push(next);
  };
  /** Template links waiting for the availability answer their 400's hint names. */
  const waiting = new Map<string, string[]>();
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
      const availability = /\/api\/[^\s,;]+\/availability/.exec(hint)?.[0];
      if (availability && missing.includes("tuningSystem")) {
        waiting.set(ORIGIN + availability, [...(waiting.get(ORIGIN + availability) ?? []), link]);
        enqueue(ORIGIN + availability);
      }
      continue;
    }
    if (response.status !== 200) {
      broken.push(`${link}: ${response.status} ${text.slice(0, 160)}`);
      continue;
    }
    if (route.answersFile) continue;
    const body = JSON.parse(text);
    for (const next of linksIn(body)) enqueue(next);
    for (const template of waiting.get(link) ?? [])
      for (const ts of (body as AvailabilityBody).availability.tuningSystems)
        for (const startingNote of ts.tuningSystemStartingNoteNamesIds)
          enqueue(`${template}${template.includes("?") ? "&" : "?"}tuningSystem=${ts.tuningSystemId}&startingNote=${startingNote}`);
  }
  expect(broken).toEqual([]);
  expect(queue).toEqual([]);
  expect(followed).toBeGreaterThanOrEqual(5000);
  expect([...perRoute.keys()].sort()).toEqual(routes.map((r) => r.name).sort());
  // Lists link to details that need a tuning system: those are followed too, as 400s with a hint.
  expect(templates).toBeGreaterThan(0);
}, 300_000);
