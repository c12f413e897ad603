import { describe, it, expect } from "vitest";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { treeSize } from "../scripts/treeSize.js";

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
});
