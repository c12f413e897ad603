/**
 * Starts build/_worker.js in the runtimes it is deployed to, on loopback: workerd (Cloudflare's
 * runtime), with or without an assets service serving a build directory as `env.ASSETS`, and
 * `deno serve`. Used by the runtime tests and by `npm run bench`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./freePort.js";

const bin = (name: string) => resolve(import.meta.dirname, "..", "node_modules", ".bin", name);

export interface RunningRuntime {
  origin: string;
  /** What the runtime printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/** Why a runtime's binary cannot run here, or undefined when it can. */
export function unavailable(runtime: "workerd" | "deno"): string | undefined {
  const r = spawnSync(bin(runtime), ["--version"], { encoding: "utf8", timeout: 20_000 });
  if (r.error) return `${runtime} could not be started: ${r.error.message}`;
  return r.status === 0 ? undefined : `${runtime} --version exited ${r.status}: ${r.stderr.trim()}`;
}

/** Waits until the server answers at all (any status), or fails with what it printed. */
async function started(child: ChildProcess, origin: string, output: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before answering:\n${output()}`);
    try {
      await fetch(`${origin}/api`, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`did not answer within ${timeoutMs} ms:\n${output()}`);
}

async function run(command: string, args: string[], port: number, env: NodeJS.ProcessEnv, cleanup: () => void): Promise<RunningRuntime> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let printed = "";
  const keep = (chunk: Buffer) => (printed = (printed + chunk.toString()).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    }
    cleanup();
  };
  try {
    await started(child, origin, () => printed);
  } catch (e) {
    await stop();
    throw new Error(`${command}: ${(e as Error).message}`);
  }
  return { origin, output: () => printed, stop };
}

/**
 * A workerd configuration (Cap'n Proto text) for one module worker, ASSETS bound to a directory
 * when given. `script` is embedded by a path relative to the configuration file.
 */
export function workerdConfig(script: string, port: number, assetsDir?: string): string {
  const services = [`(name = "main", worker = .worker)`];
  const bindings: string[] = [];
  if (assetsDir) {
    // workerd's disk service answers GET /<path> with the file at <dir>/<path>, 404 otherwise.
    services.push(`(name = "assets", disk = (path = ${JSON.stringify(resolve(assetsDir))}, writable = false))`);
    bindings.push(`(name = "ASSETS", service = "assets")`);
  }
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [${services.join(", ")}],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed ${JSON.stringify(script)})],
  compatibilityDate = "2025-09-01",
  bindings = [${bindings.join(", ")}],
);
`;
}

export async function startWorkerd({ script, assetsDir }: { script: string; assetsDir?: string }): Promise<RunningRuntime> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "maqam-workerd-"));
  const config = join(dir, "config.capnp");
  copyFileSync(script, join(dir, "worker.js"));
  writeFileSync(config, workerdConfig("worker.js", port, assetsDir));
  return run(bin("workerd"), ["serve", config], port, {}, () => rmSync(dir, { recursive: true, force: true }));
}

export async function startDeno({ script }: { script: string }): Promise<RunningRuntime> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "maqam-deno-"));
  // `deno serve` grants the listening socket itself; nothing else is allowed.
  return run(bin("deno"), ["serve", "--quiet", "--no-prompt", "--host", "127.0.0.1", "--port", String(port), resolve(script)], port, { DENO_DIR: dir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" }, () =>
    rmSync(dir, { recursive: true, force: true }),
  );
}
