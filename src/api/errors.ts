/**
 * The one place every 4xx/5xx body is built: `{error, message, hint, ...extras}`; and the two
 * kinds of answer a route gives: JSON (every endpoint) or a plain-text file (the exports).
 */
/**
 * The tag of an answer. Resolvers return a value or the answer that ends the request (a 4xx);
 * `isAnswer` tells them apart by this tag, never by the shape of the value.
 */
export const ANSWER: unique symbol = Symbol("answer");

export interface JsonResponse {
  readonly [ANSWER]: true;
  status: number;
  body: unknown;
  file?: undefined;
}

/** The media type of every file answer: the tuning formats are ASCII text. */
export const TEXT_FILE_TYPE = "text/plain; charset=us-ascii";

/** A plain-text file: ASCII text, served with TEXT_FILE_TYPE and the name it downloads as. */
export interface FileResponse {
  readonly [ANSWER]: true;
  status: 200;
  body: string;
  file: { name: string };
}

export type ApiResponse = JsonResponse | FileResponse;

export const textFile = (name: string, text: string): FileResponse => ({ [ANSWER]: true, status: 200, body: text, file: { name } });

/** True for an answer (made by ok, apiError or textFile), false for any other value. */
export const isAnswer = (x: unknown): x is ApiResponse => typeof x === "object" && x !== null && ANSWER in x;

export interface ErrorSpec {
  status?: number;
  error: string;
  message: string;
  hint: string;
  /** Extra fields after the three fixed ones, e.g. `validOptions`. */
  extra?: Record<string, unknown>;
}

export function apiError({ status = 400, error, message, hint, extra }: ErrorSpec): JsonResponse {
  return { [ANSWER]: true, status, body: { error, message, hint, ...extra } };
}

export const ok = (body: unknown): JsonResponse => ({ [ANSWER]: true, status: 200, body });

/** Every 404: the entity or file a request names does not exist (the spec's "not found" errors). */
export const notFound = (spec: Omit<ErrorSpec, "status">): JsonResponse => apiError({ ...spec, status: 404 });

export const missingParameter = (name: string, hint: string, extra?: Record<string, unknown>): ApiResponse =>
  apiError({
    error: `${name} parameter is required`,
    message: `The query parameter '${name}' is required for this endpoint.`,
    hint,
    extra,
  });
