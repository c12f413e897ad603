/**
 * The Node server's computing pool under pressure, with small limits: past the queue a request is
 * a JSON 503 with Retry-After; past the time limit the computation is stopped (its thread replaced)
 * and the answer is a JSON 503 naming the limit; the server answers normally afterwards.
 */
import { describe, it, expect, afterAll } from "vitest";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import { startServer, stopServer, serverState } from "../src/serve/server.js";
import { catalog } from "./support/catalog.js";
import { SAMPLE_BASE_URL } from "./support/buildSample.js";

const HEAVY = "/api/maqamat/classification/maqam-pitch-class-sets?tuningSystem=ronzevalle_1904&startingNote=ushayran&includeIncompatible=true";
const CHEAP = "/api/sources";
const servers: Server[] = [];

async function serve(pool: { threads: number; queue: number; timeLimitMs: number }) {
  const server = await startServer({ catalog, buildDir: "/nonexistent", baseUrl: SAMPLE_BASE_URL, pool }, 0);
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s, 1000)));
});

/** Asks until the answer is a 200 (a thread may still be starting): the first 200, or the last answer. */
async function until200(url: string, ms = 150_000): Promise<Response> {
  let last: Response | undefined;
  for (const deadline = performance.now() + ms; performance.now() < deadline; ) {
    last = await fetch(url);
    if (last.status === 200) return last;
    await last.arrayBuffer();
    await new Promise((r) => setTimeout(r, 250));
  }
  return last!;
}

describe("the computing pool", () => {
  it("refuses a request past its queue with a JSON 503 and Retry-After, and answers the one it computes", async () => {
    const origin = await serve({ threads: 1, queue: 0, timeLimitMs: 120_000 });
    expect(serverState(servers.at(-1)!)!.pool).toEqual({ threads: 1, queue: 0, timeLimitMs: 120_000 });
    expect((await until200(origin + CHEAP)).status).toBe(200);
    const computing = fetch(origin + HEAVY);
    await new Promise((r) => setTimeout(r, 50));
    const refused = await fetch(origin + CHEAP);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(refused.headers.get("cache-control")).toBe("no-cache");
    const body = await refused.json();
    expect(Object.keys(body)).toEqual(["error", "message", "hint"]);
    expect(body.error).toBe("Service busy");
    expect((await computing).status).toBe(200);
    expect((await until200(origin + CHEAP)).status).toBe(200);
  }, 400_000);

  it("stops a computation past its time limit with a JSON 503 naming the limit, and answers afterwards", async () => {
    const origin = await serve({ threads: 1, queue: 4, timeLimitMs: 300 });
    // The thread must be up, so that the limit stops a running computation.
    expect((await until200(origin + CHEAP)).status).toBe(200);
    const started = performance.now();
    const stopped = await fetch(origin + HEAVY);
    const ms = performance.now() - started;
    expect(stopped.status).toBe(503);
    const body = await stopped.json();
    expect(body.error).toBe("Time limit exceeded");
    expect(body.message).toContain("limit of 0.3 s per computed answer");
    expect(ms).toBeLessThan(5_000);
    // A new thread replaces the stopped one.
    const after = await until200(origin + CHEAP);
    expect(after.status).toBe(200);
    expect((await after.json()).count).toBeGreaterThan(0);
  }, 400_000);

  // Linux keeps a nice value per thread: /proc/self/task/<tid>/stat, field 19 (counted after the name's ")").
  const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16]);
  it.runIf(process.platform === "linux")(
    "runs its computing threads at nice 19, below the thread that answers files",
    async () => {
      const before = new Set(readdirSync("/proc/self/task"));
      const origin = await serve({ threads: 1, queue: 4, timeLimitMs: 120_000 });
      expect((await until200(origin + CHEAP)).status).toBe(200);
      const started = readdirSync("/proc/self/task").filter((tid) => !before.has(tid));
      expect(started.map(niceOf)).toContain(19);
      expect(niceOf(String(process.pid))).toBe(0);
    },
    400_000,
  );
});
