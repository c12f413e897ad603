/**
 * Parameters declared as data. A declaration says where a parameter is, what it accepts (type,
 * enumeration, default, whether required), what it means and how a bad value is answered; the
 * validation (`parseParams`), the discovery answers, the OpenAPI document and the docs are all
 * read off the same record. A refused value carries the exact error body, which `apiError` turns
 * into the 4xx answer. The values come from a URL, strings or absent, so each shape's rule is a
 * plain function: a schema library's parse per parameter cost more than the rule itself
 * (docs/benchmarks.md).
 */
import { apiError, type ErrorAnswer, type ErrorExtras, type ErrorSpec } from "./errors.js";
import type { Catalog } from "../theory/catalog.js";

/** What a parameter accepts; `parseValue` has one rule per shape. */
export type ParamShape =
  /** Free text. `blank`: what an empty or whitespace-only value is (a 400, the same as absent, or kept for the handler). */
  | { shape: "text"; blank: "error" | "absent" | "kept" }
  /** `true` only for the exact string `true`; anything else is false. */
  | { shape: "flag" }
  /** `true`/`false` (trimmed, any case unless `exact`); anything else is a 400. */
  | { shape: "boolean"; exact: boolean }
  /**
   * One of `values`; a blank value is a 400 or the default; `other`: any other value is a 400 or
   * the default. `absent: "handler"` passes an absent value on as undefined, for a handler that
   * must tell it from the default (discovery mode).
   */
  | { shape: "enum"; values: readonly string[]; blank: "error" | "default"; other: "error" | "default"; absent: "default" | "handler" }
  /** A non-negative number read with parseFloat; blank is the default. */
  | { shape: "cents" }
  /** Comma-separated values, trimmed, empties dropped; at least `min`, at most MAX_LIST_ITEMS. `all` alone may stand for every tuning system. */
  | { shape: "list"; min: number; allKeyword: boolean; tooFew?: ErrorSpec; tooMany?: { what: string; hint: string } }
  /** A parameter the API no longer takes: any value is a 400 naming its replacement. */
  | { shape: "retired"; replacement: string };

export interface ParamDeclaration<T = unknown> {
  in: "path" | "query";
  /** JSON type of the value in docs and OpenAPI. */
  type: "string" | "boolean" | "number" | "array";
  accepts: ParamShape;
  /** Required for a data answer; a missing value is a 400 with `hint`. */
  required: boolean;
  /** Optional for the parser (discovery mode, or checked by the handler) but needed for a data answer: examples include it. */
  neededForData?: boolean;
  default?: string | number | boolean;
  description: string;
  /** How to put it right, in the 400 bodies. */
  hint: string;
  /** Extra fields of the missing-parameter 400 (e.g. `validOptions`). */
  missingExtra?: ErrorExtras;
  /** A value that answers 200 (docs, OpenAPI and the /api index use it). */
  example?: string;
  /** A path parameter that may hold `/` (idNames, note names): it matches one or more segments. */
  slashes?: boolean;
  /** Checked by the handler instead, where the answer depends on the catalog or on other parameters (the reason is the comment at the declaration). */
  checkedByHandler?: boolean;
  /** The raw values a handler-checked parameter accepts (ECMAScript pattern), for the OpenAPI document. */
  pattern?: string;
  /** Phantom: the parsed value's type (a function type, so the optional field adds no `undefined` to it). */
  readonly __value?: () => T;
}

export type ParamDeclarations = Record<string, ParamDeclaration>;
export type ParsedParams<D extends ParamDeclarations> = { [K in keyof D]: D[K] extends ParamDeclaration<infer T> ? T : never };

type Raw = string | undefined;

/** A value refused: the error body it answers (a record no parsed value can be, by its symbol key). */
const REFUSED = Symbol("refused");
interface Refusal {
  readonly [REFUSED]: ErrorSpec;
}
type Parsed<T> = T | Refusal;

const refuse = (spec: ErrorSpec): Refusal => ({ [REFUSED]: spec });
const isRefusal = (value: unknown): value is Refusal => typeof value === "object" && value !== null && REFUSED in value;

// ---------------------------------------------------------------------------------------------
// Limits

/**
 * Limits on comma-separated lists and on the cells of a compare answer: every answer stays a
 * few megabytes and a few hundred milliseconds (a 70,000-cell compare was measured at 354 MB).
 */
export const MAX_LIST_ITEMS = 500;
export const MAX_COMPARE_CELLS = 2000;

/** The 400 for a request asking for more than a limit allows. */
export const tooMany = (what: string, count: number, max: number, hint: string): ErrorSpec => ({
  error: `Too many ${what}: ${count} (at most ${max})`,
  message: `One request may ask for at most ${max} ${what}, so that every answer stays bounded.`,
  hint,
});

/** Comma-separated list: split, trim, drop empties. */
export const splitList = (raw: string): string[] =>
  raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");

/** `tuningSystems=all`: every tuning system of the catalog, in file order (see tuningSystemIds). */
export const ALL_TUNING_SYSTEMS = { all: true } as const;
export type TuningSystemList = readonly string[] | typeof ALL_TUNING_SYSTEMS;

// ---------------------------------------------------------------------------------------------
// Validation, read off the declaration

const missing = (name: string, d: ParamDeclaration, raw: string | undefined): ErrorSpec => ({
  error: raw === undefined ? `${name} parameter is required` : `Invalid parameter: ${name} cannot be empty`,
  message: `The query parameter '${name}' is required and must not be empty.`,
  hint: d.hint,
  extra: d.missingExtra,
});

const invalidBoolean = (name: string, raw: string, blank: boolean): ErrorSpec => ({
  error: blank ? `Invalid parameter: ${name} cannot be empty` : `Invalid parameter: ${name} must be 'true' or 'false', got '${raw}'`,
  message: `${name} accepts only 'true' or 'false'.`,
  hint: `Use ${name}=true or ${name}=false.`,
  extra: { validOptions: ["true", "false"] },
});

const invalidEnum = (name: string, raw: string, values: readonly string[]): ErrorSpec => ({
  error: raw === "" ? `Invalid parameter: ${name} cannot be empty` : `Invalid ${name} '${raw}'`,
  message: `${name} must be one of: ${values.join(", ")}.`,
  hint: `Use one of: ${values.join(", ")}.`,
  extra: { validOptions: [...values] },
});

const blankText = (name: string, d: ParamDeclaration): ErrorSpec =>
  d.in === "path"
    ? { error: `Invalid path parameter: ${name}`, message: `The path parameter '${name}' cannot be empty.`, hint: d.hint }
    : { error: `Invalid parameter: ${name}`, message: `${name} cannot be empty when given.`, hint: d.hint };

const isBlank = (raw: string) => raw.trim() === "";

/** The value of one parameter (already known present unless the shape allows absence). */
function parseValue(name: string, d: ParamDeclaration, raw: Raw): Parsed<unknown> {
  const a = d.accepts;
  switch (a.shape) {
    case "text":
      if (raw === undefined) return d.default;
      if (!isBlank(raw) || a.blank === "kept") return raw;
      return a.blank === "absent" ? d.default : refuse(blankText(name, d));
    case "flag":
      return raw === undefined ? (d.default ?? false) : raw === "true";
    case "boolean": {
      if (raw === undefined) return d.default ?? false;
      const v = a.exact ? raw : raw.trim().toLowerCase();
      if (v === "true" || v === "false") return v === "true";
      return refuse(invalidBoolean(name, raw, v === ""));
    }
    case "enum":
      if (raw === undefined) return a.absent === "handler" ? undefined : d.default;
      if (raw === "" && a.blank === "default") return d.default;
      if (a.values.includes(raw)) return raw;
      return a.other === "default" ? d.default : refuse(invalidEnum(name, raw, a.values));
    case "cents": {
      if (raw === undefined || raw === "") return d.default;
      const v = parseFloat(raw);
      if (Number.isNaN(v) || v < 0) return refuse({ error: `Invalid ${name} parameter`, message: `${name} must be a non-negative number`, hint: d.hint });
      return v;
    }
    case "list":
      return raw === undefined ? d.default : parseList(name, d, a, raw);
    case "retired":
      return raw === undefined
        ? undefined
        : refuse({ error: `Invalid parameter: ${name}`, message: `${name} is no longer supported.`, hint: `Use ${a.replacement} instead.` });
  }
}

function parseList(name: string, d: ParamDeclaration, a: Extract<ParamShape, { shape: "list" }>, raw: string): Parsed<TuningSystemList> {
  const items = splitList(raw);
  const many = a.tooMany ?? { what: `values in ${name}`, hint: `Split the request into several of at most ${MAX_LIST_ITEMS} values.` };
  if (items.length > MAX_LIST_ITEMS) return refuse(tooMany(many.what, items.length, MAX_LIST_ITEMS, many.hint));
  if (items.length < a.min)
    return refuse(
      a.tooFew ?? {
        error: `Invalid parameter: ${name}`,
        message: `'${name}' must name at least one value (comma-separated).`,
        hint: `Use ${name}=${d.example}.`,
      },
    );
  if (!a.allKeyword || !items.some((id) => id.toLowerCase() === "all")) return items;
  if (items.length === 1) return ALL_TUNING_SYSTEMS;
  return refuse({
    error: `Invalid parameter: ${name}`,
    message: `${name}=all is exclusive and cannot be combined with other IDs.`,
    hint: `Use ${name}=all by itself, or list explicit IDs without 'all'.`,
  });
}

/** One declared parameter's value, or its refusal: required first, then its shape's rule. */
function parameterValue(name: string, d: ParamDeclaration, raw: Raw): Parsed<unknown> {
  if (d.in === "query" && d.required && !d.checkedByHandler && (raw === undefined || isBlank(raw))) return refuse(missing(name, d, raw));
  return parseValue(name, d, raw);
}

export type ParamsResult<D extends ParamDeclarations> = { ok: true; params: ParsedParams<D> } | { ok: false; answer: ErrorAnswer };

/**
 * Validates a route's raw parameters against its declarations, in declaration order: the first
 * failing parameter answers (its 4xx body), else every value parsed.
 */
export function parseParams<D extends ParamDeclarations>(declarations: D, input: Record<string, Raw>): ParamsResult<D> {
  const params: Record<string, unknown> = {};
  for (const name in declarations) {
    const value = parameterValue(name, declarations[name], input[name]);
    if (isRefusal(value)) return { ok: false, answer: apiError(value[REFUSED]) };
    params[name] = value;
  }
  return { ok: true, params: params as ParsedParams<D> };
}

/** The ids a `tuningSystems` parameter stands for in a catalog. */
export const tuningSystemIds = (cat: Catalog, list: TuningSystemList): readonly string[] => ("all" in list ? cat.tuningSystems.map((ts) => ts.id) : list);
