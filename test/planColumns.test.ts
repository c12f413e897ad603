import { describe, expect, it } from "vitest";
import type { TwelveToneSeeds } from "../scripts/buildWorker.js";
import { planReceived, planToSend } from "../scripts/planColumns.js";
import { batchesOf, planOf } from "../scripts/slicePlan.js";
import { sampleRequests } from "./support/buildSample.js";

describe("the plan sent by the planning thread", () => {
  const planned = planOf({ requests: sampleRequests(), profile: "github-pages", limits: {} });
  const batches = batchesOf(planned, { index: 0, count: 1 });
  const hashes = new Map([
    ["ibnsina_1037 × yegah", "a1"],
    ["/maqamat/maqam_rast", "b2"],
  ]);
  const steps = { plan: 1, hashes: 2, listing: 3 };
  const parts = { offered: 4, read: 5, listed: 6 };
  const seeds: TwelveToneSeeds = [["ibnsina_1037\u0000yegah\u00005", { entries: 4, sets: Int32Array.of(2, 0, 3, 1, 1), incompatible: Int32Array.of(2) }]];

  it("arrives as it was made, through a message's copy: plan, batches, hashes, seeds, the listing's counts", () => {
    const sent = structuredClone(planToSend(planned, batches, hashes, seeds, steps, parts));
    expect(planReceived(sent)).toEqual({ planned, batches, hashes, seeds, steps, parts });
  });

  it("holds each route name and query shape once and the batches as plan indices", () => {
    const sent = planToSend(planned, batches, hashes, seeds, steps, parts);
    expect(sent.routes.length).toBe(new Set(planned.map((p) => p.route)).size);
    expect(sent.queries.length).toBe(new Set(planned.map((p) => p.query)).size);
    expect(sent.routes.length).toBeLessThan(planned.length);
    expect(sent.batches.map((b) => [...b])).toEqual(batches.map((b) => b.map(([index]) => index)));
    expect(sent.requests[sent.batches[0][0]]).toBe(batches[0][0][1]);
  });
});
