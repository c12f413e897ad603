/**
 * The threads' bundles kept between builds (scripts/threadBundle.ts): a build whose inputs did not
 * change uses the bundle as it is; an input changed, even back to bytes an earlier bundle was made
 * from, or the bundle replaced, makes it again. Each step in a process of its own, as builds are (a process makes a bundle
 * once).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "maqam-thread-bundle-"));
const entry = join(dir, `${basename(dir)}.ts`);
const dependency = join(dir, "dependency.ts");
const module = pathToFileURL(join(root, "scripts", "threadBundle.ts")).href;

/** The bundle's path, as a build in a process of its own makes or keeps it. */
const bundled = () =>
  fileURLToPath(
    execFileSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `import { threadEntry } from ${JSON.stringify(module)}; console.log(threadEntry(${JSON.stringify(entry)}).href);`,
      ],
      { cwd: root, encoding: "utf8" },
    ).trim(),
  );

/** Writes the dependency, dated a minute back (a file written just before a bundle is not trusted to be what it read). */
const depend = (word: string) => {
  writeFileSync(dependency, `export const word: string = ${JSON.stringify(word)};\n`);
  const past = new Date(Date.now() - 60_000);
  utimesSync(dependency, past, past);
};

afterAll(() => {
  const file = join(root, "node_modules", ".cache", "build-threads", `${basename(dir)}.mjs`);
  for (const made of [file, `${file}.inputs.json`, dir]) rmSync(made, { recursive: true, force: true });
});

describe("the threads' bundles", () => {
  writeFileSync(entry, `import { word } from "./dependency.ts";\nconsole.log(word);\n`);
  const past = new Date(Date.now() - 60_000);
  utimesSync(entry, past, past);

  it("are made from their inputs, kept while they are unchanged, and made again when one changes", () => {
    depend("first");
    const file = bundled();
    expect(readFileSync(file, "utf8")).toContain('"first"');
    const record = JSON.parse(readFileSync(`${file}.inputs.json`, "utf8")) as { key: string; inputs: string[] };
    expect(record.inputs.map((input) => basename(input)).sort()).toEqual([basename(entry), "dependency.ts"].sort());
    const madeAt = statSync(file).mtimeMs;

    // Unchanged: the same file, not written again.
    expect(bundled()).toBe(file);
    expect(statSync(file).mtimeMs).toBe(madeAt);

    // Replaced by another writer (a build of other code sharing node_modules): made again.
    writeFileSync(file, "console.log('another bundle');\n");
    expect(readFileSync(bundled(), "utf8")).toContain('"first"');

    depend("second");
    expect(readFileSync(bundled(), "utf8")).toContain('"second"');
  });

  it("are not kept from an input written as they are made, even when its bytes come back", () => {
    depend("first");
    expect(readFileSync(bundled(), "utf8")).toContain('"first"');
    // Written just now: the bundle is made, but not recorded as made from these bytes.
    writeFileSync(dependency, `export const word: string = "third";\n`);
    const file = bundled();
    expect(readFileSync(file, "utf8")).toContain('"third"');
    expect(() => statSync(`${file}.inputs.json`)).toThrow();
    // Back to the first bytes: made again, not the bundle of "third" under the first record.
    depend("first");
    expect(readFileSync(bundled(), "utf8")).toContain('"first"');
  });
});
