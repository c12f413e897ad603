/**
 * The site's service worker (build/sw.js): on a host that only serves files it answers every
 * request below /api in the browser, with the pre-rendered file when the build has it and the
 * bundled engine otherwise, through the same handler as the Node server, so the bytes are equal.
 * The build writes its manifest digest in, so a new build is a new worker, which the browser
 * installs on the next visit and which takes over the open pages at once (it keeps no cache of its
 * own: files go through the browser's HTTP cache, so nothing of an old build outlives it).
 */
import { DATASET_FILE } from "../api/datasets/files.js";
import { fetcherAssets } from "../serve/worker.js";
import { createEngine } from "./engine.js";

// Defined by the build: the manifest digest and the address the files were rendered for.
declare const BUILD_DIGEST: string;
declare const BUILD_BASE_URL: string;

/** The parts of the service worker scope used here (the DOM library does not declare them). */
interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface WorkerScope {
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: { origin: string };
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
}

export const VERSION = `maqam-${BUILD_DIGEST}`;
const scope = self as unknown as WorkerScope;
const origin = scope.location.origin;
// The files come from the network: a fetch made here does not pass through this worker again.
const answer = createEngine({ baseUrl: BUILD_BASE_URL, assets: fetcherAssets({ fetch: (r) => fetch(r) }, origin) });

scope.addEventListener("install", (event) => event.waitUntil(scope.skipWaiting()));
scope.addEventListener("activate", (event) => event.waitUntil(scope.clients.claim()));
scope.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== origin || !(url.pathname === "/api" || url.pathname.startsWith("/api/"))) return;
  // A range request (the SQL page reading the database or a Parquet file page by page) and the
  // datasets' files, which are never computed, go to the network untouched: the host answers 206.
  if (event.request.headers.has("range") || DATASET_FILE.test(url.pathname.slice("/api".length))) return;
  event.respondWith(answer(event.request));
});
