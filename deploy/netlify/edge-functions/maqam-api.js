// Netlify Edge Function over build/_worker.js. Its assets are Netlify's own static files: for a
// request with a pre-rendered file the worker passes a request for that file down Netlify's chain
// (`context.next`), which serves the published file; the worker takes it only when it is a file the
// build wrote, answered with 200 and its type (not a 404.html or a rewrite to the landing page);
// everything else it computes, with the same bytes. `cache: "manual"` lets Netlify keep the
// answers (Cache-Control), keyed by path and query.
import worker from "../../../build/_worker.js";

export default (request, context) => worker.fetch(request, { ASSETS: { fetch: (input) => context.next(new Request(input)) } });

export const config = { path: ["/api", "/api/*"], cache: "manual" };
