// Netlify Edge Function over build/_worker.js: pre-rendered files are fetched from the site
// itself (file URLs are excluded from this function, so Netlify's CDN answers them); every
// other /api request is computed here, with the same bytes as the files.
import worker from "../../../build/_worker.js";

export default (request) => worker.fetch(request, { ASSETS: { fetch: (input) => fetch(input) } });

export const config = { path: ["/api", "/api/*"], excludedPath: ["/api/*.json"] };
