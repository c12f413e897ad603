/**
 * Where a build plans: on the main thread when the datasets' threads listed the tuning systems'
 * parts with their slices (a clean build of the profile's plan) or find few slices missing (few
 * tuning systems changed), on a thread of its own when most tuning systems are listed afresh by the
 * planning (a clean build of given requests, or without the datasets). Builds over facts cut to
 * three tuning systems (the one scripts/bench-incremental.ts changes, al-Kindī's, whose 12-tone sets
 * complete the others, and one more): the incremental build's tree is the clean build's, file for
 * file; built again with nothing changed, it plans on the main thread too.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type BuildOptions, type Built } from "../scripts/build.js";
import { CHANGED, factsWithOneChange } from "../scripts/bench-incremental.js";
import { treeDigests } from "../scripts/compare-builds.js";
import { DATA_DIR } from "../src/data/load.js";
import { FACT_FILES } from "../src/data/facts.js";
import { AL_KINDI_ID } from "../src/theory/twelveToneSets.js";
import { toIdName } from "../src/theory/idName.js";
import { catalog } from "./support/catalog.js";
import { removeBuilds, SAMPLE_BASE_URL } from "./support/buildSample.js";

const KEPT = [AL_KINDI_ID, CHANGED.tuningSystem, "ronzevalle_1904"];

/** A copy of data/ in `dir` with the tuning systems of KEPT alone. */
function threeTuningSystems(dir: string): string {
  cpSync(DATA_DIR, dir, { recursive: true });
  const file = join(dir, FACT_FILES.tuningSystems);
  const records = JSON.parse(readFileSync(file, "utf8")) as { id: string }[];
  writeFileSync(file, JSON.stringify(records.filter((r) => KEPT.includes(r.id))));
  return dir;
}

/** Lists, and each tuning system's details and pitch classes on its first starting note (the changed one's change). */
const requests = [
  "/tuning-systems",
  "/sources",
  ...KEPT.flatMap((id) => {
    const note = toIdName(catalog.findTuningSystem(id)?.startingNotes[0] ?? "");
    return [`/tuning-systems/${id}`, `/tuning-systems/${id}/${note}/pitch-classes`];
  }),
];
const options = (outDir: string, dataDir: string): BuildOptions => ({
  outDir,
  baseUrl: SAMPLE_BASE_URL,
  requests,
  datasets: true,
  workers: 1,
  encodings: ["gzip"],
  profile: "github-pages",
  dataDir,
});

let dir: string;
let first: Built;
let incremental: Built;
let clean: Built;
let again: Built;
let wholePlan: Built;
/** Each tree's files and their SHA-256, taken right after its build. */
let incrementalFiles: Map<string, string>;
let cleanFiles: Map<string, string>;
let againFiles: Map<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "maqam-plan-here-"));
  const before = threeTuningSystems(join(dir, "before"));
  const after = factsWithOneChange(join(dir, "after"), before);
  first = await build(options(join(dir, "build"), before));
  incremental = await build(options(join(dir, "build"), after));
  incrementalFiles = treeDigests(join(dir, "build"));
  clean = await build(options(join(dir, "clean"), after));
  cleanFiles = treeDigests(join(dir, "clean"));
  // Nothing changed since: the datasets are taken over whole.
  again = await build(options(join(dir, "build"), after));
  againFiles = treeDigests(join(dir, "build"));
  wholePlan = await build({ ...options(join(dir, "whole"), after), requests: undefined });
}, 600_000);
afterAll(() => removeBuilds(dir, ["build", "clean", "whole"]), 150_000);

describe("the planning's thread", () => {
  it("is the main thread in a clean build of the profile's plan, every part listed by the datasets' threads with the slices", () => {
    expect(wholePlan.phases?.planApart).toBe(false);
    expect(wholePlan.phases?.planParts?.read).toBe(0);
    expect(wholePlan.phases?.planParts?.listed).toBe(0);
    expect(wholePlan.phases?.planParts?.offered).toBeGreaterThan(3 * 5);
    expect(wholePlan.manifest.files).toBeGreaterThan(10_000);
  }, 300_000);

  it("is a thread of its own in a clean build of given requests, the main thread after one tuning system changed", () => {
    expect(first.phases?.planApart).toBe(true);
    expect(clean.phases?.planApart).toBe(true);
    expect(incremental.phases?.planApart).toBe(false);
    // The two others' groups taken over from the first build, the changed one's pitch classes rendered again.
    expect(incremental.groups?.kept).toBeGreaterThan(0);
    expect(incremental.groups?.rendered).toBeGreaterThan(0);
    expect(incremental.groups?.kept).toBeLessThan(first.groups?.rendered ?? 0);
  });

  it("is the main thread when nothing changed, the datasets taken over whole", () => {
    expect(again.phases?.planApart).toBe(false);
    expect(again.groups?.rendered).toBe(0);
  });

  it("gives the tree of a clean build, datasets and manifest included, after the change and again", () => {
    const datasets = [...cleanFiles.keys()].filter((file) => file.startsWith("api/datasets/"));
    expect(datasets.length).toBeGreaterThan(10);
    expect(cleanFiles.size).toBeGreaterThan(requests.length + datasets.length);
    expect(incrementalFiles).toEqual(cleanFiles);
    expect(againFiles).toEqual(cleanFiles);
    expect(incremental.manifest.digest).toBe(clean.manifest.digest);
    expect(again.manifest.digest).toBe(clean.manifest.digest);
  });
});
