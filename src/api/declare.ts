/**
 * Constructors of parameter declarations (params.ts), one per shape, and the parameters many
 * routes share. Each returns plain data typed with the value its validator yields.
 */
import type { ErrorExtras, ErrorSpec } from "./errors.js";
import { DEFAULT_CENTS_TOLERANCE } from "../theory/defaults.js";
import type { ParamDeclaration, TuningSystemList } from "./params.js";

interface Described {
  description: string;
  example?: string;
}

/**
 * A path segment: decoded text that must not be blank (unless `blank` keeps it for the handler's
 * lookup); with `slashes`, one or more segments (idNames and note names may contain `/`).
 */
export const pathParam = ({
  description,
  example,
  blank = "error",
  slashes,
}: Described & { blank?: "error" | "kept"; slashes?: true }): ParamDeclaration<string> => ({
  in: "path",
  type: "string",
  accepts: { shape: "text", blank },
  required: true,
  description,
  hint: "Give a value for this segment of the path.",
  example,
  ...(slashes ? { slashes } : {}),
});

/** A required query text: missing or blank is a 400 with `hint`. */
export const requiredText = (d: Described & { hint: string; missingExtra?: ErrorExtras }): ParamDeclaration<string> => ({
  in: "query",
  type: "string",
  accepts: { shape: "text", blank: "error" },
  required: true,
  ...d,
});

/**
 * An optional query text. `blank`: a blank value is a 400 (`error`), means the default
 * (`absent`) or is passed on for the handler to judge (`kept`).
 */
type OptionalText = Described & { hint?: string; neededForData?: boolean };
export function optionalText(d: OptionalText & { blank: "absent"; default: string }): ParamDeclaration<string>;
export function optionalText(d: OptionalText & { blank: "error" | "absent" | "kept" }): ParamDeclaration<string | undefined>;
export function optionalText(d: OptionalText & { blank: "error" | "absent" | "kept"; default?: string }): ParamDeclaration<string | undefined> {
  return {
    in: "query",
    type: "string",
    accepts: { shape: "text", blank: d.blank },
    required: false,
    neededForData: d.neededForData,
    description: d.description,
    example: d.example,
    default: d.default,
    hint: d.hint ?? `Leave it out, or give a value such as ${d.example ?? "one listed in the docs"}.`,
  };
}

/**
 * A query text the handler checks itself, in the specification's order of checks (the
 * modulation-route search, whose 400s name valid options from the catalog).
 */
export const handlerChecked = (
  d: Described & { required: boolean; type?: "string" | "number" | "array"; default?: string | number; pattern?: string },
): ParamDeclaration<string | undefined> => ({
  in: "query",
  type: d.type ?? "string",
  ...(d.pattern ? { pattern: d.pattern } : {}),
  accepts: { shape: "text", blank: "kept" },
  required: d.required,
  default: d.default,
  description: d.description,
  example: d.example,
  hint: "",
  checkedByHandler: true,
});

/** A lenient switch: on only for the exact string `true`. */
export const flag = (description: string): ParamDeclaration<boolean> & { type: "boolean"; default: false } => ({
  in: "query",
  type: "boolean",
  accepts: { shape: "flag" },
  required: false,
  default: false,
  description,
  hint: "Use true to switch it on.",
});

/** A strict switch: `true` or `false` (trimmed, any case, unless `exact`), anything else a 400. */
export const strictBoolean = (description: string, { fallback = false, exact = false } = {}): ParamDeclaration<boolean> => ({
  in: "query",
  type: "boolean",
  accepts: { shape: "boolean", exact },
  required: false,
  default: fallback,
  description,
  hint: "Use true or false.",
});

interface EnumOptions<V extends string> extends Described {
  /** A blank value: a 400 (`error`) or the default. */
  blank?: "error" | "default";
  /** Any other value: a 400 listing the values (`error`, the usual) or the default. */
  other?: "error" | "default";
  required?: { hint: string };
  /** The default the docs state when the handler, not the parser, applies it. */
  documentedDefault?: V;
}

/** One of a fixed set of values; anything else is a 400 listing them (`validOptions`). Absent: `fallback`. */
export function oneOf<V extends string>(values: readonly V[], o: EnumOptions<NoInfer<V>> & { fallback: NoInfer<V> }): ParamDeclaration<V>;
/** Without a fallback the handler sees `undefined` when the value is absent. */
export function oneOf<V extends string>(values: readonly V[], o: EnumOptions<NoInfer<V>> & { fallback: undefined }): ParamDeclaration<V | undefined>;
export function oneOf<V extends string>(values: readonly V[], o: EnumOptions<V> & { fallback: V | undefined }): ParamDeclaration<V | undefined> {
  return {
    in: "query",
    type: "string",
    accepts: { shape: "enum", values, blank: o.blank ?? "error", other: o.other ?? "error", absent: o.fallback === undefined ? "handler" : "default" },
    required: o.required !== undefined,
    default: o.fallback ?? o.documentedDefault,
    description: o.description,
    example: o.example,
    hint: o.required?.hint ?? `Use one of: ${values.join(", ")}.`,
    missingExtra: o.required ? { validOptions: [...values] } : undefined,
  };
}

/** Comma-separated values, at least `min` of them (1 unless said). */
export const list = (
  d: Described & { example: string; hint: string; min?: number; tooFew?: ErrorSpec; tooMany?: { what: string; hint: string } },
): ParamDeclaration<readonly string[]> => ({
  in: "query",
  type: "array",
  accepts: { shape: "list", min: d.min ?? 1, allKeyword: false, tooFew: d.tooFew, tooMany: d.tooMany },
  required: true,
  description: d.description,
  example: d.example,
  hint: d.hint,
});

// ---------------------------------------------------------------------------------------------
// Shared parameters

export const includeArabic = (): ParamDeclaration<boolean> =>
  strictBoolean("Add the Arabic-script twin (`…Ar`) of every name: note names, maqāmāt, ajnās, tuning systems and sources.");

export const includeSources = () => flag("Include the page references (sourceId, page) of each item.");

/** Tolerance in cents; absent or empty = the default; `parseFloat` semantics; negative or NaN is a 400. */
export const centsTolerance = (): ParamDeclaration<number> & { type: "number"; default: number } => ({
  in: "query",
  type: "number",
  accepts: { shape: "cents" },
  required: false,
  default: DEFAULT_CENTS_TOLERANCE,
  description: "Tolerance in cents when matching pitch classes (transpositions, ajnās, modulations); a non-negative number.",
  hint: `Use a number of cents such as centsTolerance=${DEFAULT_CENTS_TOLERANCE}.`,
  example: String(DEFAULT_CENTS_TOLERANCE),
});

/**
 * The comma-separated `tuningSystems` of the compare endpoints: `all` (any case) alone means every
 * tuning system, and is a 400 together with explicit ids. With `min` 1 (maqām and jins compare), a
 * list of only commas is a 400 too.
 */
export const tuningSystemList = ({ min = 0 } = {}): ParamDeclaration<TuningSystemList> => ({
  in: "query",
  type: "array",
  accepts: { shape: "list", min, allKeyword: true },
  required: true,
  description: "Comma-separated tuning-system ids, or `all` by itself for every tuning system.",
  hint: "Add tuningSystems=ibnsina_1037,alfarabi_950g (comma-separated ids) or tuningSystems=all.",
  example: "ibnsina_1037,alfarabi_950g",
});

const DATA_TYPE_DESCRIPTION = "Which data each pitch class carries: `all`, or one field such as cents, fraction or frequency.";

/** `pitchClassDataType` with a default: which data fields each pitch class carries. */
export const pitchClassDataType = <V extends string>(values: readonly V[], fallback: NoInfer<V>, { blank = "error" }: { blank?: "error" | "default" } = {}) =>
  oneOf(values, { fallback, blank, description: DATA_TYPE_DESCRIPTION, example: "cents" });

/** `pitchClassDataType` whose absence the handler resolves (documented as `documentedDefault`). */
export const optionalPitchClassDataType = <V extends string>(values: readonly V[], documentedDefault?: V) =>
  oneOf(values, { fallback: undefined, documentedDefault, description: DATA_TYPE_DESCRIPTION, example: "cents" });

export const tuningSystemIdPath = () => pathParam({ description: "Tuning-system id, as /api/tuning-systems lists them.", example: "ibnsina_1037" });
export const startingNotePath = () =>
  pathParam({ description: "Starting note (idName) of the tuning system: the note its first pitch class is named after.", example: "yegah" });

/** `tuningSystem` and `startingNote` that the handler resolves (resolveTuning gives their 400/404): optional for the parser, needed for data. */
export const tuningContextParams = () => ({
  tuningSystem: optionalText({ blank: "kept", neededForData: true, description: "Tuning-system id (see /api/tuning-systems).", example: "ibnsina_1037" }),
  startingNote: optionalText({ blank: "kept", neededForData: true, description: "Starting note of the tuning system.", example: "yegah" }),
});
