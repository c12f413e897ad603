/**
 * build/_worker.js in the runtimes it is deployed to: workerd (Cloudflare's runtime) with an
 * assets service serving the build as `env.ASSETS` and without one, and `deno serve`. Each
 * replays recorded requests over all 31 endpoints and must answer with the Node handler's status
 * and bytes. Skipped only where a runtime's binary cannot start here, saying why (never in CI).
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { handleRequest, type HandlerOptions } from "../src/serve/handler.js";
import { nodeAssets } from "../src/serve/nodeAssets.js";
import { dataRoutes as routes } from "../src/api/routes.js";
import { startDeno, startWorkerd, unavailable, type RunningRuntime } from "../scripts/runtimes.js";
import { buildSample, SAMPLE_BASE_URL } from "./support/buildSample.js";
import { endpointOf } from "./support/recorded.js";
import { replaySet } from "./support/replaySet.js";
import { catalog } from "./support/catalog.js";

const CASES = 320;

interface Reply {
  status: number;
  body: Buffer;
  source: string | null;
}

const replyOf = async (r: Response): Promise<Reply> => ({
  status: r.status,
  body: Buffer.from(await r.arrayBuffer()),
  source: r.headers.get("x-answer-source"),
});

/** Runs `task` over `items`, a few at a time. */
async function inParallel<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]);
      }
    }),
  );
  return results;
}

let sample: Awaited<ReturnType<typeof buildSample>>;
const requests = replaySet(CASES);

beforeAll(async () => {
  sample = await buildSample([]);
}, 120_000);
afterAll(() => {
  if (sample) rmSync(sample.dir, { recursive: true, force: true });
});

it("the replay set covers every endpoint with at least 300 requests", () => {
  expect(requests.length).toBeGreaterThanOrEqual(300);
  expect(new Set(requests.map(endpointOf))).toEqual(new Set(routes.map((r) => r.name)));
});

/** Replays every request against a runtime and against the Node handler with the same files. */
async function expectSameAnswers(runtime: RunningRuntime, reference: HandlerOptions) {
  const differences: string[] = [];
  const sources = new Map<string, number>();
  await inParallel(requests, 6, async (path) => {
    const [got, want] = await Promise.all([
      fetch(`${runtime.origin}/api${path}`).then(replyOf),
      handleRequest(new Request(`http://localhost/api${path}`), reference).then(replyOf),
    ]);
    sources.set(got.source ?? "none", (sources.get(got.source ?? "none") ?? 0) + 1);
    if (got.status !== want.status) differences.push(`${path}: status ${got.status}, Node ${want.status}`);
    else if (!got.body.equals(want.body)) differences.push(`${path}: ${got.body.length} bytes differ from Node's ${want.body.length}`);
    else if (got.source !== want.source) differences.push(`${path}: answered from ${got.source}, Node from ${want.source}`);
  });
  expect(differences.slice(0, 10), runtime.output()).toEqual([]);
  return sources;
}

const skip = (runtime: "workerd" | "deno") => !process.env.CI && unavailable(runtime) !== undefined;

describe.skipIf(skip("workerd"))("workerd", () => {
  it("with the build as its assets binding: files where they exist, computed answers otherwise", async () => {
    const runtime = await startWorkerd({ script: join(sample.outDir, "_worker.js"), assetsDir: sample.outDir });
    try {
      const sources = await expectSameAnswers(runtime, { catalog, baseUrl: SAMPLE_BASE_URL, assets: nodeAssets({ buildDir: sample.outDir }) });
      expect(sources.get("static")).toBeGreaterThan(10);
      expect(sources.get("computed")).toBeGreaterThan(200);
    } finally {
      await runtime.stop();
    }
  }, 300_000);

  it("alone: every answer computed", async () => {
    const runtime = await startWorkerd({ script: join(sample.outDir, "_worker.js") });
    try {
      const sources = await expectSameAnswers(runtime, { catalog, baseUrl: SAMPLE_BASE_URL });
      expect([...sources.keys()]).toEqual(["computed"]);
    } finally {
      await runtime.stop();
    }
  }, 300_000);
});

describe.skipIf(skip("deno"))("deno serve", () => {
  it("answers every request itself, as the Node handler does", async () => {
    const runtime = await startDeno({ script: join(sample.outDir, "_worker.js") });
    try {
      await expectSameAnswers(runtime, { catalog, baseUrl: SAMPLE_BASE_URL });
    } finally {
      await runtime.stop();
    }
  }, 300_000);
});

// Named in the report when skipped; in CI nothing is skipped, so a runtime that cannot start fails there.
for (const runtime of ["workerd", "deno"] as const) {
  const why = unavailable(runtime);
  if (why) it.skip(`${runtime} is skipped: ${why}`, () => {});
}
