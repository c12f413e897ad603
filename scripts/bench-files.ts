/**
 * Files: the Node server against nginx (part of `npm run bench`, or alone:
 * `tsx scripts/bench-files.ts [--write]`). Both serve the same build/ on loopback: nginx from the
 * system's package with one worker, sendfile and open_file_cache (gzip level 1 on the fly for the
 * compressed round, as the github-pages build has no siblings), our server as `npm run serve`
 * runs it. The same 400 files spread over build/api are requested in turn by autocannon over 16
 * connections, in rounds that alternate the servers, without and with `Accept-Encoding: gzip`.
 * Prints a Markdown section, or with `--write` puts it into docs/benchmarks.md.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import autocannon from "autocannon";
import { builtFiles, evenSample, specUrlOf } from "./benchRequests.js";
import { benchBuildDir, loadAverage, writeSection, machineText } from "./benchDoc.js";
import { freePort } from "./freePort.js";
import { startNodeServer } from "./runtimes.js";

const buildDir = benchBuildDir;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 16;
const SAMPLE = 400;
const NGINX = process.env.NGINX ?? "/usr/sbin/nginx";

/** nginx with one worker on `port`, serving `dir`; gzip level 1 on the fly when asked. */
async function startNginx(dir: string, port: number): Promise<{ stop: () => void; version: string }> {
  const tmp = mkdtempSync(join(tmpdir(), "maqam-nginx-"));
  const conf = [
    // As root the worker would otherwise run as nobody, who may not read the build.
    process.getuid?.() === 0 ? "user root;" : "",
    "worker_processes 1;",
    `pid ${tmp}/nginx.pid;`,
    `error_log ${tmp}/error.log warn;`,
    "events { worker_connections 1024; }",
    "http {",
    "  access_log off;",
    `  client_body_temp_path ${tmp}/body; proxy_temp_path ${tmp}/proxy; fastcgi_temp_path ${tmp}/fastcgi; uwsgi_temp_path ${tmp}/uwsgi; scgi_temp_path ${tmp}/scgi;`,
    "  types { application/json json; }",
    "  sendfile on; tcp_nopush on; keepalive_requests 100000;",
    "  open_file_cache max=10000 inactive=60s; open_file_cache_valid 60s;",
    "  gzip on; gzip_comp_level 1; gzip_min_length 1025; gzip_types application/json; gzip_vary on;",
    `  server { listen 127.0.0.1:${port}; root ${dir}; etag on; add_header Access-Control-Allow-Origin *; }`,
    "}",
  ].join("\n");
  writeFileSync(join(tmp, "nginx.conf"), conf);
  const child: ChildProcess = spawn(NGINX, ["-e", `${tmp}/error.log`, "-c", join(tmp, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/manifest.json`).then(
        (r) => (r.body?.cancel(), r.ok),
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const version = spawnSync(NGINX, ["-v"], { encoding: "utf8" })
    .stderr.trim()
    .replace(/^nginx version: /, "");
  return { version, stop: () => (child.kill("SIGQUIT"), rmSync(tmp, { recursive: true, force: true })) };
}

interface Measured {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function hammer(origin: string, paths: string[], gzip: boolean, seconds: number): Promise<Measured> {
  const headers: Record<string, string> = gzip ? { "accept-encoding": "gzip" } : {};
  const r = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 20,
    requests: paths.map((path) => ({ method: "GET", path, headers })),
  });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

/** Whether a server answers a sample of the paths with the files' bytes (gunzipped when it compressed). */
async function servesFiles(origin: string, paths: string[], files: string[], gzip: boolean): Promise<boolean> {
  for (let i = 0; i < paths.length; i += Math.floor(paths.length / 8)) {
    const r = await fetch(origin + paths[i], { headers: { "accept-encoding": gzip ? "gzip" : "identity" } });
    const body = Buffer.from(await r.arrayBuffer());
    const expected = readFileSync(join(buildDir, "api", files[i]));
    if (!r.ok || !(body.equals(expected) || (body[0] === 0x1f && gunzipSync(body).equals(expected)))) return false;
  }
  return true;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchFiles() {
  const files = evenSample(builtFiles(buildDir), SAMPLE);
  const specPaths = files.map(specUrlOf);
  const filePaths = files.map((f) => `/api/${encodeURI(f)}`);
  const nginxPort = await freePort();
  const nginx = await startNginx(buildDir, nginxPort);
  const ours = await startNodeServer({ buildDir });
  const nginxOrigin = `http://127.0.0.1:${nginxPort}`;
  const runs = [
    { name: "our server, spec URLs", origin: ours.origin, paths: specPaths },
    { name: "our server, file URLs", origin: ours.origin, paths: filePaths },
    { name: `nginx ${nginx.version}, file URLs`, origin: nginxOrigin, paths: filePaths },
  ];
  const results = new Map<string, Measured[]>();
  const verified: string[] = [];
  try {
    for (const gzip of [false, true])
      for (const run of runs) {
        if (!(await servesFiles(run.origin, run.paths, files, gzip))) verified.push(`${run.name}${gzip ? " (gzip)" : ""}`);
        // Warm-up to the steady state each server reaches in service: every file asked for once
        // in this encoding (our cache records each form's answer on its first request; nginx's
        // open_file_cache opens it), then JIT and connections under load.
        for (const path of run.paths)
          await fetch(run.origin + path, { headers: { "accept-encoding": gzip ? "gzip" : "identity" } }).then((r) => r.arrayBuffer());
        await hammer(run.origin, run.paths, gzip, 2);
      }
    for (let round = 0; round < ROUNDS; round++)
      for (const gzip of [false, true])
        for (const run of round % 2 ? [...runs].reverse() : runs) {
          const m = await hammer(run.origin, run.paths, gzip, SECONDS);
          const key = `${run.name}|${gzip}`;
          results.set(key, [...(results.get(key) ?? []), m]);
          console.log(`bench-files: round ${round + 1} ${gzip ? "gzip" : "identity"} ${run.name}: ${m.rps.toFixed(0)} req/s, p99 ${m.p99} ms`);
        }
  } finally {
    nginx.stop();
    await ours.stop();
  }
  return {
    runs: runs.map((r) => r.name),
    results,
    verified,
    files: files.length,
    bytes: files.reduce((s, f) => s + readFileSync(join(buildDir, "api", f)).length, 0),
  };
}

function section(figures: Awaited<ReturnType<typeof benchFiles>>): string {
  const nginxName = figures.runs[2];
  const rows: string[] = [];
  const verdicts: string[] = [];
  for (const gzip of [false, true]) {
    const nginxRps = figures.results.get(`${nginxName}|${gzip}`)!.map((m) => m.rps);
    for (const name of figures.runs) {
      const ms = figures.results.get(`${name}|${gzip}`)!;
      const rps = ms.map((m) => m.rps);
      // Ratio per round (each against nginx in the same round), then the median.
      const ratios = rps.map((r, i) => r / nginxRps[i]);
      const ratio = median(ratios);
      const isOurs = name !== nginxName;
      const miss = isOurs && ratio < 1;
      if (isOurs) verdicts.push(`${name}, ${gzip ? "gzip" : "identity"}: ${miss ? `**${ratio.toFixed(2)}×**` : `${ratio.toFixed(2)}×`}`);
      const cell = (s: string) => (miss ? `**${s}**` : s);
      rows.push(
        `| ${gzip ? "gzip" : "identity"} | ${name} | ${rps.map((r) => r.toFixed(0)).join(", ")} | ${median(rps).toFixed(0)} | ${median(ms.map((m) => m.p99))} | ${ms.reduce((s, m) => s + m.errors, 0)} | ${ms.reduce((s, m) => s + m.non2xx, 0)} | ${isOurs ? cell(`${ratio.toFixed(2)}× (${ratios.map((r) => r.toFixed(2)).join(", ")})`) : "1.00×"} |`,
      );
    }
  }
  const allMet = verdicts.every((v) => !v.includes("**"));
  return [
    "## Files: the Node server against nginx",
    "",
    `Measured by \`npx tsx scripts/bench-files.ts --write\` (part of \`npm run bench\`) on ${machineText()}; load average when it ended ${loadAverage()} (1 / 5 / 15 min); absolute figures depend on the machine and what else runs on it, the ratios, measured in the same rounds, are what counts. ${figures.files} built files spread evenly over build/api (${(figures.bytes / 1e6).toFixed(1)} MB), requested in turn by autocannon over ${CONNECTIONS} connections for ${SECONDS} s per server and round, ${ROUNDS} rounds that alternate the order of the servers, after a warm-up of each (every file asked for once in the round's encoding, then 2 s under load); autocannon shares the cores with the server under test. nginx (the system's package): one worker, \`sendfile on\`, \`open_file_cache\`, \`gzip on\` at \`gzip_comp_level 1\` for JSON over 1 KB (the build has no precompressed siblings). Our server: \`npm run serve\`'s command (main thread answering files from memory, the computing threads idle). Gzip rounds send \`Accept-Encoding: gzip\`.`,
    "",
    "| encoding | server | req/s per round | median req/s | median p99 ms | errors | non-2xx | ours ÷ nginx (median of rounds; per round) |",
    "|---|---|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    figures.verified.length
      ? `**Answers differed from the files: ${figures.verified.join(", ")}.**`
      : "Each server was checked to answer the files' bytes (gunzipped when compressed) before it was measured.",
    "",
    `Target ≥ 1.0× nginx with identity and with gzip: ${allMet ? "met" : "**not met**"} (${verdicts.join("; ")}).`,
    "",
    ...(allMet
      ? []
      : [
          `Gap and cause: our server answers each file from memory with a header list the web handler made once (src/serve/fileAnswers.ts), without web Request/Response objects, but every request still goes through node:http's JavaScript (parsing, header validation, the response object), where nginx's C worker sends the file with sendfile; with ${cpus().length} cores shared by autocannon, both servers and the other work on the machine (load above), the spread between rounds is wide. A CPU profile of the main thread under autocannon (\`node --cpu-prof\`, 16 connections, identity) shows no hot spot of ours: the server's own functions (target lookup, recorded-answer lookup) are each under 1 % of samples, the largest share is the socket write (\`writev\`) and node:http's parsing; the head, body and compressed forms are already made once per file. Next step: measure on a quiet machine (load below 1) before changing code, then write the recorded head and body straight to the socket for keep-alive GETs, bypassing node:http's response object.`,
          "",
        ]),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = section(await benchFiles());
  if (process.argv.includes("--write")) writeSection("## Files: the Node server against nginx", text);
  else console.log(text);
}
