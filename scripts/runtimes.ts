/**
 * Starts build/_worker.js in the runtimes it is deployed to, on loopback: workerd (Cloudflare's
 * runtime), with or without an assets service serving a build directory as `env.ASSETS`, and
 * `deno serve`. Used by the runtime tests, `npm run conformance` and `npm run bench`. Each server
 * runs in its own process group, which `stop()` kills, as does the exit of this process.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "./freePort.js";

export type Runtime = "workerd" | "deno";

/** The date a Cloudflare deployment pins; no compatibility flags: the worker uses web APIs only. */
export const COMPATIBILITY_DATE = "2025-09-01";
const READY_MS = 30_000;
const STOP_MS = 5_000;

const require = createRequire(import.meta.url);

/** The native binary the runtime's npm package brings for this platform (throws when there is none). */
export function binaryOf(runtime: Runtime): string {
  if (runtime === "workerd") return (require("workerd") as { default: string }).default;
  // The package's own resolver: it links the platform package's binary beside its bin script.
  return (require("deno/install_api.cjs") as { runInstall(): string }).runInstall();
}

/** Only what the runtimes need: no inherited secrets, no update checks, prompts or colours. */
const childEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  NO_COLOR: "1",
  DENO_NO_UPDATE_CHECK: "1",
  DENO_NO_PROMPT: "1",
  DENO_NO_PACKAGE_JSON: "1",
  ...extra,
});

/** Why `binary --version` does not run cleanly, or undefined when it does. */
export function versionFailure(binary: string): string | undefined {
  const run = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 20_000, env: childEnv() });
  if (run.error) return `${binary} --version failed: ${run.error.message}`;
  if (run.status !== 0) return `${binary} --version exited with ${run.status ?? run.signal}: ${run.stderr.trim()}`;
  return undefined;
}

const reasons = new Map<Runtime, string | undefined>();

/** Why a runtime cannot run here (no binary, or `--version` fails), or undefined when it can. */
export function unavailable(runtime: Runtime): string | undefined {
  if (!reasons.has(runtime)) {
    let binary: string | undefined;
    try {
      binary = binaryOf(runtime);
    } catch (e) {
      reasons.set(runtime, `no ${runtime} binary: ${(e as Error).message.trim().split("\n")[0]}`);
    }
    if (binary !== undefined) reasons.set(runtime, versionFailure(binary));
  }
  return reasons.get(runtime);
}

/** Resident set size of a process in MB (10^6 bytes), from /proc. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return (Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024) / 1e6;
}

export interface RunningRuntime {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The process that answers (its memory is the server's). */
  pid: number;
  /** What the runtime printed (the last 20 KB), for failure messages. */
  output: () => string;
  /** Kills the process group and removes the temporary files; safe to call twice. */
  stop: () => Promise<void>;
}

const running = new Set<ChildProcess>();
const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Gone already.
  }
};
process.once("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

/** Starts `command args` in its own process group in `dir`, and resolves once the origin answers HTTP at all. */
async function run(
  name: string,
  command: string,
  args: string[],
  port: number,
  dir: string,
  env: NodeJS.ProcessEnv,
  readyMs = READY_MS,
): Promise<RunningRuntime> {
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(command, args, { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let printed = "";
  const keep = (chunk: Buffer) => (printed = (printed + chunk.toString()).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let ended: string | undefined;
  const exited = new Promise<void>((done) => {
    child.once("error", (e) => {
      ended = `could not be started: ${e.message}`;
      done();
    });
    child.once("exit", (code, signal) => {
      ended = `exited (${signal ?? `code ${code}`})`;
      done();
    });
  });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (ended === undefined) {
        killGroup(child, "SIGTERM");
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), STOP_MS);
        await exited;
        clearTimeout(timer);
      }
      running.delete(child);
      rmSync(dir, { recursive: true, force: true });
    })());

  const deadline = Date.now() + readyMs;
  while (ended === undefined && Date.now() < deadline) {
    try {
      const probe = await fetch(`${origin}/api`, { signal: AbortSignal.timeout(1000) });
      await probe.body?.cancel();
      return { origin, pid: child.pid!, output: () => printed, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const why = ended ?? `did not answer within ${readyMs / 1000} s`;
  await stop();
  throw new Error(`${name} ${why}: ${args.join(" ")}\n${printed.trim()}`);
}

/**
 * The assets service of the workerd configuration, a worker over workerd's disk service (which
 * answers every file as `application/octet-stream`, a missing path 404, a directory a JSON
 * listing): it gives a file the type Cloudflare's assets give its extension, as the worker's
 * guard (src/serve/worker.ts) expects, and passes anything else on as it is.
 */
export const ASSETS_TYPES_WORKER = `const TYPES = { json: "application/json", html: "text/html; charset=utf-8", js: "application/javascript", css: "text/css" };
export default {
  async fetch(request, env) {
    const response = await env.DISK.fetch(request);
    const extension = /\\.([a-z]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (response.status !== 200 || extension === undefined) return response;
    const headers = new Headers(response.headers);
    headers.set("Content-Type", TYPES[extension] ?? "application/octet-stream");
    return new Response(response.body, { status: 200, headers });
  },
};
`;

/**
 * A workerd configuration (Cap'n Proto text) for one module worker, `script` embedded by a path
 * relative to the configuration file. With `assetsDir`, `env.ASSETS` is workerd's disk service
 * over it behind ASSETS_TYPES_WORKER (embedded from `assets.js` beside the configuration): GET
 * /<path> answers the file <dir>/<path> (percent-escapes decoded, dot-files refused) with its
 * type, a missing path 404, a directory a JSON listing (no index file). So the worker asks ASSETS
 * for `<origin>/api/<file>` with the build directory as `assetsDir`.
 */
export function workerdConfig(script: string, port: number, assetsDir?: string, v8Flags: readonly string[] = []): string {
  const services = [`(name = "main", worker = .worker)`];
  const bindings: string[] = [];
  if (assetsDir) {
    services.push(`(name = "disk", disk = (path = ${JSON.stringify(resolve(assetsDir))}, writable = false))`);
    services.push(`(name = "assets", worker = .assets)`);
    bindings.push(`(name = "ASSETS", service = "assets")`);
  }
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [${services.join(", ")}],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
  v8Flags = [${v8Flags.map((f) => JSON.stringify(f)).join(", ")}],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed ${JSON.stringify(script)})],
  compatibilityDate = ${JSON.stringify(COMPATIBILITY_DATE)},
  bindings = [${bindings.join(", ")}],
);
${
  assetsDir
    ? `const assets :Workerd.Worker = (
  modules = [(name = "assets", esModule = embed "assets.js")],
  compatibilityDate = ${JSON.stringify(COMPATIBILITY_DATE)},
  bindings = [(name = "DISK", service = "disk")],
);
`
    : ""
}`;
}

/** `v8Flags`: V8 flags for the whole process, e.g. a heap bound such as a host puts on an isolate. */
export async function startWorkerd({
  script,
  assetsDir,
  v8Flags,
}: {
  script: string;
  assetsDir?: string;
  v8Flags?: readonly string[];
}): Promise<RunningRuntime> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "maqam-workerd-"));
  copyFileSync(script, join(dir, "worker.js"));
  writeFileSync(join(dir, "assets.js"), ASSETS_TYPES_WORKER);
  writeFileSync(join(dir, "config.capnp"), workerdConfig("worker.js", port, assetsDir, v8Flags));
  return run("workerd", binaryOf("workerd"), ["serve", join(dir, "config.capnp")], port, dir, childEnv());
}

/**
 * Flags of `deno serve`: no permission flag at all, so the worker may listen on its own address
 * and nothing else (no other address, file, environment variable or subprocess); no configuration,
 * lock file, remote or npm module is looked for.
 */
export const DENO_SERVE_FLAGS = ["--quiet", "--no-prompt", "--no-config", "--no-lock", "--no-remote", "--no-npm"];

export async function startDeno({ script }: { script: string }): Promise<RunningRuntime> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "maqam-deno-"));
  mkdirSync(join(dir, "deno-dir"));
  const args = ["serve", ...DENO_SERVE_FLAGS, "--host", "127.0.0.1", "--port", String(port), resolve(script)];
  return run("deno", binaryOf("deno"), args, port, dir, childEnv({ DENO_DIR: join(dir, "deno-dir") }));
}

/**
 * Node flags of the API server (`npm start`, `npm run serve`, the benches). V8 otherwise lets its
 * heap grow into gigabytes before it collects, so a busy server's resident memory floats far above
 * what it keeps. The main thread computes nothing (its threads do, each with a heap bound of its
 * own, POOL_HEAP_MB): 256 MB holds its file cache and the answers in flight.
 */
export const NODE_SERVER_FLAGS = ["--max-old-space-size=256"];

/**
 * The Node server (src/serve/main.ts) serving `buildDir`, or with no build directory (every
 * answer computed): an empty temporary one.
 */
export async function startNodeServer({ buildDir }: { buildDir?: string } = {}): Promise<RunningRuntime> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "maqam-node-"));
  // node itself, not npm or tsx's wrapper: the process that answers is the one measured and stopped.
  // require.resolve, not import.meta.resolve: the test runner's module transform has no import.meta.resolve.
  const args = [...NODE_SERVER_FLAGS, "--import", pathToFileURL(require.resolve("tsx")).href, resolve(import.meta.dirname, "..", "src", "serve", "main.ts")];
  const env = childEnv({ PORT: String(port), HOST: "127.0.0.1", BUILD_DIR: buildDir ?? join(dir, "build") });
  return run("node", process.execPath, args, port, dir, env);
}

/** Cloudflare's local runtimes through wrangler: Pages (advanced mode, `_worker.js`) or Workers with static assets. */
export type WranglerMode = "pages" | "workers";

/** The wrangler configuration of Workers with static assets, relative to the repository root. */
export const WRANGLER_CONFIG = join("deploy", "cloudflare", "wrangler.toml");

/**
 * The README's local commands, run in a temporary directory laid out as the repository (`build`
 * a link to `buildDir`, the Workers configuration copied to deploy/cloudflare/):
 * `npx wrangler pages dev build` or `npx wrangler dev --config deploy/cloudflare/wrangler.toml`,
 * with only the address added. Offline: no telemetry, error reports or `Request.cf` download, and
 * wrangler's configuration, logs and state in the temporary directory; wrangler runs its own workerd.
 */
export function wranglerArgs(mode: WranglerMode, port: number): string[] {
  const address = ["--ip", "127.0.0.1", "--port", String(port)];
  return mode === "pages"
    ? ["pages", "dev", "build", "--compatibility-date", COMPATIBILITY_DATE, ...address]
    : ["dev", "--config", WRANGLER_CONFIG, ...address];
}

/** Wrangler reads the whole asset tree before it answers: a github-pages build holds over 160,000 files. */
const WRANGLER_READY_MS = 300_000;

const wranglerBin = () => resolve(dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

/** Why wrangler cannot run here (not installed, or `wrangler --version` fails), or undefined when it can. */
export function wranglerUnavailable(): string | undefined {
  let bin: string;
  try {
    bin = wranglerBin();
  } catch (e) {
    return `no wrangler: ${(e as Error).message.split("\n")[0]}`;
  }
  const run = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8", timeout: 60_000, env: childEnv({ WRANGLER_SEND_METRICS: "false" }) });
  if (run.error) return `wrangler --version failed: ${run.error.message}`;
  return run.status === 0 ? undefined : `wrangler --version exited with ${run.status ?? run.signal}: ${(run.stderr || run.stdout).trim().split("\n")[0]}`;
}

/** The temporary layout and environment of the README's wrangler commands (see wranglerArgs). */
function wranglerLayout(buildDir: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), "maqam-wrangler-"));
  symlinkSync(resolve(buildDir), join(dir, "build"), "dir");
  mkdirSync(join(dir, "deploy", "cloudflare"), { recursive: true });
  copyFileSync(resolve(import.meta.dirname, "..", WRANGLER_CONFIG), join(dir, WRANGLER_CONFIG));
  const env = childEnv({
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    WRANGLER_LOG_PATH: join(dir, "logs"),
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_HIDE_BANNER: "true",
  });
  return { dir, env };
}

export async function startWrangler({ mode, buildDir }: { mode: WranglerMode; buildDir: string }): Promise<RunningRuntime> {
  const port = await freePort();
  const { dir, env } = wranglerLayout(buildDir);
  return run(`wrangler (${mode})`, process.execPath, [wranglerBin(), ...wranglerArgs(mode, port)], port, dir, env, WRANGLER_READY_MS);
}

/**
 * `npx wrangler deploy --dry-run --config deploy/cloudflare/wrangler.toml` over `buildDir`: every
 * check of a deployment (configuration, bundle, the asset tree and what it may not publish) without
 * uploading. Its exit status and what it printed.
 */
export function wranglerDeployDryRun(buildDir: string): { status: number | null; output: string } {
  const { dir, env } = wranglerLayout(buildDir);
  try {
    const args = [wranglerBin(), "deploy", "--dry-run", "--config", WRANGLER_CONFIG, "--outdir", join(dir, "out")];
    const run = spawnSync(process.execPath, args, { cwd: dir, env, encoding: "utf8", timeout: 300_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}${run.error ? run.error.message : ""}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
