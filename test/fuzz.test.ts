/**
 * A 2,000-request slice of `npm run fuzz` (scripts/fuzz.ts): requests generated from every route's
 * declared parameters, seeded, through the web handler. Every answer is a 200 that validates
 * against its route's response schema or a 4xx with the error body. The time bound is checked by
 * `npm run fuzz` only (no timed unit tests).
 */
import { it, expect } from "vitest";
import fc from "fast-check";
import { catalog } from "./support/catalog.js";
import { contractBreach, fuzz, fuzzArbitrary } from "../scripts/fuzz.js";
import { routes } from "../src/api/routes.js";

it("generates the same requests for the same seed, over every route", () => {
  const draw = () => fc.sample(fuzzArbitrary(catalog), { seed: 42, numRuns: 400 });
  const first = draw();
  expect(draw()).toEqual(first);
  expect(new Set(first.map((g) => g.route))).toEqual(new Set(routes.map((r) => r.name)));
});

it("tells a breach from a kept contract", () => {
  expect(contractBreach("/api/sources", 500, "application/json", '{"error":"x","message":"y","hint":"z"}')).toMatch(/^500/);
  expect(contractBreach("/api/sources/x", 404, "application/json", '{"error":"x","message":"y","hint":"z"}')).toBeUndefined();
  expect(contractBreach("/api/sources/x", 404, "application/json", '{"error":"x"}')).toMatch(/error shape/);
  expect(contractBreach("/api/sources", 200, "application/json", '{"count":1}')).toMatch(/does not validate against GET \/sources/);
});

it("2,000 generated requests: every answer a valid 200 or a 4xx with the error body", async () => {
  const report = await fuzz(catalog, { count: 2000, seed: 20261124, slowMs: Infinity });
  expect(report.failures).toEqual([]);
  expect(report.requests).toBeGreaterThan(1900);
  expect(report.routes).toBe(routes.length);
  // Both kinds of answer are exercised, not only the validators.
  expect(report.byStatus[200]).toBeGreaterThan(300);
  expect(report.byStatus[400]).toBeGreaterThan(300);
}, 180_000);
