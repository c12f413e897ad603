/** scripts/test-nginx.sh against a small build. Skipped where nginx is missing, except under CI (which installs it): there a missing nginx fails. */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildSample } from "./support/buildSample.js";

const hasNginx = spawnSync("sh", ["-c", "command -v nginx"]).status === 0;

it.runIf(process.env.CI !== undefined)("nginx is installed (CI)", () => expect(hasNginx).toBe(true));

describe.skipIf(!hasNginx)("nginx with deploy/nginx.conf", () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample(["gzip"]);
  });
  afterAll(() => {
    if (sample) rmSync(sample.dir, { recursive: true, force: true });
  });

  it("serves canonical URLs from the files and the rest from the fallback", () => {
    const script = join(import.meta.dirname, "..", "scripts", "test-nginx.sh");
    const out = execFileSync("bash", [script], { env: { ...process.env, BUILD_DIR: sample.outDir }, encoding: "utf8" });
    expect(out).toContain("test-nginx: all checks passed");
    expect(out).not.toContain("FAIL");
  });
});
