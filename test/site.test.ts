/**
 * The site's files in a reduced build served by a plain static server, and the client over it in
 * Node (with and without the engine) and Deno. The same site in Chromium: site-browser.test.ts.
 */
import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { handleRequest } from "../src/serve/handler.js";
import { dataRoutes as routes } from "../src/api/routes.js";
import type { createClient as CreateClient } from "../src/client/index.js";
import { binaryOf } from "../scripts/runtimes.js";
import { INTERVALS, ROUTE_SEARCH, useSiteSample } from "./support/siteSample.js";

const RAST = { tuningSystem: "ibnsina_1037", startingNote: "yegah" };
const site = useSiteSample();
describe("the build's site files", () => {
  it("holds the pages, the client with its declarations and engine chunk, the worker and the pictures", () => {
    for (const file of [
      "index.html",
      "site.js",
      "site.css",
      "reference.html",
      "reference.js",
      "reference.css",
      "reference/swagger-ui-bundle.js",
      "exports-guide.html",
      "fonts/arabic.css",
      "fonts/noto-naskh-arabic-arabic-400-normal.woff2",
      "sw.js",
      "client/maqam-api.js",
      "client/maqam-api.d.ts",
    ])
      expect(existsSync(join(site.sample.outDir, file)), file).toBe(true);
    expect(site.sample.manifest.site.client.engine).toBeGreaterThan(100_000);
    expect(site.sample.manifest.site.pictures.files).toBe(2);
    expect(existsSync(join(site.sample.outDir, "pictures/maqamat/maqam_rast/@startingNote=yegah&tuningSystem=ibnsina_1037.svg"))).toBe(true);
  });

  it("publishes typed bodies: a program using build/client/*.d.ts type-checks, and a wrong field does not", () => {
    const check = join(site.sample.outDir, "client", "check.ts");
    const tsc = (source: string) => {
      writeFileSync(check, source);
      const r = spawnSync(
        process.execPath,
        [resolve("node_modules/typescript/bin/tsc"), "--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "nodenext", check],
        { encoding: "utf8" },
      );
      return r.status === 0 ? "" : r.stdout;
    };
    const program = (field: string) => `import type { ResponseBodies } from "./maqam-api.js";
type PitchClasses = ResponseBodies["/tuning-systems/{id}/{startingNote}/pitch-classes"];
export const count = (answer: PitchClasses): number => answer.${field}.length;
export const names = (answer: ResponseBodies["/tuning-systems"]): string[] => answer.data.map((d) => d.tuningSystem.displayName);
`;
    try {
      expect(tsc(program("pitchClasses"))).toBe("");
      expect(tsc(program("pitchClassez"))).toContain("pitchClassez");
    } finally {
      rmSync(check, { force: true });
    }
  });
});

describe("the client", () => {
  const expectSame = async (body: unknown, path: string) => {
    const r = await handleRequest(new Request(`http://localhost/api${path}`), site.reference);
    expect(body).toEqual(await r.json());
  };

  it("in Node: the file where the build has one, the engine chunk otherwise", async () => {
    const { createClient } = (await import(pathToFileURL(join(site.sample.outDir, "client", "maqam-api.js")).href)) as { createClient: typeof CreateClient };
    const client = createClient({ baseUrl: site.server.origin });
    const listed = await client.request("/tuning-systems");
    expect(listed.source).toBe("static");
    await expectSame(listed.body, "/tuning-systems");
    const routesFound = await client.request("/modulation-routes", Object.fromEntries(new URL(ROUTE_SEARCH, "http://x").searchParams));
    expect(routesFound.source).toBe("computed");
    await expectSame(routesFound.body, routesFound.request);
    const rast = await client.get("/maqamat/{idName}", { idName: "maqam_rast", ...RAST, pitchClassDataType: "all" });
    // Typed by the route's response schema.
    expect("maqam" in rast && typeof rast.maqam === "object" && rast.maqam.idName).toBe("maqam_rast");
    await expectSame(rast, "/maqamat/maqam_rast?pitchClassDataType=all&startingNote=yegah&tuningSystem=ibnsina_1037");
    await expect(client.get("/maqamat/maqam_nothing")).rejects.toMatchObject({ status: 404 });
  });

  it("in Node without compute: the fallback answers what no file does", async () => {
    const { createClient } = (await import(pathToFileURL(join(site.sample.outDir, "client", "maqam-api.js")).href)) as { createClient: typeof CreateClient };
    const asked: string[] = [];
    const fallback = "http://fallback.invalid";
    const client = createClient({
      baseUrl: site.server.origin,
      fallbackUrl: fallback,
      compute: false,
      fetch: async (input) => {
        const url = String(input);
        if (!url.startsWith(fallback)) return fetch(url);
        asked.push(url.slice(fallback.length));
        return handleRequest(new Request(`http://localhost${url.slice(fallback.length)}`), site.reference);
      },
    });
    const answer = await client.request("/intervals/calculate", Object.fromEntries(new URL(INTERVALS, "http://x").searchParams));
    expect(answer.source).toBe("fallback");
    expect(asked).toEqual(["/api/intervals/calculate?from=dugah&startingNote=ushayran&to=nim_hijaz&tuningSystem=ibnsina_1037&unit=decimalRatio"]);
  });

  it("in Deno: the same answers", async () => {
    const script = join(site.sample.dir, "deno-client.mjs");
    writeFileSync(
      script,
      `import { createClient } from ${JSON.stringify(pathToFileURL(join(site.sample.outDir, "client", "maqam-api.js")).href)};
const client = createClient({ baseUrl: ${JSON.stringify(site.server.origin)} });
const params = (u) => Object.fromEntries(new URL(u, "http://x").searchParams);
const a = await client.request("/tuning-systems");
const b = await client.request("/intervals/calculate", params(${JSON.stringify(INTERVALS)}));
// The client asks with the parameters sorted (the canonical request), as the self link shows.
console.log(JSON.stringify([a, b]));`,
    );
    const run = spawnSync(
      binaryOf("deno"),
      ["run", "--quiet", "--no-prompt", "--no-config", "--no-lock", `--allow-net=127.0.0.1:${new URL(site.server.origin).port}`, script],
      {
        encoding: "utf8",
        env: { PATH: process.env.PATH, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", DENO_DIR: join(site.sample.dir, "deno-dir") },
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const [listed, interval] = JSON.parse(run.stdout) as { source: string; body: unknown; request: string }[];
    expect([listed.source, interval.source]).toEqual(["static", "computed"]);
    await expectSame(listed.body, "/tuning-systems");
    expect(interval.request).toBe("/intervals/calculate?from=dugah&startingNote=ushayran&to=nim_hijaz&tuningSystem=ibnsina_1037&unit=decimalRatio");
    await expectSame(interval.body, interval.request);
  });
});
