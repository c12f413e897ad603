/**
 * `tsx test/support/wranglerBuild.ts <profile> <outDir>`: a build for test/wrangler.test.ts, in a
 * process of its own so that planning (synchronous, seconds) never stalls the test runner. The
 * cloudflare profile is built whole; the github-pages profile restricted as that test's header
 * says: its own plan's files that the replayed requests name, plus every 100th.
 */
import { staticFileOf } from "../../src/api/staticPath.js";
import { prerenderRequests } from "../../scripts/prerender/index.js";
import { build } from "../../scripts/build.js";
import { PROFILES, profileNamed } from "../../scripts/profiles.js";
import { SAMPLE_BASE_URL } from "./buildSample.js";
import { replaySet } from "./replaySet.js";
import { catalog } from "./catalog.js";

export const WRANGLER_CASES = 320;

const fileOf = (request: string) => {
  const url = new URL(request, "http://x");
  return staticFileOf(url.pathname, url.searchParams);
};

/** The github-pages plan restricted to the replayed requests' own files and every 100th. */
export function githubPagesRequests(): string[] {
  const replayed = new Set(
    replaySet(WRANGLER_CASES)
      .map(fileOf)
      .filter((f) => f !== undefined),
  );
  return [...prerenderRequests(catalog, PROFILES["github-pages"].prerender)].filter((r, i) => i % 100 === 0 || replayed.has(fileOf(r)!));
}

if (process.argv[1] === import.meta.filename) {
  const [name, outDir] = process.argv.slice(2);
  const profile = profileNamed(name);
  const requests = profile === "github-pages" ? githubPagesRequests() : undefined;
  // The datasets (minutes of work) are files like any other to wrangler; the replayed requests name none.
  const { manifest } = await build({ outDir, baseUrl: SAMPLE_BASE_URL, profile, workers: 2, requests, datasets: false });
  console.log(`${profile}: ${manifest.files} files`);
}
