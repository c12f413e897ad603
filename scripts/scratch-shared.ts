import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { cellsOf } from "../src/api/datasets/write.js";
import { SLICED_TABLES } from "./datasetSlices.js";
import { listTuningSystem } from "./planListing.js";
import { boundHeapGrowth } from "./heap.js";
boundHeapGrowth();
const facts = readFacts(undefined);
const t = (what: string, f: () => unknown) => {
  const s = performance.now();
  const c = process.cpuUsage();
  f();
  const u = process.cpuUsage(c);
  console.log(what, ((performance.now() - s) / 1000).toFixed(2), ((u.user + u.system) / 1e6).toFixed(2), (process.memoryUsage().rss / 1e6).toFixed(0));
};
const mode = process.argv[2];
const shared = createCatalog(facts, "build");
t(`slices${mode === "list" || mode === "freshlist" ? "+listing" : ""} ${mode}`, () => {
  for (const id of shared.tuningSystems.map((ts) => ts.id)) {
    const cat = mode.startsWith("fresh") ? createCatalog(facts, "build") : shared;
    const ts = cat.findTuningSystem(id)!;
    for (const table of SLICED_TABLES) cellsOf(cat, table, ts);
    if (mode.endsWith("list")) listTuningSystem(cat, ts, { full: false });
  }
});
