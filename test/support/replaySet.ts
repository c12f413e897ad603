/** Recorded requests taken round-robin over the endpoints, for replaying through a runtime. */
import { dataRoutes as routes } from "../../src/api/routes.js";
import { prerenderRequests } from "../../scripts/prerender/index.js";
import { recordedCases, endpointOf } from "./recorded.js";
import { catalog } from "./catalog.js";

/** Up to `count` recorded paths, one endpoint after another, plus pre-rendered ones for endpoints nothing was recorded for. */
export function replaySet(count: number): string[] {
  const byEndpoint = new Map<string, string[]>();
  for (const c of recordedCases()) {
    const name = endpointOf(c.path);
    byEndpoint.set(name, [...(byEndpoint.get(name) ?? []), c.path]);
  }
  const prerendered = [...prerenderRequests(catalog)];
  for (const route of routes)
    if (!byEndpoint.has(route.name))
      byEndpoint.set(
        route.name,
        prerendered
          .filter((r) => route.matcher.test(r.split("?")[0]))
          .filter((_, i) => i % 50 === 0)
          .slice(0, 8),
      );
  const lists = [...byEndpoint.values()];
  const picked: string[] = [];
  for (let round = 0; picked.length < count && lists.some((l) => l.length > round); round++)
    for (const list of lists) if (list[round] !== undefined && picked.length < count) picked.push(list[round]);
  return picked;
}
