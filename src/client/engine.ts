/**
 * The engine as the browser loads it: the facts bundled in, the catalog made on first use, and
 * the web-standard handler answering requests exactly as the Node server does. The client
 * imports this module lazily (its own chunk); the service worker bundles it.
 */
import { bundledFacts } from "../data/bundled.js";
import { createCatalog, type Catalog } from "../theory/catalog.js";
import { handleRequest, type AssetReader } from "../serve/handler.js";

let catalog: Catalog | undefined;

export interface EngineOptions {
  /** Scheme + host of absolute links in computed answers: the build's, so they equal its files. */
  baseUrl: string;
  /** Pre-rendered files; without it every answer is computed. */
  assets?: AssetReader;
}

/** A request handler over the bundled facts; the catalog is shared by every engine of the page. */
export function createEngine({ baseUrl, assets }: EngineOptions): (request: Request) => Promise<Response> {
  return (request) => {
    catalog ??= createCatalog(bundledFacts());
    return handleRequest(request, { catalog, baseUrl: baseUrl.replace(/\/+$/, ""), assets });
  };
}
