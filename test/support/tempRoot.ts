/**
 * The suite's temporary files under one folder of their own (TMPDIR for the test processes and
 * every build, browser or server they start), removed whole when the run ends: a test that fails
 * half-way, or a build's detached clean-up still running, leaves nothing behind in the system's
 * temporary folder. `KEEP_TEST_TMP=1` keeps it to look at, and the run says where.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "maqam-tests-"));
  process.env.TMPDIR = root;
  return () => {
    if (process.env.KEEP_TEST_TMP === "1") console.log(`test files kept in ${root}`);
    else rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  };
}
