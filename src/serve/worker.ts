/**
 * The fallback as a web-standard module worker, bundled by the build into `build/_worker.js`.
 * Under Cloudflare Pages (advanced mode) or Workers with static assets it serves pre-rendered
 * files through `env.ASSETS` and computes the rest; with no `ASSETS` binding (workerd alone,
 * `deno serve`, Bun, a Netlify edge function, a Lambda) it answers every /api request itself.
 * Facts are bundled in; the catalog is made on the first request, not at import.
 */
import { bundledFacts } from "../data/bundled.js";
import { createCatalog, type Catalog } from "../theory/catalog.js";
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

// The build defines it as the BASE_URL the files were rendered for, so files and computed answers agree.
declare const BUILD_BASE_URL: string | undefined;
const builtFor = (): string | undefined => (typeof BUILD_BASE_URL === "string" ? BUILD_BASE_URL : undefined);

/**
 * Pre-rendered files through an assets binding: a 200 is the file, anything else is no file. A
 * binding that cannot be reached is no file either: the answer is then computed, with the same bytes.
 */
export function fetcherAssets(assets: Fetcher, origin: string): AssetReader {
  return async (file) => {
    const response = await assets.fetch(new Request(`${origin}/api/${file}`)).catch(() => undefined);
    if (!response) return undefined;
    if (response.status !== 200) {
      await response.body?.cancel();
      return undefined;
    }
    return { body: new Uint8Array(await response.arrayBuffer()) };
  };
}

let catalog: Catalog | undefined;

/** deno serve and Bun pass their own objects in `env`'s place: only a real binding counts. */
const bindingOf = (env: unknown): Fetcher | undefined => {
  const assets = (env as WorkerEnv | undefined)?.ASSETS;
  return assets && typeof assets.fetch === "function" ? assets : undefined;
};

export default {
  async fetch(request: Request, env?: WorkerEnv): Promise<Response> {
    catalog ??= createCatalog(bundledFacts(), "isolate");
    const origin = new URL(request.url).origin;
    const assets = bindingOf(env);
    const baseUrl = (typeof env?.BASE_URL === "string" ? env.BASE_URL : undefined) ?? builtFor() ?? origin;
    return handleRequest(request, {
      catalog,
      baseUrl: baseUrl.replace(/\/+$/, ""),
      assets: assets && fetcherAssets(assets, origin),
      outside: assets && ((r) => assets.fetch(r)),
    });
  },
};
