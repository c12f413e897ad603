/**
 * The site the build writes beside build/api: the landing page with its explorer (public/), the
 * API reference (Swagger UI from its npm package, no CDN), the client (build/client/maqam-api.js,
 * its .d.ts and the engine chunk it loads on first need), the service worker (build/sw.js), and a
 * picture (SVG) of every pre-rendered maqām and jins realisation under build/pictures/.
 */
import { build, type BuildOptions, type Plugin } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import { staticFileOf } from "../src/api/staticPath.js";
import type { Catalog } from "../src/theory/catalog.js";
import { pictureOf, svgOf, type RealisationAnswer } from "../src/site/picture.js";

const root = resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);

/** Most files the site adds besides the pictures (pages, scripts, styles, client, reference): host file budgets reserve this many. */
export const SITE_FILES = 24;

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

/**
 * Declarations of the client's entry (build/client/maqam-api.d.ts), from that file alone (its
 * exports carry their types, so no program over the engine is needed), and the bodies it names.
 */
function writeDeclarations(outDir: string) {
  const entry = resolve(root, "src/client/index.ts");
  const { outputText, diagnostics } = ts.transpileDeclaration(readFileSync(entry, "utf8"), { fileName: entry, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
  if (diagnostics?.length) throw new Error(`src/client/index.ts: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ")}`);
  writeFileSync(join(outDir, "maqam-api.d.ts"), outputText);
  writeFileSync(join(outDir, "bodies.d.ts"), "/** 200 bodies by route template; open here (the repository infers them from its zod response schemas). */\nexport type ResponseBodies = Record<string, unknown>;\n");
}

/** build/client/: the client as one ES module, and the engine chunk it imports when it must compute. */
async function writeClient(outDir: string): Promise<{ client: number; engine: number }> {
  const dir = join(outDir, "client");
  const result = await build({
    ...common,
    entryPoints: { "maqam-api": resolve(root, "src/client/index.ts") },
    outdir: dir,
    splitting: true,
    chunkNames: "[name]-[hash]",
  });
  writeDeclarations(dir);
  const outputs = Object.entries(result.metafile!.outputs);
  const sizeOf = (match: (name: string) => boolean) => outputs.filter(([name]) => match(name)).reduce((sum, [, o]) => sum + o.bytes, 0);
  return { client: sizeOf((n) => n.endsWith("maqam-api.js")), engine: sizeOf((n) => /engine-[^/]*\.js$/.test(n)) };
}

/** The explorer imports the client as the published module, so the page and users load the same file. */
const clientAsPublished: Plugin = {
  name: "client-as-published",
  setup(b) {
    b.onResolve({ filter: /src\/client\/index\.js$/ }, () => ({ path: "/client/maqam-api.js", external: true }));
  },
};

async function writePages(outDir: string, digest: string, baseUrl: string) {
  for (const file of ["index.html", "reference.html", "site.css"]) copyFileSync(join(root, "public", file), join(outDir, file));
  await build({ ...common, entryPoints: { site: resolve(root, "public/site.ts"), reference: resolve(root, "public/reference.ts") }, outdir: outDir, plugins: [clientAsPublished] });
  await build({
    ...common,
    format: "iife",
    entryPoints: [resolve(root, "src/client/sw.ts")],
    outfile: join(outDir, "sw.js"),
    define: { BUILD_DIGEST: JSON.stringify(digest), BUILD_BASE_URL: JSON.stringify(baseUrl) },
  });
  const swagger = dirname(require.resolve("swagger-ui-dist/package.json"));
  mkdirSync(join(outDir, "reference"), { recursive: true });
  for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE"]) copyFileSync(join(swagger, file), join(outDir, "reference", file));
}

const REALISATION = /^\/(maqamat|ajnas)\/([^/?]+)\?startingNote=([^&]+)&tuningSystem=([^&]+)$/;
const DETAIL_ROUTES = new Set(["GET /maqamat/{idName}", "GET /ajnas/{idName}"]);
/** A maqām or jins realisation with default parameters (not `/maqamat/families?…`, which has the same shape). */
const realisationOf = (request: string) => {
  const m = REALISATION.exec(request);
  const path = request.split("?")[0];
  return m && DETAIL_ROUTES.has(routes.find((r) => r.matcher.test(path))?.name ?? "") ? m : undefined;
};

/** Every pre-rendered maqām and jins realisation (tuning system × starting note, default parameters), drawn. */
function writePictures(outDir: string, requests: Iterable<string>, catalog: Catalog, baseUrl: string): { files: number; bytes: number } {
  const answer = (request: string) => {
    const url = new URL(request, "http://x");
    const response = dispatch(routes, { catalog, baseUrl, path: url.pathname, query: url.searchParams });
    return response.status === 200 ? response.body : undefined;
  };
  const sizes = new Map<string, Map<string, number>>();
  const jinsSizes = (ts: string, note: string) => {
    const key = `${ts}/${note}`;
    if (!sizes.has(key)) {
      const list = answer(`/tuning-systems/${ts}/${note}/ajnas`) as { data: { jins: { id: string }; stats: { numberOfPitchClasses: number } }[] } | undefined;
      sizes.set(key, new Map((list?.data ?? []).map((d) => [d.jins.id, d.stats.numberOfPitchClasses])));
    }
    return sizes.get(key)!;
  };
  let files = 0;
  let bytes = 0;
  const made = new Set<string>();
  for (const request of requests) {
    const m = realisationOf(request);
    if (!m) continue;
    const [, kind, , note, ts] = m;
    const body = answer(`${request}&pitchClassDataType=cents`) as RealisationAnswer | undefined;
    // `/maqamat/all?…` has the detail route's shape but lists every maqām: no picture.
    if (!body?.pitchData) continue;
    const url = new URL(request, "http://x");
    const file = join(outDir, "pictures", staticFileOf(url.pathname, url.searchParams)!.replace(/\.json$/, ".svg"));
    const svg = svgOf(pictureOf(body, kind === "maqamat" ? jinsSizes(ts, note) : undefined));
    if (!made.has(dirname(file))) mkdirSync(dirname(file), { recursive: true });
    made.add(dirname(file));
    writeFileSync(file, svg);
    files++;
    bytes += Buffer.byteLength(svg);
  }
  return { files, bytes };
}

export interface SiteSummary {
  /** Pages, scripts, styles and the reference renderer: files and bytes. */
  files: number;
  bytes: number;
  /** build/client/maqam-api.js and the engine chunk, in bytes. */
  client: { client: number; engine: number };
  pictures: { files: number; bytes: number };
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]));
/** The build's files outside api/ (which holds tens of thousands). */
const filesBesideApi = (outDir: string): string[] =>
  readdirSync(outDir, { withFileTypes: true }).flatMap((d) => (d.name === "api" ? [] : d.isDirectory() ? filesUnder(join(outDir, d.name)) : [join(outDir, d.name)]));

export interface SiteOptions {
  outDir: string;
  baseUrl: string;
  /** The manifest digest the service worker is versioned by. */
  digest: string;
  /** The requests the build wrote files for: each maqām and jins realisation among them gets a picture. */
  written: Iterable<string>;
  catalog: Catalog;
  /** Whether to write the pictures (hosts with a file limit leave them to the explorer). */
  pictures: boolean;
}

export async function buildSite({ outDir, baseUrl, digest, written, catalog, pictures }: SiteOptions): Promise<SiteSummary> {
  const before = new Set(filesBesideApi(outDir));
  const client = await writeClient(outDir);
  await writePages(outDir, digest, baseUrl);
  const added = filesBesideApi(outDir).filter((f) => !before.has(f));
  if (added.length > SITE_FILES) throw new Error(`the site writes ${added.length} files, more than the ${SITE_FILES} reserved: ${added.map((f) => relative(outDir, f)).join(", ")}`);
  const drawn = pictures ? writePictures(outDir, written, catalog, baseUrl) : { files: 0, bytes: 0 };
  return { files: added.length, bytes: added.reduce((sum, f) => sum + statSync(f).size, 0), client, pictures: drawn };
}
