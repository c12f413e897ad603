/**
 * `npm run conformance [-- --runtime node|deno|workerd|workerd-assets|wrangler-pages|wrangler-workers] [-- score.py options]`:
 * starts the API on a free port — the Node server (`npm run serve`, the default), or
 * build/_worker.js under `deno serve` or workerd (alone, or with build/ as its assets), or build/
 * under wrangler as Cloudflare Pages (`wrangler pages dev build`) or Workers with static assets
 * (`wrangler dev --config deploy/cloudflare/wrangler.toml`) — replays
 * the recorded cases of ../shared/conformance with score.py, prints its report and stops it.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { startDeno, startNodeServer, startWorkerd, startWrangler, type RunningRuntime } from "./runtimes.js";

const root = resolve(import.meta.dirname, "..");
const scorer = resolve(root, "..", "shared", "conformance", "score.py");
const buildDir = resolve(root, process.env.BUILD_DIR ?? "build");
const worker = join(buildDir, "_worker.js");

const args = process.argv.slice(2);
const at = args.indexOf("--runtime");
const runtime = at >= 0 ? args.splice(at, 2)[1] : "node";

const starters: Record<string, () => Promise<RunningRuntime>> = {
  node: () => startNodeServer({ buildDir }),
  deno: () => startDeno({ script: worker }),
  workerd: () => startWorkerd({ script: worker }),
  "workerd-assets": () => startWorkerd({ script: worker, assetsDir: buildDir }),
  "wrangler-pages": () => startWrangler({ mode: "pages", buildDir }),
  "wrangler-workers": () => startWrangler({ mode: "workers", buildDir }),
};
const start = starters[runtime];
if (!start) {
  console.error(`conformance: unknown runtime '${runtime}' (one of ${Object.keys(starters).join(", ")})`);
  process.exit(2);
}
const running = await start();
const result = spawnSync("python3", [scorer, `${running.origin}/api`, ...args], { stdio: "inherit" });
await running.stop();
process.exit(result.status ?? 1);
