/**
 * The request handler leaves Node: bundled with esbuild for the browser, nothing it reaches
 * imports `node:*`, and the bundle answers a request in a context that has only web globals
 * (no process, no Buffer, no require).
 */
import { describe, it, expect, beforeAll } from "vitest";
import { build, type Metafile } from "esbuild";
import { createContext, runInContext } from "node:vm";
import { resolve } from "node:path";
import { readFileSync } from "node:fs";

const root = resolve(import.meta.dirname, "..");
const entry = resolve(root, "src", "serve", "worker.ts");
let code = "";
let metafile: Metafile;

beforeAll(async () => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "maqamWorker",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  code = result.outputFiles[0].text;
  metafile = result.metafile;
}, 60_000);

describe("the handler bundled for the browser", () => {
  it("reaches no node: module and no Node global", () => {
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((f) => f.startsWith("src/serve/handler.ts"))).toBe(true);
    expect(inputs.filter((f) => f.startsWith("node:") || /^src\/(serve\/(server|nodeAssets|main)|data\/load)\.ts$/.test(f))).toEqual([]);
    for (const [file, input] of Object.entries(metafile.inputs)) {
      expect(input.imports.filter((i) => i.path.startsWith("node:")).map((i) => `${file} → ${i.path}`)).toEqual([]);
    }
    // Our own modules use no process, Buffer or require (libraries may feature-test for them).
    const ours = inputs.filter((f) => f.startsWith("src/"));
    expect(ours.length).toBeGreaterThan(20);
    for (const f of ours) expect(readFileSync(resolve(root, f), "utf8"), f).not.toMatch(/\b(process\.|Buffer\.|require\()/);
  });

  it("answers requests with only web globals in scope", async () => {
    const web = { Request, Response, Headers, URL, URLSearchParams, TextEncoder, TextDecoder, crypto, Blob, CompressionStream, btoa, atob, console };
    const context = createContext({ ...web });
    expect(runInContext("typeof process + typeof Buffer + typeof require", context)).toBe("undefinedundefinedundefined");
    runInContext(code, context);
    const worker = runInContext("maqamWorker.default", context) as { fetch(r: Request): Promise<Response> };
    const list = await worker.fetch(new Request("http://127.0.0.1:8787/api/tuning-systems"));
    expect(list.status).toBe(200);
    const body = (await list.json()) as { count: number };
    expect(body.count).toBeGreaterThan(30);
    const cents = await worker.fetch(
      new Request("http://127.0.0.1:8787/api/tuning-systems/ibnsina_1037/yegah/pitch-classes?octave=1&pitchClassDataType=cents"),
    );
    expect(cents.status).toBe(200);
    const { pitchClasses } = (await cents.json()) as { pitchClasses: { noteName: string; cents: number }[] };
    // Ibn Sīnā's 17 pitch classes from yegāh: the first is the starting note at 0 cents.
    expect(pitchClasses).toHaveLength(17);
    expect(pitchClasses[0]).toMatchObject({ cents: 0 });
    const missing = await worker.fetch(new Request("http://127.0.0.1:8787/api/maqamat/maqam_nothing"));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toContain("not found");
  }, 60_000);
});
