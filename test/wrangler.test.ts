/**
 * Cloudflare with Cloudflare's own local runtime: wrangler (npm devDependency, offline) runs the
 * README's commands — `wrangler pages dev build` over a build of the github-pages profile and of
 * the cloudflare profile, and `wrangler dev --config deploy/cloudflare/wrangler.toml` (Workers
 * with static assets) over the cloudflare build — and each replays 320 recorded requests over
 * every endpoint with the Node handler's status, bytes and source (file or computed) over the same
 * files; no /api answer is HTML. Pages serves a file where the build has one and answers a missing
 * one with build/404.html and 404, which the worker's guard turns into a computed answer.
 *
 * Cost (CI: 2 cores): the cloudflare profile is built whole, as deployed (about 20,000 files). The
 * github-pages profile pre-renders over 160,000 files (about 1 GB, minutes to write): its build
 * here is that profile's site and root files with the files of its own plan restricted to those
 * the replayed requests name plus every 100th, so requests meet files that exist, shapes the
 * manifest lists whose file is missing (Pages' miss path) and shapes never written. What wrangler
 * serves is the files that exist, so a restriction changes which answers come from files, not
 * their bytes. `npm run conformance -- --runtime wrangler-pages` measures a whole github-pages build.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { handleRequest, type HandlerOptions } from "../src/serve/handler.js";
import { nodeAssets } from "../src/serve/nodeAssets.js";
import { dataRoutes as routes } from "../src/api/routes.js";
import type { HostProfile } from "../scripts/profiles.js";
import {
  COMPATIBILITY_DATE,
  startWrangler,
  wranglerArgs,
  wranglerDeployDryRun,
  wranglerUnavailable,
  WRANGLER_CONFIG,
  type RunningRuntime,
  type WranglerMode,
} from "../scripts/runtimes.js";
import { SAMPLE_BASE_URL } from "./support/buildSample.js";
import { WRANGLER_CASES } from "./support/wranglerBuild.js";
import { endpointOf } from "./support/recorded.js";
import { replaySet } from "./support/replaySet.js";
import { catalog } from "./support/catalog.js";

const requests = replaySet(WRANGLER_CASES);
const root = resolve(import.meta.dirname, "..");

let dir: string;
const builds: Partial<Record<HostProfile, string>> = {};
const why = wranglerUnavailable();
// Named in the report when skipped; in CI nothing is skipped, so a wrangler that cannot start fails there.
const skip = !process.env.CI && why !== undefined;

let building: ChildProcess | undefined;

/** Builds a profile in a child process (test/support/wranglerBuild.ts), stopped with the suite. */
function buildProfile(profile: HostProfile, outDir: string): Promise<void> {
  return new Promise((done, fail) => {
    const script = join(import.meta.dirname, "support", "wranglerBuild.ts");
    const child = spawn(process.execPath, ["--import", "tsx", script, profile, outDir], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    building = child;
    let printed = "";
    child.stdout.on("data", (c: Buffer) => (printed = (printed + c.toString()).slice(-5000)));
    child.stderr.on("data", (c: Buffer) => (printed = (printed + c.toString()).slice(-5000)));
    child.once("error", fail);
    child.once("exit", (code) => (code === 0 ? done() : fail(new Error(`building ${profile} exited with ${code}: ${printed}`))));
  });
}

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), "maqam-wrangler-builds-"));
  for (const profile of ["cloudflare", "github-pages"] as const) {
    await buildProfile(profile, join(dir, profile));
    builds[profile] = join(dir, profile);
  }
  // On CI's 2 quiet cores the two builds take minutes; on a machine shared with other builds, many more.
}, 1_800_000);
afterAll(async () => {
  if (building && building.exitCode === null && building.signalCode === null) {
    const ended = new Promise((done) => building!.once("exit", done));
    building.kill("SIGKILL");
    await ended;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("the replay set covers every endpoint with at least 300 requests", () => {
  expect(requests.length).toBeGreaterThanOrEqual(300);
  expect(new Set(requests.map(endpointOf))).toEqual(new Set(routes.map((r) => r.name)));
});

describe("the commands", () => {
  it("are the README's Cloudflare commands, with only the address added", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    for (const mode of ["pages", "workers"] as const) {
      const command = `npx wrangler ${wranglerArgs(mode, 8788)
        .join(" ")
        .replace(/ --ip 127\.0\.0\.1 --port 8788$/, "")}`;
      expect(readme, command).toContain(command);
    }
  });

  it("deploy/cloudflare/wrangler.toml: the build's worker and files, /api always to the worker, the date the runtimes use", () => {
    const toml = readFileSync(join(root, WRANGLER_CONFIG), "utf8");
    expect(toml).toMatch(/^main = "\.\.\/\.\.\/build\/_worker\.js"$/m);
    expect(toml).toMatch(/^directory = "\.\.\/\.\.\/build"$/m);
    expect(toml).toMatch(/^binding = "ASSETS"$/m);
    expect(toml).toMatch(/^run_worker_first = \["\/api", "\/api\/\*"\]$/m);
    expect(toml).toMatch(/^not_found_handling = "404-page"$/m);
    expect(toml).toContain(`compatibility_date = "${COMPATIBILITY_DATE}"`);
  });
});

/** Runs `task` over `items`, a few at a time. */
async function inParallel<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}

/** Replays every request against wrangler and the Node handler over the same files; returns the answers' sources. */
async function expectNodeAnswers(runtime: RunningRuntime, buildDir: string) {
  const reference: HandlerOptions = { catalog, baseUrl: SAMPLE_BASE_URL, assets: nodeAssets({ buildDir }) };
  const differences: string[] = [];
  const sources = new Map<string, number>();
  await inParallel(requests, 6, async (path) => {
    const [got, want] = await Promise.all([fetch(`${runtime.origin}/api${path}`), handleRequest(new Request(`http://localhost/api${path}`), reference)]);
    const [gotBody, wantBody] = await Promise.all([got.arrayBuffer().then(Buffer.from), want.arrayBuffer().then(Buffer.from)]);
    const source = got.headers.get("x-answer-source") ?? "none";
    sources.set(source, (sources.get(source) ?? 0) + 1);
    if (/html/.test(got.headers.get("content-type") ?? "")) differences.push(`${path}: ${got.headers.get("content-type")}`);
    else if (got.status !== want.status) differences.push(`${path}: status ${got.status}, Node ${want.status}`);
    else if (!gotBody.equals(wantBody)) differences.push(`${path}: ${gotBody.length} bytes differ from Node's ${wantBody.length}`);
    else if (source !== want.headers.get("x-answer-source"))
      differences.push(`${path}: answered from ${source}, Node from ${want.headers.get("x-answer-source")}`);
  });
  // The differences end the message: wrangler's log before them is long, and a report shows the message's end.
  expect(differences.slice(0, 10), `${runtime.output()}\ndifferences:\n${differences.slice(0, 10).join("\n")}`).toEqual([]);
  return sources;
}

/** The site around /api: the landing page, and build/404.html with 404 for a page that is not there. */
async function expectSite(runtime: RunningRuntime, buildDir: string) {
  const landing = await fetch(`${runtime.origin}/`);
  expect(landing.status).toBe(200);
  expect(await landing.text()).toBe(readFileSync(join(buildDir, "index.html"), "utf8"));
  const missing = await fetch(`${runtime.origin}/no/such/page`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toBe(readFileSync(join(buildDir, "404.html"), "utf8"));
}

const RUNS: [WranglerMode, HostProfile][] = [
  ["pages", "github-pages"],
  ["pages", "cloudflare"],
  ["workers", "cloudflare"],
];

describe.skipIf(skip)("wrangler", () => {
  it("wrangler deploy --dry-run --config deploy/cloudflare/wrangler.toml accepts a cloudflare build: the worker's code is not published", () => {
    const { status, output } = wranglerDeployDryRun(builds.cloudflare!);
    expect(status, output).toBe(0);
    expect(output).toContain("env.ASSETS");
    expect(output).toContain("--dry-run: exiting now.");
  }, 300_000);

  for (const [mode, profile] of RUNS)
    it(`${mode === "pages" ? "wrangler pages dev build" : `wrangler dev --config ${WRANGLER_CONFIG}`} over a ${profile} build answers as the Node server does`, async () => {
      const buildDir = builds[profile]!;
      const runtime = await startWrangler({ mode, buildDir });
      try {
        const sources = await expectNodeAnswers(runtime, buildDir);
        expect(sources.get("static")).toBeGreaterThan(30);
        // Both paths exercised: the replay meets files and computes answers no file holds.
        expect(sources.get("computed")).toBeGreaterThan(50);
        await expectSite(runtime, buildDir);
      } finally {
        await runtime.stop();
      }
    }, 600_000);
});

if (why) it.skip(`wrangler is skipped: ${why}`, () => {});
