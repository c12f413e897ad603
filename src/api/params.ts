/**
 * Query-parameter vocabulary shared by every route, as zod schemas. A failed check carries the
 * exact error body in the issue's `params`, so one converter turns any failure into the 4xx answer.
 */
import { z } from "zod";
import { apiError, type ApiResponse, type ErrorSpec } from "./errors.js";
import type { Catalog } from "../theory/catalog.js";

export type Raw = string | undefined;

/** Adds an issue whose params carry the full error body. */
export function fail(ctx: z.RefinementCtx, spec: ErrorSpec): typeof z.NEVER {
  ctx.addIssue({ code: z.ZodIssueCode.custom, params: spec, message: spec.message });
  return z.NEVER;
}

/** Converts a failed parse into the API's 4xx body (the first issue wins). */
export function issueToResponse(issues: z.ZodIssue[]): ApiResponse {
  const issue = issues[0];
  const spec = issue.code === z.ZodIssueCode.custom ? (issue.params as ErrorSpec | undefined) : undefined;
  if (spec) return apiError(spec);
  const name = issue.path.join(".");
  return apiError({ error: `Invalid parameter: ${name}`, message: issue.message, hint: `Check the value of '${name}'.` });
}

/** A lenient boolean flag: true only for the exact string `true`. */
export const flag = () => z.string().optional().transform((v) => v === "true");

/**
 * A strict boolean: absent = default; otherwise `true`/`false` (case-insensitive, trimmed, unless
 * `exact`: the compare endpoints' `includeIntervals` accepts only the exact strings).
 */
export const strictBoolean = (name: string, fallback = false, { exact = false } = {}) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return fallback;
      const v = exact ? raw : raw.trim().toLowerCase();
      if (v === "true") return true;
      if (v === "false") return false;
      return fail(ctx, {
        error: v === "" ? `Invalid parameter: ${name} cannot be empty` : `Invalid parameter: ${name} must be 'true' or 'false', got '${raw}'`,
        message: `${name} accepts only 'true' or 'false'.`,
        hint: `Use ${name}=true or ${name}=false.`,
        extra: { validOptions: ["true", "false"] },
      });
    });

export const includeArabic = () => strictBoolean("includeArabic");

/** Tolerance in cents; absent or empty = 5; `parseFloat` semantics; negative or NaN is a 400. */
export const centsTolerance = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return 5;
      const v = parseFloat(raw);
      if (Number.isNaN(v) || v < 0)
        return fail(ctx, {
          error: "Invalid centsTolerance parameter",
          message: "centsTolerance must be a non-negative number",
          hint: "Use a number of cents such as centsTolerance=5.",
        });
      return v;
    });

/** A required, non-blank string parameter. */
export const required = (name: string, hint: string, extra?: Record<string, unknown>) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === "")
        return fail(ctx, {
          error: raw === undefined ? `${name} parameter is required` : `Invalid parameter: ${name} cannot be empty`,
          message: `The query parameter '${name}' is required and must not be empty.`,
          hint,
          extra,
        });
      return raw;
    });

/** An optional string that must not be blank when given. */
export const optionalNonBlank = (name: string, hint: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw !== undefined && raw.trim() === "")
        return fail(ctx, {
          error: `Invalid parameter: ${name}`,
          message: `${name} cannot be empty when given.`,
          hint,
        });
      return raw;
    });

/** One of a fixed set of values; absent = default (may be undefined); blank or other values are a 400 listing them. */
export const oneOf = <T extends string, D extends T | undefined = T>(name: string, values: readonly T[], fallback: D) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): T | D => {
      if (raw === undefined) return fallback;
      if ((values as readonly string[]).includes(raw)) return raw as T;
      return fail(ctx, {
        error: raw === "" ? `Invalid parameter: ${name} cannot be empty` : `Invalid ${name} '${raw}'`,
        message: `${name} must be one of: ${values.join(", ")}.`,
        hint: `Use one of: ${values.join(", ")}.`,
        extra: { validOptions: [...values] },
      });
    });

/** Comma-separated list: split, trim, drop empties. */
export const splitList = (raw: string): string[] =>
  raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");

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

/** splitList that fails the parse when the list is longer than MAX_LIST_ITEMS. */
function boundedList(name: string, raw: string, ctx: z.RefinementCtx): string[] | typeof z.NEVER {
  const items = splitList(raw);
  if (items.length <= MAX_LIST_ITEMS) return items;
  return fail(ctx, tooMany(`values in ${name}`, items.length, MAX_LIST_ITEMS, `Split the request into several of at most ${MAX_LIST_ITEMS} values.`));
}

/** Treats an empty value like an absent one (the parameter's default applies). */
export const emptyAsAbsent = <T extends z.ZodType>(schema: T): z.ZodType<z.output<T>, string | undefined> =>
  z.preprocess((v) => (v === "" ? undefined : v), schema) as z.ZodType<z.output<T>, string | undefined>;

/** A path parameter: decoded text that must not be blank. */
export const pathParameter = (name: string) =>
  z.string().transform((raw, ctx) => {
    if (raw.trim() === "")
      return fail(ctx, {
        error: `Invalid path parameter: ${name}`,
        message: `The path parameter '${name}' cannot be empty.`,
        hint: `Give a value for '${name}' in the path.`,
      });
    return raw;
  });

const emptyList = (name: string, example: string): ErrorSpec => ({
  error: `Invalid parameter: ${name}`,
  message: `'${name}' must name at least one value (comma-separated).`,
  hint: `Use ${example}.`,
});

/** `tuningSystems=all`: every tuning system of the catalog, in file order (see tuningSystemIds). */
export const ALL_TUNING_SYSTEMS = { all: true } as const;

/** The ids a `tuningSystems` parameter stands for in a catalog. */
export const tuningSystemIds = (cat: Catalog, list: readonly string[] | typeof ALL_TUNING_SYSTEMS): readonly string[] =>
  "all" in list ? cat.tuningSystems.map((ts) => ts.id) : list;

/**
 * The comma-separated `tuningSystems` of the compare endpoints: required; `all` (any case) alone
 * means every tuning system, and is a 400 together with explicit ids. With `atLeastOne` (maqām
 * and jins compare), a list of only commas is a 400 too.
 */
export const tuningSystemList = ({ atLeastOne = false } = {}) =>
  required("tuningSystems", "Add tuningSystems=ibnsina_1037,alfarabi_950g (comma-separated ids) or tuningSystems=all.").transform(
    (raw, ctx) => {
      const ids = boundedList("tuningSystems", raw, ctx);
      if (ids === z.NEVER) return z.NEVER;
      if (atLeastOne && ids.length === 0) return fail(ctx, emptyList("tuningSystems", "tuningSystems=ibnsina_1037,alfarabi_950g"));
      if (!ids.some((id) => id.toLowerCase() === "all")) return ids;
      if (ids.length === 1) return ALL_TUNING_SYSTEMS;
      return fail(ctx, {
        error: "Invalid parameter: tuningSystems",
        message: "tuningSystems=all is exclusive and cannot be combined with other IDs.",
        hint: "Use tuningSystems=all by itself, or list explicit IDs without 'all'.",
      });
    },
  );

/** A required comma-separated list (trimmed, empties dropped) that must name at least one value. */
export const requiredList = (name: string, example: string) =>
  required(name, `Use ${example}.`).transform((raw, ctx) => {
    const items = boundedList(name, raw, ctx);
    if (items === z.NEVER) return z.NEVER;
    return items.length ? items : fail(ctx, emptyList(name, example));
  });
