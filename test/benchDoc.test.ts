import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, freemem, tmpdir } from "node:os";
import { Worker } from "node:worker_threads";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { busyShare, tmpText, writeSection, writeSections } from "../scripts/benchDoc.js";
import { BUSY_SHARE, otherWork, SCARCE_MEMORY_BYTES, scarceMemory, settledText, type BuildRun } from "../scripts/benchBuild.js";

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

const run = (busyBefore: number | undefined, availableBefore = 20e9): BuildRun => ({
  what: "b",
  wallSeconds: 1,
  seconds: 1,
  maxRssBytes: 1,
  loadBefore: "2.9 / 2.0 / 1.0",
  busyBefore,
  availableBefore,
  said: "",
});

describe("the machine's other work before a build", () => {
  it("counts a core kept busy while the bench waits", async () => {
    // A thread spinning for longer than the sample: one core of the machine's, at least, busy throughout.
    const spinner = new Worker("const end = Date.now() + 1500; while (Date.now() < end);", { eval: true });
    await new Promise((started) => spinner.once("online", started));
    const share = await busyShare(1000);
    await new Promise((ended) => spinner.once("exit", ended));
    expect(share).toBeGreaterThanOrEqual(0.9 / availableParallelism());
    expect(share).toBeLessThanOrEqual(1);
  });

  it("names the busiest moment before the builds only when it passes the share", () => {
    expect(otherWork([run(0.02), run(undefined), run(BUSY_SHARE)])).toBeUndefined();
    expect(otherWork([run(0.02), run(0.431), run(0.3)])).toBe(43);
  });

  it("says the caches were dropped only when they were before every build", () => {
    const settled = (cachesDropped: boolean | undefined) => ({ ...run(0), cachesDropped });
    expect(settledText([settled(true), settled(true)])).toContain("caches dropped, so that each starts from an empty cache");
    for (const runs of [
      [settled(true), settled(false)],
      [settled(true), settled(undefined)],
    ])
      expect(settledText(runs)).toContain("**the caches could not be dropped**");
  });

  it("names the least memory available when a build started only when it is short of the scarce bound", () => {
    expect(scarceMemory([run(0, 22e9), run(0, SCARCE_MEMORY_BYTES)])).toBeUndefined();
    expect(scarceMemory([run(0, 22e9), run(0, 1.2e9), run(0, 3e9)])).toBe(1.2e9);
  });

  it("reads the memory available as the kernel counts it (MemAvailable in /proc/meminfo)", () => {
    const kib = Number(/^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync("/proc/meminfo", "utf8"))?.[1]);
    // Read a moment apart, while other tests allocate: within 5 % or 256 MB of each other.
    expect(Math.abs(freemem() - kib * 1024)).toBeLessThan(Math.max(0.05 * kib * 1024, 256e6));
  });

  it("names the temporary directory and the file system that holds it, as /proc/mounts lists it", () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-doc-"));
    try {
      const mounts = readFileSync("/proc/mounts", "utf8")
        .split("\n")
        .map((line) => line.split(" "));
      // The mount with the longest path above the directory; "/" holds everything else.
      const holding = mounts.filter(([, at]) => at === "/" || dir.startsWith(`${at}/`)).sort(([, a], [, b]) => b.length - a.length)[0];
      expect(tmpText(dir)).toBe(`\`${dir}\` (${holding[2]})`);
      expect(tmpText("/proc/self")).toBe("`/proc/self` (proc)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
