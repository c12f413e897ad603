import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { setGroupingSeeds } from "../src/api/exports/prerender.js";
import { routes } from "../src/api/routes.js";
import { dispatch } from "../src/api/route.js";
import { serialize } from "../src/serve/handler.js";
import { classificationRequests } from "../src/api/classification/prerender.js";
const facts = readFacts(undefined);
const c0 = createCatalog(facts, "build");
const seeds = c0.tuningSystems.flatMap((ts) => setGroupingSeeds(c0, ts));
const reqs = [...classificationRequests(c0)].filter((r) => r.includes("12-pitch"));
console.log(reqs.length, reqs.slice(0, 2));
const catalog = createCatalog(facts, "build", { twelveToneGroupings: new Map(seeds) });
let tc = 0, ts = 0, bytes = 0;
for (const request of reqs) {
  const url = new URL(request, "http://x");
  const a = performance.now();
  const response = dispatch(routes, { catalog, baseUrl: "http://127.0.0.1:3000", path: url.pathname, query: url.searchParams });
  const b = performance.now();
  const body = serialize(response);
  tc += b - a; ts += performance.now() - b; bytes += body.length;
}
console.log("compute", (tc / 1000).toFixed(2), "serialize", (ts / 1000).toFixed(2), "MB", (bytes / 1e6).toFixed(1));
