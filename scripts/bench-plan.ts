/**
 * The planning phase of `npm run build` alone, part by part, without rendering anything:
 * `tsx scripts/bench-plan.ts`. Plans data/ with nothing kept (a clean build), then a copy of the
 * facts with one tuning system changed (scripts/bench-incremental.ts) over what the first kept (an
 * incremental build): the facts, the listing enumerator by enumerator, the files and routes, the
 * batches, the group hashes, and the part of keepUnchanged that computes (a previous state that
 * matches no group, so nothing is linked). Prints the seconds of each part of both, and the SHA-256
 * of the clean plan's requests, files and routes, batches, group hashes and plan.json; with `clean`,
 * only the clean plan (`tsx scripts/bench-plan.ts clean`).
 */
import { machineText } from "./benchDoc.js";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { ajnasRequests } from "../src/api/ajnas/prerender.js";
import { classificationRequests } from "../src/api/classification/prerender.js";
import { renderingFiles, setFiles, tuningSystemFiles } from "../src/api/exports/prerender.js";
import { maqamatRequests, maqamDetailRequests } from "../src/api/maqamat/prerender.js";
import { noteNamesRequests } from "../src/api/pitch-classes/prerender.js";
import { sourcesRequests } from "../src/api/sources/prerender.js";
import { tuningSystemMaqamatRequests, tuningSystemsRequests } from "../src/api/tuning-systems/prerender.js";
import { CHANGED, factsWithOneChange } from "./bench-incremental.js";
import { keepUnchanged } from "./buildCache.js";
import { PLAN_FILE, planListing } from "./planListing.js";
import { PROFILES } from "./profiles.js";
import { batchesOf, planOf, WHOLE } from "./slicePlan.js";
import { engineDigest, groupHashes } from "./sliceHash.js";

/** Seconds of a part: on the clock, and of the process's CPU (less sensitive to other work on the machine). */
type Seconds = [what: string, wall: number, cpu: number];

/** SHA-256 of lines: what shows that a faster planning phase makes the same plan. */
const digestOf = (lines: Iterable<string>) => {
  const digest = createHash("sha256");
  for (const line of lines) digest.update(line).update("\n");
  return digest.digest("hex");
};

/** The plan phase of a build of `dataDir` over the listing kept in `previousCache`, keeping its own in `cache`: seconds per part. */
function planPhase(dataDir: string | undefined, cache: string, previousCache?: string): { times: Seconds[]; digests: [string, string][] } {
  const times: Seconds[] = [];
  const timed = <T>(what: string, run: () => T): T => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    const value = run();
    const used = process.cpuUsage(cpu);
    times.push([what, (performance.now() - start) / 1000, (used.user + used.system) / 1e6]);
    return value;
  };
  const facts = timed("read the facts", () => readFacts(dataDir));
  const cat = timed("catalog", () => createCatalog(facts, "build"));
  timed("engine digest", () => engineDigest());
  // The listing and the group hashes hash a name for the engine instead of its digest, so that
  // the plan's SHA-256 below stay the same across changes of the code that leave the plan alone.
  const engine = "bench-plan";
  const listing = timed("previous listing", () => planListing(cat, { engine, options: PROFILES["github-pages"].prerender, previousCache }));
  const options = { ...PROFILES["github-pages"].prerender, listOf: listing.listOf };
  // The enumerators of scripts/prerender in its order, on one catalog as the build lists them.
  const parts: [string, () => Iterable<string>][] = [
    ["exports of the tuning systems", () => tuningSystemFiles(cat)],
    ["exports of the maqāmāt", () => renderingFiles(cat, options, "maqam")],
    ["exports of the ajnās", () => renderingFiles(cat, options, "jins")],
    ["exports of the pitch-class sets", () => setFiles(cat, options)],
    ["classification", () => classificationRequests(cat)],
    ["maqāmāt (lists, transpositions, availability)", () => maqamatRequests(cat, options)],
    ["maqāmāt per tuning system", () => tuningSystemMaqamatRequests(cat)],
    ["tuning systems", () => tuningSystemsRequests(cat)],
    ["note names", () => noteNamesRequests(cat)],
    ["sources", () => sourcesRequests(cat)],
    ["ajnās", () => ajnasRequests(cat, options)],
    ["maqām details", () => maqamDetailRequests(cat, options)],
  ];
  const requests = ["/", "/openapi.json", ...parts.flatMap(([what, list]) => timed(`list: ${what}`, () => [...list()]))];
  const profile = PROFILES["github-pages"];
  const planned = timed("files and routes (plan, file limit)", () => planOf({ requests, profile: "github-pages", limits: profile.limits }));
  const batches = timed("batches", () => batchesOf(planned, WHOLE));
  const key = { baseUrl: "http://localhost:3000", encodings: profile.encodings, pictures: profile.pictures };
  const hashes = timed("group hashes", () => groupHashes(planned, createCatalog(facts, "build"), key, engine, listing.listOf));
  timed("listing kept", () => listing.write(cache));
  timed("keepUnchanged (no group matches)", () =>
    keepUnchanged("/nonexistent", "/nonexistent", "/nonexistent", batches, hashes, { manifest: "", groups: new Map(), leftOut: new Set() }),
  );
  const { read, listed } = listing.counts();
  const sum = (i: 1 | 2) => times.reduce((s, t) => s + t[i], 0);
  times.push([`in all (${planned.length} requests, ${hashes.size} groups; parts read back ${read}, listed ${listed})`, sum(1), sum(2)]);
  const digests: [string, string][] = [
    ["requests listed", digestOf(requests)],
    ["files and routes", digestOf(planned.map((p) => `${p.request}\t${p.file}\t${p.route}\t${p.query}`))],
    ["batches", digestOf(batches.map((b) => b.map(([i, request, file]) => `${i} ${request} ${file}`).join("\t")))],
    ["group hashes", digestOf([...hashes].map(([group, hash]) => `${group}\t${hash}`))],
    // Each tuning system's hash also hashes the listing's scripts: left out, like the engine.
    ["plan.json's parts", digestOf([readFileSync(join(cache, PLAN_FILE), "utf8").replace(/"hash":"[0-9a-f]{64}",/g, "")])],
  ];
  return { times, digests };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const work = mkdtempSync(join(tmpdir(), "maqam-bench-plan-"));
  try {
    const { times: clean, digests } = planPhase(undefined, join(work, "clean.cache"));
    for (const [what, digest] of digests) console.log(`SHA-256 of the clean plan's ${what}: ${digest}`);
    // `clean`: the clean plan alone, for comparing its digests before and after a change.
    const incremental = process.argv.includes("clean")
      ? clean.map(([what]): Seconds => [what, Number.NaN, Number.NaN])
      : planPhase(factsWithOneChange(join(work, "data")), join(work, "incremental.cache"), join(work, "clean.cache")).times;
    console.log(`${machineText()}`);
    console.log(`| part | clean (data/): wall, CPU | ${CHANGED.tuningSystem} changed, over it: wall, CPU |`);
    console.log("|---|---:|---:|");
    const shown = ([, wall, cpu]: Seconds) => (Number.isNaN(wall) ? "–" : `${wall.toFixed(2)} s, ${cpu.toFixed(2)} s`);
    for (const [i, part] of clean.entries()) console.log(`| ${part[0]} | ${shown(part)} | ${shown(incremental[i])} |`);
    console.log(`in all, incremental: ${incremental.at(-1)?.[0]}`);
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
