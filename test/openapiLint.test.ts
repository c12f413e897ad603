/**
 * The OpenAPI document passes Redocly CLI's lint with its recommended rules and no error: a
 * checker nobody here wrote, run on the document the API serves.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ask } from "./support/api.js";

const dir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the OpenAPI document under Redocly lint (recommended rules)", () => {
  it("has no error", async () => {
    const document = ask("/openapi.json");
    expect(document.status).toBe(200);
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(document.body));
    const redocly = resolve(import.meta.dirname, "../node_modules/.bin/redocly");
    const run = await promisify(execFile)(redocly, ["lint", file, "--extends=recommended", "--format=json"], {
      maxBuffer: 64 << 20,
      // Offline: no usage report, no update check.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? "", stderr: e.stderr ?? "" }));
    const report = JSON.parse(run.stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
    const errors = report.problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
