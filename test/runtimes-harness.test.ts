/**
 * The runtime harness (scripts/runtimes.ts) on a small worker: workerd with and without an
 * assets service, deno standalone, real status codes, bodies and headers over loopback; startup
 * failures reported with the runtime's own message; nothing left listening after stop().
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NODE_SERVER_FLAGS, startDeno, startWorkerd, unavailable, versionFailure, workerdConfig, type RunningRuntime } from "../scripts/runtimes.js";

const script = join(import.meta.dirname, "fixtures", "runtime-worker.mjs");
const sha1First = (s: string) => createHash("sha1").update(s).digest()[0];

let scratch: string;
let assetsDir: string;
let broken: string;
const INDEX = '{"files":["index"]}\n';
const QUERY_FILE = "@k=v&z=1~2.json";

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "maqam-harness-"));
  assetsDir = join(scratch, "site");
  mkdirSync(join(assetsDir, "api", "x"), { recursive: true });
  writeFileSync(join(assetsDir, "api", "x", "index.json"), INDEX);
  writeFileSync(join(assetsDir, "api", "x", QUERY_FILE), '{"k":"v"}');
  broken = join(scratch, "broken.mjs");
  writeFileSync(broken, 'throw new Error("broken at import");\nexport default { fetch() { return new Response("never"); } };\n');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What every server answers, with or without assets. */
async function expectWorkerAnswers(origin: string, assets: boolean) {
  const hello = await fetch(`${origin}/api/hello?a=1&b=%C3%A9`);
  expect(hello.status).toBe(200);
  expect(hello.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(hello.headers.get("x-fixture")).toBe("1");
  expect(await hello.json()).toEqual({ path: "/api/hello", query: { a: "1", b: "é" }, method: "GET", assets, sha1First: sha1First("/api/hello") });

  const head = await fetch(`${origin}/api/hello`, { method: "HEAD" });
  expect(head.status).toBe(200);
  expect(head.headers.get("x-fixture")).toBe("1");
  expect(await head.text()).toBe("");

  const post = await fetch(`${origin}/api/hello`, { method: "POST", body: "x" });
  expect(post.status).toBe(405);
  expect(post.headers.get("allow")).toBe("GET, HEAD");
  expect(await post.json()).toEqual({ error: "Method not allowed" });

  const outside = await fetch(`${origin}/elsewhere`);
  expect(outside.status).toBe(404);
  expect(await outside.json()).toEqual({ error: "Not found" });
}

/** Without assets a file URL finds nothing. */
async function expectNoAssets(origin: string) {
  const file = await fetch(`${origin}/api/x/index.json`);
  expect(file.status).toBe(404);
  expect(await file.json()).toEqual({ error: "No assets", path: "/api/x/index.json" });
}

/** Runs the checks on a started server and stops it whatever happens; nothing listens afterwards. */
async function checking(started: Promise<RunningRuntime>, checks: (server: RunningRuntime) => Promise<void>) {
  const server = await started;
  try {
    await checks(server);
  } finally {
    await server.stop();
    await expect(fetch(server.origin, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    await server.stop();
  }
}

/** Skipped only where the binary cannot run, saying why; never under CI, where that fails. */
const skip = (runtime: "workerd" | "deno") => {
  const why = process.env.CI ? undefined : unavailable(runtime);
  if (why) console.warn(`skipping the ${runtime} harness tests: ${why}`);
  return why !== undefined;
};

describe("workerdConfig", () => {
  it("binds ASSETS to a disk service (behind a worker giving files their types) only when a directory is given", () => {
    const bare = workerdConfig("worker.js", 8787);
    expect(bare).toContain('address = "127.0.0.1:8787"');
    expect(bare).toContain('esModule = embed "worker.js"');
    expect(bare).not.toContain("ASSETS");
    const withAssets = workerdConfig("worker.js", 8787, "/srv/build");
    expect(withAssets).toContain('(name = "ASSETS", service = "assets")');
    expect(withAssets).toContain('(name = "disk", disk = (path = "/srv/build", writable = false))');
    expect(withAssets).toContain('(name = "assets", worker = .assets)');
    expect(withAssets).toContain('bindings = [(name = "DISK", service = "disk")]');
    expect(bare).not.toContain("DISK");
  });

  it("passes V8 flags to the process", () => {
    expect(workerdConfig("worker.js", 8787)).toContain("v8Flags = [],");
    expect(workerdConfig("worker.js", 8787, undefined, ["--max-old-space-size=256"])).toContain('v8Flags = ["--max-old-space-size=256"],');
  });
});

describe("the Node server's flags", () => {
  it("are the same for npm run serve as for npm start and the benches", () => {
    const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.serve).toBe(`node ${NODE_SERVER_FLAGS.join(" ")} --import tsx src/serve/main.ts`);
  });
});

describe.skipIf(skip("workerd"))("workerd", () => {
  // With a heap bound, as the soak runs it: workerd takes the V8 flag and still answers.
  it("runs the worker alone: computed answers, file URLs find no assets, loopback refused", () =>
    checking(startWorkerd({ script, v8Flags: ["--max-old-space-size=128"] }), async (server) => {
      await expectWorkerAnswers(server.origin, false);
      await expectNoAssets(server.origin);
      // The default outbound service reaches public addresses only.
      expect(await (await fetch(`${server.origin}/api/probe`)).json()).toEqual({ net: "Error" });
      expect(server.output()).toContain("is not allowed");
    }));

  it("serves files through ASSETS bound to the directory: request path = path below it", () =>
    checking(startWorkerd({ script, assetsDir }), async (server) => {
      await expectWorkerAnswers(server.origin, true);
      const index = await fetch(`${server.origin}/api/x/index.json`);
      expect(index.status).toBe(200);
      expect(index.headers.get("content-type")).toBe("application/json; charset=utf-8");
      // The type Cloudflare's assets give a .json file, which the worker's guard expects.
      expect(index.headers.get("x-asset-type")).toBe("application/json");
      expect(await index.text()).toBe(INDEX);
      // File names with @, =, & and ~ are reached as they are and percent-encoded.
      for (const name of [QUERY_FILE, encodeURIComponent(QUERY_FILE)]) {
        const query = await fetch(`${server.origin}/api/x/${name}`);
        expect(query.status, name).toBe(200);
        expect(await query.text()).toBe(readFileSync(join(assetsDir, "api", "x", QUERY_FILE), "utf8"));
      }
      const missing = await fetch(`${server.origin}/api/x/@k=w.json`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: "No such file", assetStatus: 404, path: "/api/x/@k=w.json" });
    }));

  it("reports a worker that fails to load with workerd's message", async () => {
    await expect(startWorkerd({ script: broken })).rejects.toThrow(/workerd exited[\s\S]*broken at import/);
  });
});

describe.skipIf(skip("deno"))("deno serve", () => {
  it("runs the worker standalone, granting nothing beyond listening", () =>
    checking(startDeno({ script }), async (server) => {
      // Connection info, passed where Cloudflare passes env, is not mistaken for bindings.
      await expectWorkerAnswers(server.origin, false);
      await expectNoAssets(server.origin);
      expect(await (await fetch(`${server.origin}/api/probe`)).json()).toEqual({ net: "NotCapable", env: "NotCapable", read: "NotCapable" });
    }));

  it("reports a worker that fails to load with deno's message", async () => {
    await expect(startDeno({ script: broken })).rejects.toThrow(/deno exited[\s\S]*broken at import/);
  });
});

describe("versionFailure", () => {
  it("names a missing binary and one that exits with an error, and passes a working one", () => {
    expect(versionFailure(join(tmpdir(), "no-such-runtime"))).toMatch(/no-such-runtime --version failed: .*ENOENT/);
    expect(versionFailure("false")).toBe("false --version exited with 1: ");
    expect(versionFailure(process.execPath)).toBeUndefined();
  });
});
