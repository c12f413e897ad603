/**
 * `npm run serve` as an operator meets it: a port it cannot take is one sentence and exit code 1;
 * SIGTERM lets the answers in flight finish before the process exits.
 */
import { describe, it, expect } from "vitest";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { request } from "node:http";
import { resolve } from "node:path";
import { freePort } from "../scripts/freePort.js";
import { NODE_SERVER_FLAGS } from "../scripts/runtimes.js";
import { listenFailure } from "../src/serve/listenFailure.js";

const MAIN = resolve(import.meta.dirname, "..", "src", "serve", "main.ts");

function serve(env: Record<string, string>) {
  const child = spawn(process.execPath, [...NODE_SERVER_FLAGS, "--import", "tsx", MAIN], {
    env: { PATH: process.env.PATH, BUILD_DIR: "/nonexistent", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c));
  child.stderr.on("data", (c: Buffer) => (stderr += c));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const ready = async () => {
    while (!stdout.includes("Maqam archive at")) {
      if (child.exitCode !== null) throw new Error(`exited: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, ready, output: () => ({ stdout, stderr }) };
}

describe("a port the server cannot take", () => {
  it("in use: one line naming the port and PORT, exit code 1", async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(port, "127.0.0.1", r));
    try {
      const run = serve({ PORT: String(port) });
      expect(await run.exited).toBe(1);
      const lines = run
        .output()
        .stderr.split("\n")
        .filter((l) => l.trim() !== "" && !l.startsWith("npm warn"));
      expect(lines).toEqual([`cannot listen on 127.0.0.1 port ${port}: it is already in use; set PORT to a free port (e.g. PORT=${port + 1} npm start)`]);
    } finally {
      holder.close();
    }
  }, 60_000);

  it("not permitted, or not an address of this machine: a sentence naming the port and what to set", () => {
    const error = (code: string) => Object.assign(new Error(code), { code });
    expect(listenFailure(error("EACCES"), 80, "0.0.0.0")).toBe(
      "cannot listen on 0.0.0.0 port 80: not permitted (ports below 1024 need privileges); set PORT to a port above 1023 (e.g. PORT=3000 npm start)",
    );
    expect(listenFailure(error("EADDRNOTAVAIL"), 3000, "10.9.9.9")).toContain("set HOST");
    expect(listenFailure(error("EMFILE"), 3000, "127.0.0.1")).toBeUndefined();
  });
});

it("SIGTERM: the answer in flight is sent whole, new connections are refused, then the process exits 0", async () => {
  const port = await freePort();
  const run = serve({ PORT: String(port), POOL_THREADS: "1" });
  try {
    await run.ready();
    // The pool's thread is still starting: this computed answer is in flight for a while.
    const inFlight = new Promise<{ status: number; body: string }>((done, fail) => {
      const req = request({ host: "127.0.0.1", port, path: "/api/maqamat/families?tuningSystem=ibnsina_1037&startingNote=yegah" }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c));
        res.on("end", () => done({ status: res.statusCode!, body }));
      });
      req.on("error", fail);
      req.end();
    });
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 100));
    const refused = await fetch(`http://127.0.0.1:${port}/api`).then(
      () => "answered",
      (e: Error & { cause?: { code?: string } }) => e.cause?.code,
    );
    expect(refused).toBe("ECONNREFUSED");
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).count).toBeGreaterThan(0);
    expect(await run.exited).toBe(0);
  } finally {
    run.child.kill("SIGKILL");
  }
}, 120_000);
