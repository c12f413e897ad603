import { describe, it, expect } from "vitest";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, statSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { countTree, listTree, sizeOfListing, treeSize } from "../scripts/treeSize.js";

describe("treeSize", () => {
  it("counts the bytes of the tar GNU tar writes for the tree (headers, long names, padding, records)", () => {
    const dir = mkdtempSync(join(tmpdir(), "maqam-tar-"));
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 300; i++) {
      // Names around the 100-byte limit, non-ASCII ones among them, and sizes around block edges.
      const folder = join(dir, "api", `route_${i % 9}`, "ā".repeat(next() % 40));
      mkdirSync(folder, { recursive: true });
      const name = `@startingNote=yegah&tuningSystem=${"x".repeat(next() % 90)}_${i}.json`;
      writeFileSync(join(folder, name), "y".repeat([0, 511, 512, 513, next() % 5000][i % 5]));
    }
    writeFileSync(join(dir, ".nojekyll"), "");
    const size = treeSize(dir);
    const tar = execFileSync("tar", ["--format=gnu", "-cf", "-", "-C", dir, "."], { maxBuffer: 64e6 });
    expect(size.files).toBe(301);
    expect(size.tarBytes).toBe(tar.length);
    expect(size.tarBytes).toBeGreaterThan(size.bytes + 301 * 512);
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists a tree from the sizes it is told, walking only the folders it is not told of, with the figures of a walk", () => {
    const dir = mkdtempSync(join(tmpdir(), "maqam-listing-"));
    const known = new Map<string, number>();
    const put = (path: string, text: string, told: boolean) => {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
      if (told) known.set(path, Buffer.byteLength(text));
    };
    for (let i = 0; i < 50; i++) put(`api/route_${i % 3}/entity_${i % 7}/deeper/${i}.json`, "z".repeat(i * 37), true);
    put("api/index.json", "{}", true);
    put("pictures/maqamat/rast/a.svg", "<svg/>", true);
    // Written by the finishing below a folder of known files' shape, and the site: walked.
    put("api/datasets/maqamat.csv", "a,b\n", false);
    put("api/datasets/index.json", "{}", true);
    // Rewritten there by another step since the caller recorded it: read again.
    known.set("api/datasets/index.json", 999);
    put("client/maqam-api.js", "export {}", false);
    put("index.html", "<!doctype html>", false);
    const walked = listTree(dir);
    const listed = listTree(dir, known, new Set(["api/datasets"]));
    expect(listed).toEqual(walked);
    expect(sizeOfListing(listed)).toEqual(treeSize(dir));
    expect(walked.folders).toContain("api/route_2/entity_6/deeper");
    // Counted rather than listed: the files the caller names in their cut are not held by name, and the figures are the walk's.
    const { listing, counted } = countTree(
      dir,
      (visit) => {
        for (const [path, bytes] of known) visit(path, bytes);
      },
      new Set(["api/datasets"]),
    );
    expect(sizeOfListing(listing, counted)).toEqual(treeSize(dir));
    expect(counted.files).toBe(51);
    expect([...listing.files.keys()].sort()).toEqual([
      "api/datasets/index.json",
      "api/datasets/maqamat.csv",
      "api/index.json",
      "client/maqam-api.js",
      "index.html",
    ]);
    expect(listing.folders).toEqual(walked.folders);
    // A known folder is not walked: a file the caller does not name there is not seen (it vouches there is none).
    put("api/route_0/stray.json", "{}", false);
    expect(listTree(dir, known, new Set(["api/datasets"])).files.has("api/route_0/stray.json")).toBe(false);
    expect(listTree(dir).files.get("api/route_0/stray.json")).toBe(statSync(join(dir, "api/route_0/stray.json")).size);
    rmSync(dir, { recursive: true, force: true });
  });
});
