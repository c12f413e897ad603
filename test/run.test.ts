/**
 * Scripts run from their bundles (scripts/run.mjs, as `npm run build` runs the build): each module
 * sees its own source file as `import.meta`, the script sees itself as the one run with its
 * arguments, and the bundle is kept while its inputs are unchanged, for the checkout it was made in.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "maqam-run-"));
const entry = join(dir, `${basename(dir)}.ts`);
const bundle = join(root, "node_modules", ".cache", "build-threads", `${basename(dir)}.script.mjs`);

afterAll(() => {
  for (const made of [bundle, `${bundle}.inputs.json`, dir]) rmSync(made, { recursive: true, force: true });
});

/** Written a minute back: a file written just before its bundle is not trusted to be what it read. */
const writePast = (file: string, text: string) => {
  writeFileSync(file, text);
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
};

const run = (...args: string[]) => execFileSync(process.execPath, ["scripts/run.mjs", ...args], { cwd: root, encoding: "utf8" });

describe("a script run from its bundle", () => {
  writePast(join(dir, "dependency.ts"), "export const where = { dirname: import.meta.dirname, filename: import.meta.filename };\n");
  writePast(
    entry,
    `import { where } from "./dependency.ts";
const main = import.meta.url === \`file://\${process.argv[1]}\`;
console.log(JSON.stringify({ main, url: import.meta.url, dirname: import.meta.dirname, args: process.argv.slice(2), dependency: where }));
`,
  );

  it("sees its sources as import.meta, itself as the script run, and its arguments", () => {
    const seen = JSON.parse(run(entry, "--merge", "a b"));
    expect(seen).toEqual({
      main: true,
      url: pathToFileURL(entry).href,
      dirname: dir,
      args: ["--merge", "a b"],
      dependency: { dirname: dir, filename: join(dir, "dependency.ts") },
    });
  });

  it("keeps its bundle while the inputs are unchanged, and makes it again when one changes", () => {
    run(entry);
    const madeAt = statSync(bundle).mtimeMs;
    run(entry);
    expect(statSync(bundle).mtimeMs).toBe(madeAt);
    writePast(join(dir, "dependency.ts"), 'export const where = "moved";\n');
    expect(JSON.parse(run(entry)).dependency).toBe("moved");
  });

  it("runs a kept bundle by Node alone, without tsx's loader", () => {
    // Node alone cannot import TypeScript: the script says whether a TypeScript module imports where it runs.
    const probe = join(dir, `${basename(dir)}-probe.ts`);
    writePast(join(dir, "typed.ts"), "export const typed: boolean = true;\n");
    writePast(probe, 'const loads = await import(["./typed", "ts"].join(".")).then(() => true, () => false);\nconsole.log(JSON.stringify({ loads }));\n');
    const probeBundle = join(root, "node_modules", ".cache", "build-threads", `${basename(probe, ".ts")}.script.mjs`);
    try {
      run(probe);
      expect(statSync(probeBundle).isFile()).toBe(true);
      expect(JSON.parse(run(probe))).toEqual({ loads: false });
    } finally {
      for (const made of [probeBundle, `${probeBundle}.inputs.json`]) rmSync(made, { force: true });
    }
  });

  it("is not taken from another checkout sharing node_modules: the bundle names its sources by path", () => {
    // Two checkouts of the same files (a copy, a worktree), the script at the same place in each, node_modules (and the bundles kept there) shared.
    const script = `scripts/${basename(entry)}`;
    const checkouts = ["one", "two"].map((name) => join(dir, name));
    for (const checkout of checkouts) {
      mkdirSync(join(checkout, "scripts"), { recursive: true });
      for (const file of [
        "package.json",
        "package-lock.json",
        "tsconfig.json",
        "scripts/run.mjs",
        "scripts/keptKey.mjs",
        "scripts/threadBundle.ts",
        "scripts/keptOutputs.ts",
      ])
        cpSync(join(root, file), join(checkout, file));
      writePast(
        join(checkout, script),
        "console.log(JSON.stringify({ main: import.meta.url === `file://${process.argv[1]}`, dirname: import.meta.dirname }));\n",
      );
      symlinkSync(join(root, "node_modules"), join(checkout, "node_modules"));
    }
    const runIn = (checkout: string) => JSON.parse(execFileSync(process.execPath, ["scripts/run.mjs", script], { cwd: checkout, encoding: "utf8" }));
    for (const checkout of [...checkouts, checkouts[0]]) expect(runIn(checkout)).toEqual({ main: true, dirname: join(checkout, "scripts") });
  });

  it("says how it is used when not given a TypeScript script", () => {
    const refused = spawnSync(process.execPath, ["scripts/run.mjs"], { cwd: root, encoding: "utf8" });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^usage: node scripts\/run\.mjs <script\.ts> \[arguments\]/);
  });
});
