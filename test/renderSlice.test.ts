import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderSlice } from "../scripts/renderSlice.js";
import { batchesOf, planOf, WHOLE } from "../scripts/slicePlan.js";
import { SAMPLE_BASE_URL } from "./support/buildSample.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("renderSlice", () => {
  it("renders on workers the plan maker started before it gave its plan", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "maqam-early-workers-"));
    dirs.push(dir);
    const requests = ["/tuning-systems", "/maqamat?filterByFamily=rast"];
    let given = 0;
    const slice = await renderSlice(dir, { baseUrl: SAMPLE_BASE_URL, requests, workers: 2 }, WHOLE, async (o, shard, startWorkers) => {
      startWorkers();
      // Called twice, the workers are started once.
      startWorkers();
      // Long enough for the workers to have read their facts (their first message) before the plan is given.
      await new Promise((done) => setTimeout(done, 5_000));
      const planned = planOf(o);
      given = planned.length;
      return { planned, batches: batchesOf(planned, shard) };
    });
    expect(given).toBe(2);
    expect(slice.workers).toBe(2);
    expect(slice.results.map((r) => r.status)).toEqual([200, 200]);
    for (const r of slice.results) expect(readFileSync(join(dir, "api", slice.planned[r.index].file)).length).toBe(r.bytes);
  });

  it("stops the workers it started when the plan maker fails", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "maqam-early-workers-"));
    dirs.push(dir);
    const failing = renderSlice(dir, { baseUrl: SAMPLE_BASE_URL, requests: ["/tuning-systems"], workers: 2 }, WHOLE, async (_o, _shard, startWorkers) => {
      startWorkers();
      await new Promise((done) => setTimeout(done, 1_000));
      throw new Error("no plan");
    });
    // Rejects (rather than hanging on workers left running).
    await expect(failing).rejects.toThrow("no plan");
  });
});
