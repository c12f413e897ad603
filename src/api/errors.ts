/**
 * The one place every 4xx/5xx body is built: `{error, message, hint, ...extras}`; and the two
 * kinds of answer a route gives: JSON (every endpoint) or a plain-text file (the exports).
 */
export interface JsonResponse {
  status: number;
  body: unknown;
  file?: undefined;
}

/** The media type of every file answer: the tuning formats are ASCII text. */
export const TEXT_FILE_TYPE = "text/plain; charset=us-ascii";

/** A plain-text file: ASCII text, served with TEXT_FILE_TYPE and the name it downloads as. */
export interface FileResponse {
  status: 200;
  body: string;
  file: { name: string };
}

export type ApiResponse = JsonResponse | FileResponse;

export const textFile = (name: string, text: string): FileResponse => ({ status: 200, body: text, file: { name } });

export interface ErrorSpec {
  status?: number;
  error: string;
  message: string;
  hint: string;
  /** Extra fields after the three fixed ones, e.g. `validOptions`. */
  extra?: Record<string, unknown>;
}

export function apiError({ status = 400, error, message, hint, extra }: ErrorSpec): JsonResponse {
  return { status, body: { error, message, hint, ...extra } };
}

export const ok = (body: unknown): JsonResponse => ({ status: 200, body });

export const notFound = (what: string, id: string, hint: string, extra?: Record<string, unknown>): ApiResponse =>
  apiError({ status: 404, error: `${what} '${id}' not found`, message: `No ${what.toLowerCase()} has the id '${id}'.`, hint, extra });

export const missingParameter = (name: string, hint: string, extra?: Record<string, unknown>): ApiResponse =>
  apiError({
    error: `${name} parameter is required`,
    message: `The query parameter '${name}' is required for this endpoint.`,
    hint,
    extra,
  });
