/**
 * The site the build writes beside build/api: the landing page with its explorer (public/), the
 * API reference (Swagger UI from its npm package, no CDN), the client (build/client/maqam-api.js,
 * its .d.ts and the engine chunk it loads on first need) and the service worker (build/sw.js). The
 * pictures under build/pictures/ are drawn by the build workers (scripts/pictures.ts).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import type { BuildOptions, Plugin } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { marked } from "marked";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import type { Catalog } from "../src/theory/catalog.js";
import { keptBuild } from "./keptBuild.js";
import { copyKept, keep, keyOf } from "./keptOutputs.js";
import { threadEntry } from "./threadBundle.js";

const root = resolve(import.meta.dirname, "..");
/** This file: its esbuild options and the client-as-published plugin shape the site's bundles. */
const SITE_SCRIPT = "scripts/site.ts";
const require = createRequire(import.meta.url);

/** Most files the site adds besides the pictures (pages, scripts, styles, client, reference): host file budgets reserve this many. */
export const SITE_FILES = 32;

const common: BuildOptions = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["browser", "module", "main"],
  conditions: ["browser", "import"],
  target: "es2022",
  minify: true,
  legalComments: "none",
  logLevel: "silent",
  metafile: true,
};

/** The OpenAPI documents made, by catalog and base URL: a build makes its site twice (for its size, then for good). */
const documents = new WeakMap<Catalog, Map<string, unknown>>();

/** The OpenAPI document the client's bodies are declared from. */
function openapiDocument(catalog: Catalog, baseUrl: string): unknown {
  const made = documents.get(catalog) ?? new Map<string, unknown>();
  documents.set(catalog, made);
  if (made.has(baseUrl)) return made.get(baseUrl);
  const document = dispatch(routes, { catalog, baseUrl, path: "/openapi.json", query: new URLSearchParams() });
  if (document.status !== 200) throw new Error(`/openapi.json answered ${document.status}`);
  made.set(baseUrl, document.body);
  return document.body;
}

/** The client entry's declarations, and the bodies'. */
const DECLARATION_FILES = ["maqam-api.d.ts", "bodies.d.ts"];

/**
 * Writes the client's declarations into `dir`: copied where kept for the same document, entry and
 * script (scripts/keptOutputs.ts: a build makes its site twice, and most builds change neither),
 * else made by a process of their own (scripts/declarations.ts) and kept.
 */
async function writeDeclarations(dir: string, document: unknown): Promise<void> {
  const targets = DECLARATION_FILES.map((file) => join(dir, file));
  const parts = { document: createHash("sha256").update(JSON.stringify(document)).digest("hex") };
  const keyNow = () => keyOf(parts, ["scripts/declarations.ts", "src/client/index.ts"]);
  const key = keyNow();
  if (key && copyKept("declarations", key, targets)) return;
  const bundle = fileURLToPath(threadEntry("scripts/declarations.ts"));
  const entry = resolve(root, "src/client/index.ts");
  await new Promise<void>((done, fail) => {
    const child = execFile(process.execPath, [bundle, entry, ...targets], (error, _stdout, stderr) =>
      error ? fail(new Error(`the client's declarations: ${stderr.trim() || error.message}`)) : done(),
    );
    // A process that ended early is told by its exit, not by the pipe it no longer reads.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(JSON.stringify(document));
  });
  // Kept unless the entry or the script changed while the process read them.
  if (key && keyNow() === key) keep("declarations", key, targets);
}

/** The site's bundles, kept between builds by what they are made from (scripts/keptBuild.ts): most builds change no code. */
const siteBundle = (name: string, options: BuildOptions, outdir: string, parts: object = {}) =>
  keptBuild({ ...common, ...options }, { kind: `site-${name}`, name, script: SITE_SCRIPT, parts: { name, ...parts }, outdir });

/** build/client/: the client as one ES module, and the engine chunk it imports when it must compute. */
async function writeClient(outDir: string, document: unknown): Promise<{ client: number; engine: number }> {
  const dir = join(outDir, "client");
  const outputs = Object.entries(
    await siteBundle(
      "client",
      { entryPoints: { "maqam-api": resolve(root, "src/client/index.ts") }, outdir: dir, splitting: true, chunkNames: "[name]-[hash]" },
      dir,
    ),
  );
  await writeDeclarations(dir, document);
  const sizeOf = (match: (name: string) => boolean) => outputs.filter(([name]) => match(name)).reduce((sum, [, bytes]) => sum + bytes, 0);
  return { client: sizeOf((n) => n.endsWith("maqam-api.js")), engine: sizeOf((n) => /engine-[^/]*\.js$/.test(n)) };
}

/** The explorer imports the client as the published module, so the page and users load the same file. */
const clientAsPublished: Plugin = {
  name: "client-as-published",
  setup(b) {
    b.onResolve({ filter: /src\/client\/index\.js$/ }, () => ({ path: "/client/maqam-api.js", external: true }));
  },
};

/** The Arabic font (Noto Naskh Arabic, from its npm package): its Arabic subset, regular and bold, with the CSS the Arabic pages load. */
function writeFonts(outDir: string) {
  const pkg = dirname(require.resolve("@fontsource/noto-naskh-arabic/package.json"));
  const { arabic: range } = JSON.parse(readFileSync(join(pkg, "unicode.json"), "utf8")) as { arabic: string };
  mkdirSync(join(outDir, "fonts"), { recursive: true });
  const faces = [400, 700].map((weight) => {
    const file = `noto-naskh-arabic-arabic-${weight}-normal.woff2`;
    copyFileSync(join(pkg, "files", file), join(outDir, "fonts", file));
    return `@font-face{font-family:"Noto Naskh Arabic";font-style:normal;font-display:swap;font-weight:${weight};src:url(/fonts/${file}) format("woff2");unicode-range:${range}}`;
  });
  writeFileSync(join(outDir, "fonts", "arabic.css"), `/* Noto Naskh Arabic (SIL Open Font License 1.1), Arabic subset */\n${faces.join("\n")}\n`);
  copyFileSync(join(pkg, "LICENSE"), join(outDir, "fonts", "LICENSE"));
}

/**
 * build/exports-guide.html: docs/exports.md (which file goes into which instrument, what the
 * files say) as a page of the site, linked from the explorer's downloads.
 */
function writeExportsGuide(outDir: string) {
  const body = marked.parse(readFileSync(join(root, "docs", "exports.md"), "utf8"), { async: false });
  writeFileSync(
    join(outDir, "exports-guide.html"),
    `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tuning exports: Scala and AnaMark files · Arabic Maqām Archive API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/site.css">
</head>
<body>
<header><nav class="site" aria-label="Site"><a href="/">Arabic Maqām Archive API</a> <a href="/reference.html">API reference</a> <a href="/sql.html">SQL</a></nav></header>
<main class="guide">
${body}</main>
</body>
</html>
`,
  );
}

async function writePages(outDir: string, digest: string, baseUrl: string) {
  writeExportsGuide(outDir);
  for (const file of ["index.html", "reference.html", "sql.html", "site.css", "reference.css"]) copyFileSync(join(root, "public", file), join(outDir, file));
  // The page's code, with the staff notation (VexFlow) in a chunk loaded only when a staff is shown.
  const pages = { site: resolve(root, "public/site.ts"), reference: resolve(root, "public/reference.ts"), sql: resolve(root, "public/sql.ts") };
  await siteBundle("pages", { entryPoints: pages, outdir: outDir, splitting: true, chunkNames: "chunks/[name]-[hash]", plugins: [clientAsPublished] }, outDir);
  // Versioned by the digest: kept for the aside site's, which is the same in every build (siteAside).
  const sw = { BUILD_DIGEST: JSON.stringify(digest), BUILD_BASE_URL: JSON.stringify(baseUrl) };
  await siteBundle("sw", { format: "iife", entryPoints: [resolve(root, "src/client/sw.ts")], outfile: join(outDir, "sw.js"), define: sw }, outDir, sw);
  writeFonts(outDir);
  const swagger = dirname(require.resolve("swagger-ui-dist/package.json"));
  mkdirSync(join(outDir, "reference"), { recursive: true });
  for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE"]) copyFileSync(join(swagger, file), join(outDir, "reference", file));
  // The SQL page's SQLite worker and WebAssembly, served from this build (a worker must be same-origin).
  const httpvfs = dirname(require.resolve("sql.js-httpvfs/package.json"));
  mkdirSync(join(outDir, "sql"), { recursive: true });
  for (const file of ["sqlite.worker.js", "sql-wasm.wasm"]) copyFileSync(join(httpvfs, "dist", file), join(outDir, "sql", file));
  copyFileSync(join(httpvfs, "LICENSE"), join(outDir, "sql", "LICENSE"));
}

export interface SiteSummary {
  /** Pages, scripts, styles and the reference renderer: files and bytes. */
  files: number;
  bytes: number;
  /** build/client/maqam-api.js and the engine chunk, in bytes. */
  client: { client: number; engine: number };
  /** The pictures (build/pictures/), drawn by the build workers. */
  pictures: { files: number; bytes: number };
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]));
/** Folders of the build the site does not write to, which hold tens of thousands of files. */
const NOT_SITE = new Set(["api", "pictures"]);
/** The build's files outside api/ and pictures/. */
const filesBesideApi = (outDir: string): string[] =>
  readdirSync(outDir, { withFileTypes: true }).flatMap((d) =>
    NOT_SITE.has(d.name) ? [] : d.isDirectory() ? filesUnder(join(outDir, d.name)) : [join(outDir, d.name)],
  );

export interface SiteOptions {
  outDir: string;
  baseUrl: string;
  /** The manifest digest the service worker is versioned by. */
  digest: string;
  catalog: Catalog;
}

/** The site's files besides the pictures, and their figures. */
export async function buildSite({ outDir, baseUrl, digest, catalog }: SiteOptions): Promise<Omit<SiteSummary, "pictures">> {
  const before = new Set(filesBesideApi(outDir));
  const client = await writeClient(outDir, openapiDocument(catalog, baseUrl));
  await writePages(outDir, digest, baseUrl);
  const added = filesBesideApi(outDir).filter((f) => !before.has(f));
  if (added.length > SITE_FILES)
    throw new Error(`the site writes ${added.length} files, more than the ${SITE_FILES} reserved: ${added.map((f) => relative(outDir, f)).join(", ")}`);
  return { files: added.length, bytes: added.reduce((sum, f) => sum + statSync(f).size, 0), client };
}

/** The service worker's version in a site made before anything is rendered (siteAside): as long as a digest, and found once in sw.js. */
export const ASIDE_DIGEST = "0".repeat(64);

/** A site made in a folder of its own before the rendering, with ASIDE_DIGEST: measured for the rendering's stop, then placed into the tree (placeSite). */
export interface SiteAside {
  dir: string;
  summary: Omit<SiteSummary, "pictures">;
}

/** The site made into `dir` (created), for a tree whose digest is not known yet. */
export async function siteAside(dir: string, baseUrl: string, catalog: Catalog): Promise<SiteAside> {
  mkdirSync(dir, { recursive: true });
  return { dir, summary: await buildSite({ outDir: dir, baseUrl, digest: ASIDE_DIGEST, catalog }) };
}

/**
 * Places a site made aside into `outDir`, the service worker versioned by `digest`, and removes
 * the folder: the bytes buildSite writes for that digest (no file names its folder, and the digest
 * is one literal of sw.js of the same length), without making the client, pages and worker again.
 */
export function placeSite(aside: SiteAside, outDir: string, digest: string): Omit<SiteSummary, "pictures"> {
  if (digest.length !== ASIDE_DIGEST.length) throw new Error(`the service worker's version must be ${ASIDE_DIGEST.length} characters, not ${digest.length}`);
  for (const file of filesUnder(aside.dir)) {
    const path = relative(aside.dir, file);
    const target = join(outDir, path);
    mkdirSync(dirname(target), { recursive: true });
    if (path !== "sw.js") {
      copyFileSync(file, target);
      continue;
    }
    const [before, ...after] = readFileSync(file, "utf8").split(ASIDE_DIGEST);
    if (after.length !== 1) throw new Error(`sw.js holds its version ${after.length} times, not once`);
    writeFileSync(target, before + digest + after[0]);
  }
  rmSync(aside.dir, { recursive: true, force: true });
  return aside.summary;
}
