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

/** Text with a character other than whitespace: what a parameter that refuses blank values takes. */
const NOT_BLANK = { minLength: 1, pattern: "\\S" };

/** `true`/`false` in any case, blanks around: what a switch read trimmed and case-blind takes (a JSON Schema boolean takes the exact words only). */
const LENIENT_BOOLEAN = "^\\s*(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])\\s*$";

/**
 * JSON Schema of a parameter's raw value, exactly as strict as its validator: an enumeration only
 * where other values are refused, no blank value where a blank is refused, a lenient switch as the
 * text it is (only `true` switches it on), and the values a handler checks as its pattern.
 */
export function parameterSchema(d: ParamDeclaration): Record<string, unknown> {
  const a = d.accepts;
  const schema: Record<string, unknown> = d.pattern
    ? { type: "string", pattern: d.pattern }
    : d.type === "array"
      ? { type: "string", description: "Comma-separated values." }
      : a.shape === "flag"
        ? { type: "string" }
        : a.shape === "boolean" && !a.exact
          ? { type: "string", pattern: LENIENT_BOOLEAN }
          : { type: d.type };
  if (a.shape === "enum" && a.other === "error") schema.enum = a.blank === "default" ? [...a.values, ""] : [...a.values];
  // A required parameter the handler checks refuses a blank value too.
  if ((a.shape === "text" && a.blank === "error") || (d.checkedByHandler && d.required && !d.pattern)) Object.assign(schema, NOT_BLANK);
  // At least one value that is not blank between the commas.
  if (a.shape === "list" && a.min > 0) schema.pattern = "[^,\\s]";
  if (a.shape === "cents") schema.minimum = 0;
  if (d.default !== undefined) schema.default = schema.type === "string" ? String(d.default) : d.default;
  return schema;
}
