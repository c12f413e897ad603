/** scripts/bundle.ts: one ES module with the data inlined, minified, a source map beside, no Node. */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundle } from "../scripts/bundle.js";

let dir: string;
const data = { maqam: "rāst", steps: [1, 2, 3], note: "a string only the data file holds" };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "maqam-bundle-"));
  writeFileSync(join(dir, "data.json"), JSON.stringify(data));
  writeFileSync(
    join(dir, "entry.ts"),
    `import data from "./data.json" with { type: "json" };
declare const BUILD_BASE_URL: string | undefined;
const builtFor = typeof BUILD_BASE_URL === "string" ? BUILD_BASE_URL : "nowhere";
export default {
  async fetch(request: Request): Promise<Response> {
    return Response.json({ data, builtFor, path: new URL(request.url).pathname });
  },
};
`,
  );
  writeFileSync(join(dir, "uses-node.ts"), `import { readFileSync } from "node:fs";\nexport const read = () => readFileSync("x");\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bundle", () => {
  it("writes one minified ES module with the JSON inlined, the base URL defined and a linked source map", async () => {
    const outFile = join(dir, "out", "entry.js");
    const bytes = await bundle({ entry: join(dir, "entry.ts"), outFile, baseUrl: "https://api.example.org" });
    const code = readFileSync(outFile, "utf8");
    expect(bytes).toBe(Buffer.byteLength(code));
    expect(code).toContain(data.note);
    expect(code).not.toMatch(/^import /m);
    expect(code).not.toContain("\n  ");
    expect(code.trimEnd().endsWith("//# sourceMappingURL=entry.js.map")).toBe(true);
    const map = JSON.parse(readFileSync(`${outFile}.map`, "utf8")) as { sources: string[]; sourcesContent: string[] };
    expect(map.sources.map((s) => s.replace(/\\/g, "/"))).toEqual(["../data.json", "../entry.ts"]);
    expect(map.sourcesContent[1]).toContain("builtFor");

    const module = (await import(pathToFileURL(outFile).href)) as { default: { fetch(r: Request): Promise<Response> } };
    const answer = await module.default.fetch(new Request("http://127.0.0.1/api/x"));
    expect(await answer.json()).toEqual({ data, builtFor: "https://api.example.org", path: "/api/x" });
  });

  it("refuses a node: import, naming the module that asked for it", async () => {
    const outFile = join(dir, "out", "node.js");
    await expect(bundle({ entry: join(dir, "uses-node.ts"), outFile, baseUrl: "https://api.example.org" })).rejects.toThrow(
      /uses-node\.ts:1:\d+: ERROR: Could not resolve "node:fs"/,
    );
    expect(existsSync(outFile)).toBe(false);
  });
});
