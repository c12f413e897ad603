/**
 * What the API says of itself, read off the route records: an example request per endpoint and
 * the parameters as the index and the OpenAPI document list them.
 */
import type { ParamDeclaration } from "./params.js";
import type { Route } from "./route.js";

/** Whether an example request includes the parameter: required, or needed for a data answer. */
const inExample = (d: ParamDeclaration) => d.in === "query" && (d.required || d.neededForData === true) && d.example !== undefined;

/**
 * The example request of a route (path below /api and canonical query: parameters sorted by
 * name), built from its declarations' examples: the path parameters and every parameter a data
 * answer needs.
 */
export function exampleRequest(route: Route): { path: string; query: URLSearchParams } {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => route.params[name]?.example ?? name);
  const pairs = Object.entries(route.params)
    .filter(([, d]) => inExample(d))
    .map(([name, d]): [string, string] => [name, d.example ?? ""])
    .concat(Object.entries(route.exampleQuery))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { path, query: new URLSearchParams(pairs) };
}

/** `path?query` of the example request, with commas and slashes left readable. */
export function exampleTarget(route: Route): string {
  const { path, query } = exampleRequest(route);
  const q = [...query].map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ",").replace(/%2F/g, "/")}`).join("&");
  return q ? `${path}?${q}` : path;
}

/** Names of the parameters a data answer needs (path parameters first). */
export const requiredParameters = (route: Route): string[] =>
  Object.entries(route.params)
    .filter(([, d]) => d.in === "path" || d.required || d.neededForData === true)
    .map(([name]) => name);

/** An operation id from the path template: `GET /maqamat/{idName}/compare` → `getMaqamatIdNameCompare`. */
export const operationId = (route: Route): string =>
  "get" +
  (route.path
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("") || "Index");

/** JSON Schema of a parameter's raw value, with its enumeration and default. */
export function parameterSchema(d: ParamDeclaration): Record<string, unknown> {
  const schema: Record<string, unknown> =
    d.type === "array" ? { type: "string", description: "Comma-separated values." } : d.type === "number" ? { type: "number" } : { type: d.type };
  if (d.accepts.shape === "enum") schema.enum = [...d.accepts.values];
  if (d.accepts.shape === "cents") schema.minimum = 0;
  if (d.default !== undefined) schema.default = d.default;
  return schema;
}
