/**
 * The datasets' database built alone (part of `npm run bench`, or alone:
 * `tsx scripts/bench-database.ts [--write]`): the datasets of data/ written once into a directory
 * of their own (their slices kept there), then the database built from those slices on a thread of
 * one task, as the build builds it, begun without a file (the peer) and on an empty file with room
 * for the first's size (scripts/sqliteImage.ts, as a build begins it),
 * one after the other, ROUNDS times each. Wall time, the process's CPU time and its minor page
 * faults (the thread's, nothing else runs) for each; every database must have the same bytes.
 * Prints a Markdown section, or with `--write` puts it into docs/benchmarks.md.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFacts } from "../src/data/load.js";
import { createCatalog } from "../src/theory/catalog.js";
import { loadAverage, machineText, writeSection } from "./benchDoc.js";
import { databaseBytesIn, writeDatasets } from "./datasets.js";
import { sliceKeys } from "./datasetSlices.js";
import { startApart } from "./datasetsPool.js";
import { boundHeapGrowth } from "./heap.js";
import { engineDigest } from "./sliceHash.js";

const ROUNDS = 3;
const HEADING = "## Database build";

interface Run {
  begun: "empty" | "room";
  seconds: number;
  cpuSeconds: number;
  faults: number;
  sha256: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (import.meta.url === `file://${process.argv[1]}`) {
  // As the build does: every thread's heap grows by half what survives.
  boundHeapGrowth();
  const work = mkdtempSync(join(tmpdir(), "maqam-bench-database-"));
  try {
    const catalog = createCatalog(readFacts(), "build");
    const engine = engineDigest();
    const slices = join(work, "slices");
    await writeDatasets(join(work, "api"), catalog, { slices: { into: slices }, engine });
    const bytes = databaseBytesIn(join(work, "api"));
    const keys = [...sliceKeys(catalog, engine)];
    const runs: Run[] = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const begun of ["empty", "room"] as const) {
        const file = join(work, `database-${round}-${runs.length}.sqlite`);
        const thread = startApart(catalog.facts);
        const [cpu, faults, started] = [process.cpuUsage(), process.resourceUsage().minorPageFault, performance.now()];
        await thread.run({ kind: "database", keys, dir: slices, file, sizeHint: begun === "empty" ? 0 : bytes });
        const seconds = (performance.now() - started) / 1000;
        const used = process.cpuUsage(cpu);
        const sha256 = createHash("sha256").update(readFileSync(file)).digest("hex");
        runs.push({ begun, seconds, cpuSeconds: (used.user + used.system) / 1e6, faults: process.resourceUsage().minorPageFault - faults, sha256 });
        rmSync(file);
        console.error(`bench-database: begun on ${begun}: ${seconds.toFixed(2)} s`);
      }
    const same = runs.every((r) => r.sha256 === runs[0].sha256);
    const of = (begun: Run["begun"], pick: (r: Run) => number) => median(runs.filter((r) => r.begun === begun).map(pick));
    const ratio = of("room", (r) => r.seconds) / of("empty", (r) => r.seconds);
    const ratioText = `${ratio.toFixed(2)}×`;
    const section = [
      HEADING,
      "",
      `Measured by \`npx tsx scripts/bench-database.ts --write\` (part of \`npm run bench\`) on ${machineText()}; load average when it ended ${loadAverage()} (1 / 5 / 15 min). The datasets of data/ written once (their slices kept in a directory of their own), then the database (${(bytes / 1e6).toFixed(1)} MB) built from those slices on a thread of one task as the build builds it, begun without a file (the peer) and on an empty file with room for the first's size (scripts/sqliteImage.ts: a build begins on the previous build's size, or an estimate from the slices), one after the other, ${ROUNDS} times each. CPU time and minor page faults are the process's while the thread ran (nothing else ran).`,
      "",
      "| begun on | wall time | CPU time | minor page faults |",
      "|---|---:|---:|---:|",
      ...runs.map((r) => `| ${r.begun} | ${r.seconds.toFixed(2)} s | ${r.cpuSeconds.toFixed(2)} s | ${r.faults.toLocaleString("en-US")} |`),
      "",
      `Medians: begun empty ${of("empty", (r) => r.seconds).toFixed(2)} s, ${of("empty", (r) => r.cpuSeconds).toFixed(2)} s of CPU, ${of("empty", (r) => r.faults).toLocaleString("en-US")} faults; with room ${of("room", (r) => r.seconds).toFixed(2)} s, ${of("room", (r) => r.cpuSeconds).toFixed(2)} s of CPU, ${of("room", (r) => r.faults).toLocaleString("en-US")} faults: ${ratio < 1 ? ratioText : `**${ratioText}: not faster than the peer** (expected below 1×: sql.js no longer copies the file as it grows)`} of the peer's time.`,
      "",
      same
        ? `Every database the same bytes (SHA-256 ${runs[0].sha256.slice(0, 16)}…): SQLite writes each page where a growing file would have it, whatever room the file had (test/sqliteImage.test.ts, test/datasetsCache.test.ts).`
        : "**The databases differ**: begun on a file with room, the database must have the bytes of one begun without.",
      "",
    ].join("\n");
    if (process.argv.includes("--write")) writeSection(HEADING, section);
    else console.log(section);
    if (!same) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
