/**
 * The swap of a build directory (scripts/swap.ts): a process killed at any point leaves a whole
 * build at `<dir>`, and what is thrown away is removed by detached processes the build does not
 * wait for, several of which may share the trash.
 */
import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { discard, oldOf, partialOf, prepareSwap, recoverSwap, removeDiscarded, removeTrash, swapIn, trashOf } from "../scripts/swap.js";
import { ROOT, until } from "./support/processes.js";

let root: string;
let dir: string;

/** A build of `files` files in nested folders, its manifest saying `name`. */
function aBuild(path: string, name: string, files = 40) {
  for (let i = 0; i < files; i++) {
    const folder = join(path, "api", `route_${i % 7}`, `entity_${i % 13}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file_${i}.json`), `${name} ${i}`);
  }
  writeFileSync(join(path, "manifest.json"), name);
}
const manifest = () => readFileSync(join(dir, "manifest.json"), "utf8");
const trashed = () => (existsSync(trashOf(dir)) ? readdirSync(trashOf(dir)) : []);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "maqam-swap-"));
  dir = join(root, "build");
  aBuild(dir, "previous");
});
afterEach(async () => {
  // A remover started by a test finishes before the folder goes.
  await until(() => !existsSync(trashOf(dir)), 60_000, `${trashOf(dir)} removed`);
  rmSync(root, { recursive: true, force: true });
});

describe("a swap", () => {
  it("puts the new build in place and the previous one into the trash, removed by a detached process", async () => {
    aBuild(partialOf(dir), "new");
    swapIn(dir);
    expect(manifest()).toBe("new");
    expect(existsSync(oldOf(dir))).toBe(false);
    expect(existsSync(partialOf(dir))).toBe(false);
    expect(trashed()).toEqual([expect.stringMatching(/^build\.old-\d+-\d+-\d+$/)]);
    expect(removeDiscarded(dir)).toBe(true);
    await until(() => !existsSync(trashOf(dir)), 60_000, "the trash removed");
    expect(readdirSync(root)).toEqual(["build"]);
    expect(removeDiscarded(dir)).toBe(false);
  });

  it("killed between its renames, leaves the previous build whole beside, put back before the next build", () => {
    aBuild(partialOf(dir), "new");
    renameSync(dir, oldOf(dir));
    expect(prepareSwap(dir)).toBe(partialOf(dir));
    expect(manifest()).toBe("previous");
    expect(existsSync(partialOf(dir))).toBe(false);
    expect(recoverSwap(dir)).toBe(false);
    // The unfinished new tree is garbage: thrown away, not removed while the next build waits.
    expect(trashed()).toEqual([expect.stringMatching(/^build\.partial-/)]);
    removeTrash(trashOf(dir));
  });

  it("killed after its second rename, leaves the new build in place and the previous one thrown away by the next build", () => {
    aBuild(partialOf(dir), "new");
    renameSync(dir, oldOf(dir));
    renameSync(partialOf(dir), dir);
    prepareSwap(dir);
    expect(manifest()).toBe("new");
    expect(existsSync(oldOf(dir))).toBe(false);
    expect(trashed()).toEqual([expect.stringMatching(/^build\.old-/)]);
    removeTrash(trashOf(dir));
  });

  it("gives each tree thrown away a name of its own, and discards nothing when there is nothing", () => {
    for (const name of ["a", "b"]) {
      aBuild(oldOf(dir), name);
      expect(discard(dir, oldOf(dir))).toBe(true);
    }
    expect(discard(dir, oldOf(dir))).toBe(false);
    const names = trashed();
    expect(names).toHaveLength(2);
    expect(names.map((n) => readFileSync(join(trashOf(dir), n, "manifest.json"), "utf8")).sort()).toEqual(["a", "b"]);
    removeTrash(trashOf(dir));
    expect(existsSync(trashOf(dir))).toBe(false);
  });
});

describe("removing the trash", () => {
  it("finishes a tree a remover stopped half way left (files and folders already gone)", () => {
    aBuild(oldOf(dir), "old", 300);
    discard(dir, oldOf(dir));
    const [entry] = trashed();
    // What a remover killed half way leaves: some files unlinked, a folder of them removed whole.
    rmSync(join(trashOf(dir), entry, "api", "route_0"), { recursive: true });
    unlinkSync(join(trashOf(dir), entry, "manifest.json"));
    removeTrash(trashOf(dir));
    expect(existsSync(trashOf(dir))).toBe(false);
  });

  it("is shared by two removers working at once, both finishing without error", async () => {
    for (let i = 0; i < 3; i++) {
      aBuild(oldOf(dir), `old ${i}`, 4000);
      discard(dir, oldOf(dir));
    }
    // The process removeDiscarded starts, twice at once (not detached, so that their exits are seen).
    const removers = [0, 1].map(
      () =>
        new Promise<number | null>((done) =>
          spawn(process.execPath, ["--import", "tsx", "scripts/swap.ts", trashOf(dir)], { cwd: ROOT, stdio: "inherit" }).once("exit", done),
        ),
    );
    expect(await Promise.all(removers)).toEqual([0, 0]);
    expect(existsSync(trashOf(dir))).toBe(false);
  }, 120_000);
});
