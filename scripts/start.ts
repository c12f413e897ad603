/**
 * `npm start`: builds build/ when it is missing, older than the sources, or built for another
 * address (links in the files must point at the server that serves them), then serves it.
 */
import { existsSync, statSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawnSync } from "node:child_process";

const root = resolve(import.meta.dirname, "..");
const manifest = join(root, process.env.BUILD_DIR ?? "build", "manifest.json");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sourcesChanged = () =>
  Math.max(...["src", "data", "scripts"].map((d) => newestMtime(join(root, d)))) > statSync(manifest).mtimeMs;

const baseUrl = (process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
const builtForAnotherAddress = () => JSON.parse(readFileSync(manifest, "utf8")).baseUrl !== baseUrl;

const run = (script: string) => {
  const env = { ...process.env, BASE_URL: baseUrl };
  const r = spawnSync(process.execPath, ["--import", "tsx", join(root, script)], { stdio: "inherit", cwd: root, env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync(manifest) || sourcesChanged() || builtForAnotherAddress()) run("scripts/build.ts");
else console.log("build/ is up to date");
run("src/serve/main.ts");
