/**
 * The API exactly as strict as its OpenAPI document, by Prism's validation proxy (a checker nobody
 * here wrote) in front of the Node server on loopback: a slice of the recorded cases and of the
 * fuzz requests replayed through it, no violation counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countedViolations, replay, replayRequests, startPrismProxy, type PrismProxy } from "../scripts/prismProxy.js";

let proxy: PrismProxy;
beforeAll(async () => {
  proxy = await startPrismProxy();
}, 150_000);
afterAll(() => proxy?.stop());

describe("Prism's validation proxy in front of the server", () => {
  it("finds no violation in every 20th recorded case and 40 fuzz requests", async () => {
    const requests = replayRequests(20, 40);
    expect(requests.length).toBeGreaterThan(120);
    expect(await replay(proxy, requests)).toEqual([]);
  }, 180_000);

  it("checks for real: a request the document forbids is listed, and counts only when the API answers it with a 2xx", async () => {
    const refused = await proxy.check("/maqamat/maqam_rast?includeArabic=banana&tuningSystem=ibnsina_1037&startingNote=yegah");
    expect(refused.status).toBe(400);
    expect(refused.violations.some((v) => v.startsWith("request.query"))).toBe(true);
    expect(countedViolations(refused)).toEqual([]);
    expect(countedViolations({ ...refused, status: 200 })).toEqual(refused.violations);
    const unknown = await proxy.check("/ajnas/");
    expect(unknown.status).toBe(404);
    expect(unknown.violations.length).toBeGreaterThan(0);
  }, 30_000);
});
