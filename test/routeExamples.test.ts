/**
 * The route-search examples a reader tries first find routes: the one in README.md's client
 * example and the one GET /api lists for /modulation-routes.
 */
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { handleRequest } from "../src/serve/handler.js";
import { catalog } from "./support/catalog.js";

const answer = async (target: string) => {
  const r = await handleRequest(new Request(`http://localhost/api${target}`), { catalog, baseUrl: "http://localhost:3000" });
  return {
    status: r.status,
    body: (await r.json()) as { totalPossibleRoutes: { outboundRoutesCount: number; data: { outboundRoute: { steps: unknown[] } }[] } },
  };
};

describe("route-search examples", () => {
  it("README.md's client example finds routes", async () => {
    const readme = readFileSync(resolve(import.meta.dirname, "..", "README.md"), "utf8");
    const call = /api\.get\("\/modulation-routes", \{([^}]*)\}\)/.exec(readme);
    expect(call, "README.md has a route-search example").not.toBeNull();
    const params = new URLSearchParams([...call![1].matchAll(/(\w+): ("([^"]*)"|[\w.]+)/g)].map((m) => [m[1], m[3] ?? m[2]]));
    expect(params.get("fromMaqam")).toBeTruthy();
    const { status, body } = await answer(`/modulation-routes?${params}`);
    expect(status).toBe(200);
    expect(body.totalPossibleRoutes.outboundRoutesCount).toBeGreaterThan(0);
  });

  it("GET /api's example for /modulation-routes finds routes", async () => {
    const index = (await (await handleRequest(new Request("http://localhost/api"), { catalog, baseUrl: "http://localhost:3000" })).json()) as {
      endpoints: { name: string; example: string }[];
    };
    const example = index.endpoints.find((e) => e.name === "GET /modulation-routes")!.example;
    const { status, body } = await answer(example.replace("http://localhost:3000/api", ""));
    expect(status).toBe(200);
    expect(body.totalPossibleRoutes.outboundRoutesCount).toBeGreaterThan(0);
    expect(body.totalPossibleRoutes.data[0].outboundRoute.steps.length).toBeGreaterThan(0);
  });
});
