/**
 * The site made before the rendering (scripts/site.ts siteAside) and placed into the tree once its
 * digest is known (placeSite): the bytes buildSite writes for that digest, file for file.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { ASIDE_DIGEST, buildSite, placeSite, siteAside } from "../scripts/site.js";

const dir = mkdtempSync(join(tmpdir(), "maqam-site-aside-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const filesOf = (root: string): Map<string, Buffer> =>
  new Map(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => [relative(root, join(d.parentPath, d.name)), readFileSync(join(d.parentPath, d.name))]),
  );

describe("a site made aside and placed", () => {
  it("is the site made for its digest, and its folder is gone", async () => {
    const catalog = createCatalog(readFacts(), "build");
    const baseUrl = "http://127.0.0.1:3000";
    const digest = "3f".repeat(32);
    const aside = await siteAside(join(dir, "aside"), baseUrl, catalog);
    const placed = placeSite(aside, join(dir, "placed"), digest);
    mkdirSync(join(dir, "made"));
    const made = await buildSite({ outDir: join(dir, "made"), baseUrl, digest, catalog });
    expect(placed).toEqual(made);
    const [placedFiles, madeFiles] = [filesOf(join(dir, "placed")), filesOf(join(dir, "made"))];
    expect([...placedFiles.keys()].sort()).toEqual([...madeFiles.keys()].sort());
    for (const [path, bytes] of madeFiles) expect(placedFiles.get(path)?.equals(bytes), path).toBe(true);
    expect(readFileSync(join(dir, "placed", "sw.js"), "utf8")).toContain(`maqam-${digest}`);
    expect(readFileSync(join(dir, "placed", "sw.js"), "utf8")).not.toContain(ASIDE_DIGEST);
    expect(() => readdirSync(aside.dir)).toThrow();
  });

  it("refuses a version of another length", async () => {
    const aside = { dir: join(dir, "none"), summary: { files: 0, bytes: 0, client: { client: 0, engine: 0 } } };
    expect(() => placeSite(aside, join(dir, "other"), "abc")).toThrow(/must be 64 characters, not 3/);
  });
});
