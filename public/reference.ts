/**
 * The API reference: Swagger UI (from the swagger-ui-dist package, served from this build, so an
 * offline mirror works) over the build's own /api/openapi.json, whose server is the relative
 * `/api`, so "Try it out" asks the host the page came from. The page's bar follows the site's
 * language; the reference itself is the document's (English).
 */
import { applyLanguage } from "./i18n.js";

declare const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;

applyLanguage((t) => `${t.referenceTitle} · ${t.pageTitle}`);
SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#reference",
  // No validator badge: it would send the document to an outside service.
  validatorUrl: null,
  // No deep links: Swagger UI puts them as links inside each operation's button (nested interactive controls).
  deepLinking: false,
  docExpansion: "list",
  defaultModelsExpandDepth: -1,
  tryItOutEnabled: true,
  // Swagger UI labels its servers select by a neighbouring text only: name it.
  onComplete: () => document.getElementById("servers")?.setAttribute("aria-label", "Servers"),
});
