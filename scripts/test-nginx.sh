#!/usr/bin/env bash
# Runs deploy/nginx.conf on loopback against build/ (or BUILD_DIR), with the fallback server
# behind it, and checks that canonical URLs come from the files and the rest from the fallback.
# Installs nothing: without nginx on PATH it says so and exits 0 (CI: apt-get install -y nginx).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nginx >/dev/null 2>&1; then
  echo "test-nginx: nginx is not on PATH; skipped"
  exit 0
fi
BUILD_DIR=$(realpath "${BUILD_DIR:-build}")
if [ ! -f "$BUILD_DIR/manifest.json" ]; then
  echo "test-nginx: no build in $BUILD_DIR (run npm run build first)" >&2
  exit 1
fi

tmp=$(mktemp -d)
api_pid=""
cleanup() {
  if [ -f "$tmp/nginx.pid" ]; then kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || true; fi
  if [ -n "$api_pid" ]; then kill "$api_pid" 2>/dev/null || true; fi
  sleep 0.2
  rm -rf "$tmp"
}
trap cleanup EXIT

free_port() {
  node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}
nginx_port=$(free_port)
api_port=$(free_port)

PORT=$api_port HOST=127.0.0.1 BUILD_DIR=$BUILD_DIR node --import tsx src/serve/main.ts >"$tmp/api.log" 2>&1 &
api_pid=$!

sed -e "s#listen 8080;#listen 127.0.0.1:$nginx_port;#" \
    -e "s#root /srv/maqam-api/build;#root $BUILD_DIR;#" \
    -e "s#server 127.0.0.1:3000;#server 127.0.0.1:$api_port;#" \
    deploy/nginx.conf >"$tmp/api.conf"
{
  # As root the workers would otherwise run as nobody, who may not read the build.
  if [ "$(id -u)" = 0 ]; then echo "user root;"; fi
  cat <<EOF
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/error.log warn;
events {}
http {
    access_log off;
    client_body_temp_path $tmp/body;
    proxy_temp_path $tmp/proxy;
    fastcgi_temp_path $tmp/fastcgi;
    uwsgi_temp_path $tmp/uwsgi;
    scgi_temp_path $tmp/scgi;
    include $tmp/api.conf;
}
EOF
} >"$tmp/nginx.conf"
# -e: the compiled-in error log may not be writable for a non-root user.
nginx -t -q -e "$tmp/error.log" -p "$tmp" -c "$tmp/nginx.conf"
nginx -e "$tmp/error.log" -p "$tmp" -c "$tmp/nginx.conf"

NGINX="http://127.0.0.1:$nginx_port" API="http://127.0.0.1:$api_port" BUILD_DIR="$BUILD_DIR" node --input-type=module <<'EOF'
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const { NGINX, API, BUILD_DIR } = process.env;
const manifest = JSON.parse(readFileSync(join(BUILD_DIR, "manifest.json"), "utf8"));
const get = (base, path, headers = {}, method = "GET") =>
  new Promise((done, fail) => {
    const u = new URL(base);
    const req = request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", fail);
    req.end();
  });

for (let i = 0; i < 100; i++) {
  if (await get(API, "/api/tuning-systems").then(() => true, () => false)) break;
  await new Promise((r) => setTimeout(r, 200));
}

let failures = 0;
const check = (what, ok) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
};
const DOWNLOAD = /^exports\/.+\.(scl|kbm|tun|ascl|syx)$/;
/** The spec URL of a file: its folder plus the query its name spells (a download: its own path). */
const urlOf = (file) => {
  if (DOWNLOAD.test(file)) return `/api/${file}`;
  const slash = file.lastIndexOf("/");
  const name = file.slice(slash + 1);
  const dir = `/api/${file.slice(0, slash)}`;
  return name === "index.json" ? dir : `${dir}?${name.slice(1, -5).replaceAll("~", "/")}`;
};

const files = [...new Set(Object.values(manifest.routes).map((r) => r.largest.file))];
for (const file of files) {
  const url = urlOf(file);
  const body = readFileSync(join(BUILD_DIR, "api", file));
  const r = await get(NGINX, url);
  check(`${url} is the file`, r.status === 200 && r.body.equals(body) && !r.headers["x-answer-source"]);
  const download = DOWNLOAD.test(file);
  const type = !download ? /^application\/json; charset=utf-8$/ : file.endsWith(".syx") ? /^application\/octet-stream$/ : /^text\/plain; charset=us-ascii$/;
  check(`${url} has CORS, cache and ${download ? "download" : "JSON"} headers`,
    r.headers["access-control-allow-origin"] === "*" && /max-age/.test(r.headers["cache-control"] ?? "") && type.test(r.headers["content-type"] ?? ""));
  if (download) {
    const direct = await get(API, url);
    check(`${url} downloads under the fallback's name`, r.headers["content-disposition"] === direct.headers["content-disposition"] && /^attachment; filename="[^"]+"$/.test(r.headers["content-disposition"] ?? ""));
  } else check(`${url} is not a download`, r.headers["content-disposition"] === undefined);
  if (existsSync(join(BUILD_DIR, "api", `${file}.gz`))) {
    const gz = await get(NGINX, url, { "Accept-Encoding": "gzip" });
    check(`${url} comes precompressed`, gz.headers["content-encoding"] === "gzip" && gunzipSync(gz.body).equals(body) && /Accept-Encoding/.test(gz.headers["vary"] ?? ""));
  }
  const [path, query] = url.split("?");
  if (query && query.includes("&")) {
    const unsorted = `${path}?${query.split("&").reverse().join("&")}`;
    const live = await get(NGINX, unsorted);
    const direct = await get(API, unsorted);
    check(`${unsorted} goes to the fallback`, live.headers["x-answer-source"] === "computed" && live.body.equals(direct.body));
  }
}
const slash = await get(NGINX, "/api/tuning-systems/");
check("a trailing slash goes to the fallback", slash.headers["x-answer-source"] === "computed");
const missing = await get(NGINX, "/api/no-such-endpoint");
check("an unknown path gets the fallback's JSON 404", missing.status === 404 && "error" in JSON.parse(missing.body));
const options = await get(NGINX, "/api/tuning-systems", { Origin: "https://example.org" }, "OPTIONS");
check("OPTIONS is a CORS preflight", options.status === 204 && options.headers["access-control-allow-origin"] === "*");
for (const path of ["/api/../package.json", "/api/%2e%2e/package.json", "/api/..%2fpackage.json", "/api/tuning-systems?x=/../../../package.json", "/api/..%2fmanifest.json"]) {
  const r = await get(NGINX, path);
  check(`${path} does not leave build/api`, !r.body.toString().includes("devDependencies") && !r.body.toString().includes('"digest"'));
}
console.log(`test-nginx: ${failures === 0 ? "all checks passed" : `${failures} checks failed`}`);
process.exit(failures === 0 ? 0 : 1);
EOF
