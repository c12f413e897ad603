/**
 * The fallback as a web-standard module worker, bundled by the build into `build/_worker.js`.
 * Under Cloudflare Pages (advanced mode) or Workers with static assets it serves pre-rendered
 * files through `env.ASSETS` and computes the rest; with no `ASSETS` binding (workerd alone,
 * `deno serve`, Bun, a Netlify edge function, a Lambda) it answers every /api request itself.
 * Facts are bundled in; the catalog is made on the first request, not at import.
 */
import { bundledFacts } from "../data/bundled.js";
import { createCatalog, type Catalog } from "../theory/catalog.js";
import { routes } from "../api/routes.js";
import { isDownloadPath, requestOfStaticFile } from "../api/staticPath.js";
import { datasetTypeOf, isDatasetFile } from "../api/datasets/files.js";
import { handleRequest, type AssetReader } from "./handler.js";

/** A service binding, as Cloudflare passes `env.ASSETS`. */
export interface Fetcher {
  fetch(input: Request | string): Promise<Response>;
}

export interface WorkerEnv {
  ASSETS?: Fetcher;
  /** Scheme + host of absolute links; default the address the build was made for. */
  BASE_URL?: string;
}

/**
 * The files a build may have written: route name → the query shapes of the requests it planned
 * (parameter names in canonical order joined by `&`, `` for none). Where its host's limits left a
 * file out, the asset is missing and the answer is computed.
 */
export type WrittenShapes = Record<string, readonly string[]>;

// The build defines them: the BASE_URL the files were rendered for (so files and computed answers
// agree) and the shapes of the requests it planned.
declare const BUILD_BASE_URL: string | undefined;
declare const BUILD_WRITTEN: WrittenShapes | undefined;
const builtFor = (): string | undefined => (typeof BUILD_BASE_URL === "string" ? BUILD_BASE_URL : undefined);
const writtenByBuild = (): WrittenShapes | undefined => (typeof BUILD_WRITTEN === "object" ? BUILD_WRITTEN : undefined);

/** Whether a file path (as staticFileOf names it) has a route and query shape the build wrote files for. */
export function writtenFiles(shapes: WrittenShapes): (file: string) => boolean {
  const written = new Set(Object.entries(shapes).flatMap(([route, queries]) => queries.map((q) => `${route}?${q}`)));
  return (file) => {
    // The datasets are no route's answers: the build writes them whole, and only as files.
    if (isDatasetFile(file)) return true;
    const request = requestOfStaticFile(file);
    if (!request) return false;
    const route = routes.find((r) => r.matcher.test(request.path));
    return route !== undefined && written.has(`${route.name}?${[...request.query.keys()].join("&")}`);
  };
}

/**
 * Whether a host's Content-Type is the one it gives a file of this name: JSON for the answers; for
 * the Scala and AnaMark downloads plain text (the build's own header rules) or the octet-stream
 * type hosts give an extension they do not know. Never HTML: that is a host's landing or
 * not-found page standing in for a missing file (a single-page-application fallback).
 */
export function expectedType(file: string, contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (isDownloadPath(`/${file}`)) return type === "" || type === "text/plain" || type.endsWith("/octet-stream");
  const dataset = datasetTypeOf(`/${file}`);
  if (dataset) return type === "" || type === dataset.split(";")[0] || type.endsWith("/octet-stream");
  return type === "application/json";
}

/**
 * Pre-rendered files through an assets binding. A file counts only when it is of a shape the build
 * wrote (`written`, when given: the binding is not asked for any other) and it comes with status 200
 * and the file's type: Cloudflare Pages without a top-level 404.html, or Workers assets in
 * single-page-application mode, answer a missing file with index.html and 200. A binding that
 * cannot be reached is no file either. The answer is then computed, with the same bytes.
 */
export function fetcherAssets(assets: Fetcher, origin: string, written?: (file: string) => boolean): AssetReader {
  return async (file) => {
    if (written && !written(file)) return undefined;
    const response = await assets.fetch(new Request(`${origin}/api/${file}`)).catch(() => undefined);
    if (!response) return undefined;
    if (response.status !== 200 || !expectedType(file, response.headers.get("content-type"))) {
      await response.body?.cancel();
      return undefined;
    }
    return { body: new Uint8Array(await response.arrayBuffer()) };
  };
}

let catalog: Catalog | undefined;
let written: ((file: string) => boolean) | undefined;

/** deno serve and Bun pass their own objects in `env`'s place: only a real binding counts. */
const bindingOf = (env: unknown): Fetcher | undefined => {
  const assets = (env as WorkerEnv | undefined)?.ASSETS;
  return assets && typeof assets.fetch === "function" ? assets : undefined;
};

export default {
  async fetch(request: Request, env?: WorkerEnv): Promise<Response> {
    catalog ??= createCatalog(bundledFacts(), "isolate");
    const shapes = writtenByBuild();
    written ??= shapes && writtenFiles(shapes);
    const origin = new URL(request.url).origin;
    const assets = bindingOf(env);
    const baseUrl = (typeof env?.BASE_URL === "string" ? env.BASE_URL : undefined) ?? builtFor() ?? origin;
    return handleRequest(request, {
      catalog,
      baseUrl: baseUrl.replace(/\/+$/, ""),
      assets: assets && fetcherAssets(assets, origin, written),
      outside: assets && ((r) => assets.fetch(r)),
    });
  },
};
