/**
 * Copies the recorded reference answers the suite replays from ../shared/conformance into
 * test/fixtures/, so a clone with nothing beside it tests itself. The scorer's rules live in
 * test/support/recorded.ts; the scorer itself stays where it is (npm run conformance).
 *
 * Usage: npm run import-fixtures [-- --from <conformance dir>]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const fromIndex = args.indexOf("--from");
const from = resolve(fromIndex >= 0 && args[fromIndex + 1] ? args[fromIndex + 1] : join(root, "..", "shared", "conformance"));
const to = join(root, "test", "fixtures");

mkdirSync(to, { recursive: true });
const files = readdirSync(from).filter((f) => f.endsWith(".jsonl.gz"));
if (files.length === 0) {
  console.error(`import-fixtures: no *.jsonl.gz in ${from}`);
  process.exit(1);
}
for (const f of files) {
  // Refuse a file that does not parse line by line, rather than copy it and fail later.
  const packed = readFileSync(join(from, f));
  const lines = gunzipSync(packed).toString("utf8").split("\n").filter((l) => l.trim() !== "");
  lines.forEach((l, i) => {
    const c = JSON.parse(l);
    if (typeof c.path !== "string" || typeof c.status !== "number") throw new Error(`${f} line ${i + 1}: no path or status`);
  });
  writeFileSync(join(to, f), packed);
  console.log(`${f}: ${lines.length} recorded cases → test/fixtures/${f}`);
}
