/** The landing page: the language, the explorer, and the service worker that answers /api in the browser. */
import { applyLanguage } from "./i18n.js";
import { startExplorer } from "./explorer.js";

applyLanguage((t) => t.pageTitle);
startExplorer();
// Registered once the page has loaded: the worker bundles the engine, which the first view does not need.
if ("serviceWorker" in navigator)
  addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch((e: unknown) => console.warn("service worker not registered:", e));
  });
