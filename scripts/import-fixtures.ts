/**
 * Copies the recorded reference answers the suite replays from ../shared/conformance into
 * test/fixtures/, so a clone with nothing beside it tests itself. The scorer's rules live in
 * test/support/recorded.ts; the scorer itself stays where it is (npm run conformance). Also
 * writes test/fixtures/spec-parameters.json: each `GET` endpoint of ../shared/spec/api-spec.md
 * with the parameters its tables list, which the OpenAPI test checks.
 *
 * Usage: npm run import-fixtures [-- --from <conformance dir>] [-- --spec <api-spec.md>]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const fromIndex = args.indexOf("--from");
const from = resolve(fromIndex >= 0 && args[fromIndex + 1] ? args[fromIndex + 1] : join(root, "..", "shared", "conformance"));
const specIndex = args.indexOf("--spec");
const spec = resolve(specIndex >= 0 && args[specIndex + 1] ? args[specIndex + 1] : join(root, "..", "shared", "spec", "api-spec.md"));
const to = join(root, "test", "fixtures");

/** `#### GET /path` sections with the names in their parameter tables, and the path's own parameters. */
function specParameters(text: string): Record<string, string[]> {
  const sections: Record<string, string[]> = {};
  let current: string[] | undefined;
  let inParameterTable = false;
  for (const line of text.split("\n")) {
    if (/^#{1,4} /.test(line)) {
      const path = /^#### GET (\/\S+)/.exec(line)?.[1];
      current = path ? [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]) : undefined;
      if (path && current) sections[path] = current;
      inParameterTable = false;
    } else if (!line.startsWith("|")) inParameterTable = false;
    else if (current) {
      const first = line.split("|")[1].trim();
      if (/^(Query parameter|Parameter)$/.test(first)) inParameterTable = true;
      else if (inParameterTable) for (const m of first.matchAll(/`(\w+)`/g)) if (!current.includes(m[1])) current.push(m[1]);
    }
  }
  return sections;
}

mkdirSync(to, { recursive: true });
const files = readdirSync(from).filter((f) => f.endsWith(".jsonl.gz"));
if (files.length === 0) {
  console.error(`import-fixtures: no *.jsonl.gz in ${from}`);
  process.exit(1);
}
for (const f of files) {
  // Refuse a file that does not parse line by line, rather than copy it and fail later.
  const packed = readFileSync(join(from, f));
  const lines = gunzipSync(packed)
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  lines.forEach((l, i) => {
    const c = JSON.parse(l);
    if (typeof c.path !== "string" || typeof c.status !== "number") throw new Error(`${f} line ${i + 1}: no path or status`);
  });
  writeFileSync(join(to, f), packed);
  console.log(`${f}: ${lines.length} recorded cases → test/fixtures/${f}`);
}

const parameters = specParameters(readFileSync(spec, "utf8"));
writeFileSync(join(to, "spec-parameters.json"), `${JSON.stringify(parameters, null, 2)}\n`);
console.log(`${Object.keys(parameters).length} endpoints with their parameters → test/fixtures/spec-parameters.json`);
