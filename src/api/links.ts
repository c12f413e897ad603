/** Absolute links in response bodies, from the base URL the build or server was given. */
import type { RequestContext } from "./route.js";

export const apiUrl = (ctx: RequestContext, path: string): string => `${ctx.baseUrl}/api${path}`;

/** The request's own URL: its path and its query as received (re-serialised). */
export function selfUrl(ctx: RequestContext): string {
  const query = ctx.query.toString();
  return apiUrl(ctx, ctx.path) + (query ? `?${query}` : "");
}

/** `?k=v&…` from pairs, skipping undefined values, encoded like URLSearchParams. */
export function queryString(pairs: [string, string | undefined][]): string {
  const q = new URLSearchParams();
  for (const [k, v] of pairs) if (v !== undefined) q.append(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}
