import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeSection, writeSections } from "../scripts/benchDoc.js";

const DOC = [
  "# Benchmarks",
  "",
  "Machine: old.",
  "",
  "## Build",
  "",
  "old build figures",
  "",
  "### Rendering hot spots",
  "",
  "written by hand",
  "",
  "## Build against the code of 2026-11-24",
  "",
  "old peer figures",
  "",
  "### Peak memory by phase",
  "",
  "also by hand",
  "",
].join("\n");

describe("docs/benchmarks.md written by the benches", () => {
  const dirs: string[] = [];
  const doc = () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-doc-"));
    dirs.push(dir);
    const file = join(dir, "benchmarks.md");
    writeFileSync(file, DOC);
    return file;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("replaces a bench's own text and keeps the subsections written by hand after it", () => {
    const file = doc();
    writeSection("## Build against the code of 2026-11-24", "## Build against the code of 2026-11-24\n\nnew peer figures\n", file);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("new peer figures\n\n### Peak memory by phase\n\nalso by hand");
    expect(text).not.toContain("old peer figures");
    // "## Build" is another section, untouched.
    expect(text).toContain("## Build\n\nold build figures\n\n### Rendering hot spots\n\nwritten by hand");
  });

  it("writes the opening and several sections at once, keeping what the others wrote", () => {
    const file = doc();
    writeSections("# Benchmarks\n\nMachine: new.\n\n## Build\n\nnew build figures\n\n## Static tree\n\ntree figures\n", file);
    // The opening and "## Build"'s own text replaced, the hand-written subsections kept, "## Static tree" appended.
    const expected = `${DOC.replace("Machine: old.", "Machine: new.").replace("old build figures", "new build figures")}\n## Static tree\n\ntree figures\n`;
    expect(readFileSync(file, "utf8")).toBe(expected);
  });

  it("refuses a bench's text holding a subsection, which a later write would keep twice", () => {
    const file = doc();
    expect(() => writeSection("## Build", "## Build\n\nfigures\n\n### A subsection\n", file)).toThrow(/subsection/);
    expect(readFileSync(file, "utf8")).toBe(DOC);
  });
});
