/**
 * Headless Chromium (Debian's package) over a build served by a plain static server (`serve`, no
 * fallback), on loopback: for the browser tests and `npm run bench`. Chromium runs with a fresh
 * profile and without any background networking (this machine reaches no outside host).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { freePort } from "./freePort.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Why Chromium cannot be used here, or undefined when it can. */
export const chromiumMissing = (): string | undefined =>
  existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

export interface Running {
  origin: string;
  stop: () => Promise<void>;
}

const require = createRequire(import.meta.url);
const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const c of live) c.kill("SIGKILL");
});

/** `serve <dir>` on 127.0.0.1 (it reads the build's serve.json), ready when it answers. */
export async function startStatic(dir: string): Promise<Running> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [require.resolve("serve/build/main.js"), "-n", "-L", "-l", `tcp://127.0.0.1:${port}`, dir], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  live.add(child);
  let printed = "";
  child.stderr!.on("data", (c: Buffer) => (printed = (printed + c.toString()).slice(-5000)));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    live.delete(child);
  };
  for (const deadline = Date.now() + 20_000; Date.now() < deadline && child.exitCode === null; ) {
    const ok = await fetch(`${origin}/manifest.json`).then(
      (r) => (r.body?.cancel(), true),
      () => false,
    );
    if (ok) return { origin, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`serve did not start on ${origin}: ${printed}`);
}

/** A headless Chromium with a new, empty profile, removed on stop. */
export async function launchChromium(): Promise<{ context: BrowserContext; stop: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "maqam-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    context,
    stop: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
