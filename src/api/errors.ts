/** The one place every 4xx/5xx body is built: `{error, message, hint, ...extras}`. */
export interface ApiResponse {
  status: number;
  body: unknown;
}

export interface ErrorSpec {
  status?: number;
  error: string;
  message: string;
  hint: string;
  /** Extra fields after the three fixed ones, e.g. `validOptions`. */
  extra?: Record<string, unknown>;
}

export function apiError({ status = 400, error, message, hint, extra }: ErrorSpec): ApiResponse {
  return { status, body: { error, message, hint, ...extra } };
}

export const ok = (body: unknown): ApiResponse => ({ status: 200, body });

export const notFound = (what: string, id: string, hint: string, extra?: Record<string, unknown>): ApiResponse =>
  apiError({ status: 404, error: `${what} '${id}' not found`, message: `No ${what.toLowerCase()} has the id '${id}'.`, hint, extra });

export const missingParameter = (name: string, hint: string, extra?: Record<string, unknown>): ApiResponse =>
  apiError({
    error: `${name} parameter is required`,
    message: `The query parameter '${name}' is required for this endpoint.`,
    hint,
    extra,
  });
