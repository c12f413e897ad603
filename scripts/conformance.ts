/**
 * `npm run conformance [-- score.py options]`: starts `npm run serve` on a free port, replays the
 * recorded cases of ../shared/conformance with score.py, prints its report and stops the server.
 */
import { spawn, spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { freePort } from "./freePort.js";

const root = resolve(import.meta.dirname, "..");
const scorer = resolve(root, "..", "shared", "conformance", "score.py");

const port = await freePort();
const server = spawn(process.execPath, ["--import", "tsx", join(root, "src/serve/main.ts")], {
  cwd: root,
  env: { ...process.env, PORT: String(port) },
  stdio: ["ignore", "ignore", "inherit"],
});

const base = `http://127.0.0.1:${port}/api`;
let ready = false;
for (let i = 0; i < 100 && !ready; i++) {
  await new Promise((r) => setTimeout(r, 200));
  ready = await fetch(`${base}/tuning-systems`).then((r) => r.ok, () => false);
}
if (!ready) {
  server.kill();
  console.error("conformance: the server did not answer within 20 s");
  process.exit(1);
}
const result = spawnSync("python3", [scorer, base, ...process.argv.slice(2)], { stdio: "inherit" });
server.kill("SIGTERM");
process.exit(result.status ?? 1);
