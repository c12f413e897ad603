/**
 * Faults around the build: a build process killed half way, a swap stopped between its renames,
 * and fact files that are corrupt or missing, for `npm run build` and `npm start` as processes.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "../scripts/build.js";
import { discard, oldOf, partialOf, recoverSwap, removeDiscarded, trashOf } from "../scripts/swap.js";
import { freePort } from "../scripts/freePort.js";
import { startServer } from "../src/serve/server.js";
import { catalog } from "./support/catalog.js";
import { buildSample, sampleRequests, SAMPLE_BASE_URL } from "./support/buildSample.js";
import { corruptedCopy, runScript, until } from "./support/processes.js";

let sample: Awaited<ReturnType<typeof buildSample>>;
let server: Server;
let origin: string;
const manifestOf = (dir: string) => readFileSync(join(dir, "manifest.json"), "utf8");
const PCS = "/api/tuning-systems/ibnsina_1037/yegah/pitch-classes";

beforeAll(async () => {
  sample = await buildSample(["gzip"]);
  server = await startServer({ catalog, buildDir: sample.outDir, baseUrl: SAMPLE_BASE_URL, recheckMs: 0 }, 0);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((r) => server.close(r));
  if (!sample) return;
  await until(() => !existsSync(trashOf(sample.outDir)), 120_000, "the trash removed");
  rmSync(sample.dir, { recursive: true, force: true });
}, 150_000);

async function servedFromFile(path: string): Promise<boolean> {
  const r = await fetch(origin + path);
  await r.arrayBuffer();
  return r.status === 200 && r.headers.get("x-answer-source") === "static";
}

describe("a build killed half way", () => {
  it("leaves the previous build serving, and the next build succeeds", async () => {
    const before = manifestOf(sample.outDir);
    expect(await servedFromFile(PCS)).toBe(true);
    const partialApi = join(partialOf(sample.outDir), "api");
    const killed = runScript("scripts/build.ts", { BUILD_DIR: sample.outDir, BASE_URL: SAMPLE_BASE_URL, BUILD_WORKERS: "1", HOST_PROFILE: "github-pages" });
    // Half way: the workers are writing files into the partial tree.
    try {
      await until(() => existsSync(partialApi) && readdirSync(partialApi).length > 0, 150_000, `files in ${partialApi}\n${killed.output()}`);
    } finally {
      // Killed even when the wait fails, so no orphan build writes into the next test's tree.
      killed.child.kill("SIGKILL");
    }
    expect(await killed.exited).toBe("SIGKILL");
    expect(existsSync(partialApi)).toBe(true);
    expect(manifestOf(sample.outDir)).toBe(before);
    expect(await servedFromFile(PCS)).toBe(true);

    const next = await build({ outDir: sample.outDir, baseUrl: SAMPLE_BASE_URL, requests: sampleRequests(), workers: 2, encodings: ["gzip"] });
    expect(next.manifest.digest).toBe(sample.manifest.digest);
    expect(existsSync(partialOf(sample.outDir))).toBe(false);
    expect(await servedFromFile(PCS)).toBe(true);
    // The killed build's partial tree and the tree replaced, removed once the build is done.
    await until(() => !existsSync(trashOf(sample.outDir)), 120_000, "the trash removed");
  }, 200_000);

  it("between the renames of its swap, leaves the previous build aside, put back by the next build or start", async () => {
    const before = manifestOf(sample.outDir);
    renameSync(sample.outDir, oldOf(sample.outDir));
    expect(recoverSwap(sample.outDir)).toBe(true);
    expect(manifestOf(sample.outDir)).toBe(before);
    expect(existsSync(oldOf(sample.outDir))).toBe(false);
    expect(recoverSwap(sample.outDir)).toBe(false);

    renameSync(sample.outDir, oldOf(sample.outDir));
    const again = await build({ outDir: sample.outDir, baseUrl: SAMPLE_BASE_URL, requests: sampleRequests(), workers: 1, encodings: ["gzip"] });
    expect(again.manifest.digest).toBe(sample.manifest.digest);
    expect(existsSync(oldOf(sample.outDir))).toBe(false);
  });
});

describe("the trees a build replaces", () => {
  it("are removed by a detached process after it; a build while an earlier removal still runs succeeds", async () => {
    // The trees the builds above replaced are removed first (on a loaded machine that can outlast them).
    await until(() => !existsSync(trashOf(sample.outDir)), 120_000, "the trash of the builds above removed");
    // An earlier build's previous tree, large, still being removed when the next build starts.
    const earlier = join(sample.dir, "earlier");
    for (let i = 0; i < 20_000; i++) {
      const folder = join(earlier, "api", `route_${i % 11}`, `entity_${i % 97}`);
      if (i < 11 * 97) mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${i}.json`), "{}");
    }
    discard(sample.outDir, earlier);
    expect(removeDiscarded(sample.outDir)).toBe(true);
    expect(readdirSync(trashOf(sample.outDir))).toEqual([expect.stringMatching(/^earlier-/)]);
    const before = manifestOf(sample.outDir);
    const next = await build({ outDir: sample.outDir, baseUrl: SAMPLE_BASE_URL, requests: sampleRequests(), workers: 2, encodings: ["gzip"] });
    expect(next.manifest.digest).toBe(sample.manifest.digest);
    expect(manifestOf(sample.outDir)).toBe(before);
    expect(existsSync(oldOf(sample.outDir))).toBe(false);
    expect(await servedFromFile(PCS)).toBe(true);
    await until(() => !existsSync(trashOf(sample.outDir)), 120_000, "the trash removed");
    // The tree replaced, with the state it had, is kept as the next build's starting point; nothing else is left.
    expect(readdirSync(sample.dir).sort()).toEqual(["build", "build.cache", "build.spare", "build.spare.json"]);
  }, 360_000);
});

describe("corrupt or missing fact files", () => {
  const cases: [string, () => string, RegExp][] = [
    [
      "a field of the wrong type",
      () => corruptedCopy("maqamat.json", (m) => (m.find((x: { id: string }) => x.id === "1").ascendingNoteNames = "rāst")),
      /maqamat\.json record '1' field 'ascendingNoteNames'/,
    ],
    [
      "a missing file",
      () => {
        const dir = corruptedCopy("sources.json", () => undefined);
        rmSync(join(dir, "sources.json"));
        return dir;
      },
      /sources\.json: cannot read JSON/,
    ],
    [
      "two tuning systems deriving one id",
      () => corruptedCopy("tuningSystems.json", (t) => void t.push({ ...t[0], id: "ronzevalle_1904_copy" })),
      /tuningSystems\.json records 'ronzevalle_1904' and 'ronzevalle_1904_copy' both derive the id 'ronzevalle_1904'/,
    ],
  ];

  it.each(cases)("stop npm run build, naming the file, record and field: %s", async (_, corrupt, named) => {
    const dataDir = corrupt();
    const outDir = join(mkdtempSync(join(tmpdir(), "maqam-refused-")), "build");
    const run = runScript("scripts/build.ts", { DATA_DIR: dataDir, BUILD_DIR: outDir, BASE_URL: SAMPLE_BASE_URL, BUILD_WORKERS: "1" });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(named);
    expect(run.output()).toMatch(/^build: refusing to build: /m);
    expect(existsSync(outDir)).toBe(false);
    expect(existsSync(partialOf(outDir))).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(cases)("stop npm start, naming the file, record and field: %s", async (_, corrupt, named) => {
    const dataDir = corrupt();
    const outDir = join(mkdtempSync(join(tmpdir(), "maqam-refused-")), "build");
    const run = runScript("scripts/start.ts", { DATA_DIR: dataDir, BUILD_DIR: outDir, PORT: String(await freePort()) });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(named);
    expect(run.output()).toMatch(/^refusing to start: /m);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
