/**
 * A static host that behaves as GitHub Pages (and a bucket's website endpoint) does: the query
 * string is ignored, a directory is served by its index.html (a path to it without the trailing
 * slash is redirected to it), a file with the type of its extension, and any other path gets the
 * site's top-level 404.html with status 404. No fallback, no rewrite, no header rules.
 */
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { join, normalize, resolve, sep } from "node:path";
import type { AddressInfo } from "node:net";

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  json: "application/json; charset=utf-8",
  js: "application/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  ts: "application/typescript",
  map: "application/json; charset=utf-8",
};
const typeOf = (path: string) => TYPES[/\.([a-z]+)$/.exec(path)?.[1] ?? ""] ?? "application/octet-stream";

export interface PagesHost {
  origin: string;
  /** Every request as `status path?query`, in order. */
  log: string[];
  stop: () => Promise<void>;
}

export async function startPagesHost(dir: string): Promise<PagesHost> {
  const root = resolve(dir);
  const log: string[] = [];
  const isFile = (p: string) =>
    stat(p).then(
      (s) => s.isFile(),
      () => false,
    );
  const isDir = (p: string) =>
    stat(p).then(
      (s) => s.isDirectory(),
      () => false,
    );
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      path = "/\0";
    }
    const target = normalize(join(root, path));
    const send = async (status: number, file: string) => {
      log.push(`${status} ${url.pathname}${url.search}`);
      res.writeHead(status, { "Content-Type": typeOf(file) });
      res.end(req.method === "HEAD" ? undefined : await readFile(file));
    };
    if (!target.startsWith(root + sep) && target !== root) return send(404, join(root, "404.html"));
    if (await isFile(target)) return send(200, target);
    if ((await isDir(target)) && (await isFile(join(target, "index.html")))) {
      if (url.pathname.endsWith("/")) return send(200, join(target, "index.html"));
      log.push(`301 ${url.pathname}${url.search}`);
      res.writeHead(301, { Location: `${url.pathname}/${url.search}` });
      return res.end();
    }
    return send(404, join(root, "404.html"));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    stop: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}
