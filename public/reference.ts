/**
 * The API reference: Swagger UI (from the swagger-ui-dist package, served from this build, so an
 * offline mirror works) over the build's own /api/openapi.json.
 */
declare const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;

SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#reference",
  // No validator badge: it would send the document to an outside service.
  validatorUrl: null,
  deepLinking: true,
  docExpansion: "list",
  defaultModelsExpandDepth: -1,
  tryItOutEnabled: true,
});
