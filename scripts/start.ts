/**
 * `npm start`: serves the API at once and, when build/ is missing, older than the sources, or
 * built for another address (links in the files must point at the server that serves them),
 * writes a new build beside it. Until the build is swapped in every answer is computed by the
 * same handler (same bytes); then the server answers from the files. A stale build is moved aside
 * with its cache, and the new build takes over from it what did not change (BUILD_PREVIOUS).
 */
import { existsSync, statSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { discard, recoverSwap, removeDiscarded } from "./swap.js";
import { NODE_SERVER_FLAGS } from "./runtimes.js";
import { cacheOf } from "./buildCache.js";

/** Where a stale build waits while the new one is written over it. */
export const asideOf = (buildDir: string) => `${buildDir}.stale`;

/**
 * Moves the build at `buildDir` and its cache aside (the server must not serve files that no
 * longer match the handler's answers), in place of any left there before (thrown away, see
 * scripts/swap.ts); returns where, for the build's `previousDir`.
 */
export function setAside(buildDir: string): string {
  const aside = asideOf(buildDir);
  for (const dir of [aside, cacheOf(aside)]) discard(buildDir, dir);
  renameSync(buildDir, aside);
  if (existsSync(cacheOf(buildDir))) renameSync(cacheOf(buildDir), cacheOf(aside));
  return aside;
}

/** Throws away the build set aside beside `buildDir`, and its cache, removed by a detached process. */
export function removeAside(buildDir: string): void {
  const aside = asideOf(buildDir);
  for (const dir of [aside, cacheOf(aside)]) discard(buildDir, dir);
  removeDiscarded(buildDir);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(import.meta.dirname, "..");
  const buildDir = resolve(root, process.env.BUILD_DIR ?? "build");
  const manifest = join(buildDir, "manifest.json");
  const dataDir = resolve(root, process.env.DATA_DIR ?? "data");

  function newestMtime(dir: string): number {
    let newest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
    }
    return newest;
  }

  const sourcesChanged = () => Math.max(...[join(root, "src"), dataDir, join(root, "scripts")].map(newestMtime)) > statSync(manifest).mtimeMs;

  const baseUrl = (process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
  const builtForAnotherAddress = () => JSON.parse(readFileSync(manifest, "utf8")).baseUrl !== baseUrl;

  const env = { ...process.env, BASE_URL: baseUrl, BUILD_DIR: buildDir, DATA_DIR: dataDir };
  const run = (script: string, flags: readonly string[] = [], extra: NodeJS.ProcessEnv = {}, args: readonly string[] = []): ChildProcess =>
    // A TypeScript script through tsx's loader; the build's launcher (scripts/run.mjs) by Node alone.
    spawn(process.execPath, [...flags, ...(script.endsWith(".ts") ? ["--import", "tsx"] : []), join(root, script), ...args], {
      stdio: "inherit",
      cwd: root,
      env: { ...env, ...extra },
    });

  // A build killed between the renames of its swap left the previous one aside: it serves again.
  if (recoverSwap(buildDir)) console.log("build/ put back: the last build was stopped while swapping in");
  const stale = existsSync(manifest) && (sourcesChanged() || builtForAnotherAddress());
  // A stale build's files no longer match what the handler answers: computed answers stand in until the new one.
  // One left aside by a start stopped before its build finished is built over, or removed when build/ is up to date.
  const left = existsSync(asideOf(buildDir)) ? asideOf(buildDir) : undefined;
  const aside = stale ? setAside(buildDir) : left;
  const server = run("src/serve/main.ts", NODE_SERVER_FLAGS);
  let builder: ChildProcess | undefined;
  if (!existsSync(manifest)) {
    console.log(`build/ ${stale ? "is stale: building over it" : "is missing"}: answering from the handler while it is written`);
    builder = run("scripts/run.mjs", [], aside ? { BUILD_PREVIOUS: aside } : {}, ["scripts/build.ts"]);
    builder.on("exit", (code) => {
      console.log(code === 0 ? "build swapped in: pre-rendered files are served from now on" : `build failed (exit ${code}); answers stay computed`);
      // A build that failed or was stopped leaves the aside for the next start to build over.
      if (aside && code === 0) removeAside(buildDir);
    });
  } else {
    console.log("build/ is up to date");
    if (aside) removeAside(buildDir);
  }

  const stop = (signal: NodeJS.Signals) => {
    builder?.kill(signal);
    server.kill(signal);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  server.on("exit", (code) => {
    builder?.kill("SIGTERM");
    process.exit(code ?? 0);
  });
}
