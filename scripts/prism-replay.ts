/**
 * `npm run prism-replay`: a slice of the recorded cases and of the fuzz requests replayed through
 * Prism's validation proxy in front of the Node server (scripts/prismProxy.ts). Prints each
 * violation and their count; exit 1 when any.
 *
 * Usage: npm run prism-replay [-- --step 10 --fuzz 80]   (every step-th recorded case, fuzz requests)
 */
import { replay, replayRequests, startPrismProxy } from "./prismProxy.js";

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};

const requests = replayRequests(option("step", 10), option("fuzz", 80));
const proxy = await startPrismProxy();
let violations: string[];
try {
  violations = await replay(proxy, requests);
} finally {
  await proxy.stop();
}
for (const v of violations) console.log(v);
const withViolations = new Set(violations.map((v) => v.slice(0, v.indexOf(": ")))).size;
console.log(`prism-replay: ${requests.length} requests, ${withViolations} with violations (${violations.length} violations)`);
process.exit(violations.length ? 1 : 0);
