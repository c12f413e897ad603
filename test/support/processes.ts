/** Scripts of the repository run as real processes, with their output kept for assertions. */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DATA_DIR } from "../../src/data/load.js";

export const ROOT = resolve(import.meta.dirname, "..", "..");

export interface Running {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

/** `node --import tsx <script>` in the repository, with `env` added to this process's environment. */
export function runScript(script: string, env: Record<string, string>): Running {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const keep = (chunk: Buffer) => (printed += chunk.toString());
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | string>((done) => child.once("exit", (code, signal) => done(code ?? signal ?? "")));
  return { child, output: () => printed, exited };
}

/** A writable copy of data/ with one file rewritten by `corrupt` (given the parsed JSON). */
export function corruptedCopy(file: string, corrupt: (json: any) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "maqam-data-"));
  cpSync(DATA_DIR, dir, { recursive: true });
  const json = JSON.parse(readFileSync(join(dir, file), "utf8"));
  corrupt(json);
  writeFileSync(join(dir, file), JSON.stringify(json));
  return dir;
}

/** Polls `ready` every 50 ms until it holds; throws after `ms`. */
export async function until(ready: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
