/**
 * The one place every 4xx/5xx body is built: `{error, message, hint, ...extras}`; and the two
 * kinds of answer a route gives: JSON (every endpoint) or a plain-text file (the exports).
 */
import type { z } from "zod";
import type { errorSchemas } from "./shared/errorSchema.js";
import { downloadTypeOf } from "../exports/formats.js";

/**
 * The tag of an answer. Resolvers return a value or the answer that ends the request (a 4xx);
 * `isAnswer` tells them apart by this tag, never by the shape of the value.
 */
export const ANSWER: unique symbol = Symbol("answer");

/** A 200 with a JSON body of type B. */
export interface Ok<B> {
  readonly [ANSWER]: true;
  status: 200;
  body: B;
  file?: undefined;
}

/** The body of every 4xx and 5xx (shared/errorSchema.ts). */
export type ErrorBody = z.output<ReturnType<typeof errorSchemas>["ERROR_BODY"]>;
/** The fields an error may add after `{error, message, hint}`. */
export type ErrorExtras = Omit<ErrorBody, "error" | "message" | "hint">;
/** The statuses of the specification, the server's refusals (405, 414, 416) and a fault (500). */
export type ErrorStatus = 400 | 404 | 405 | 414 | 416 | 422 | 500;

export interface ErrorAnswer {
  readonly [ANSWER]: true;
  status: ErrorStatus;
  body: ErrorBody;
  file?: undefined;
}

/** The media types of file answers (the export formats' table). */
export { TEXT_FILE_TYPE, BINARY_FILE_TYPE } from "../exports/formats.js";

/** A file: ASCII text served with TEXT_FILE_TYPE, or bytes with BINARY_FILE_TYPE (`type`), and the name it downloads as. */
export interface FileAnswer {
  readonly [ANSWER]: true;
  status: 200;
  body: string | Uint8Array<ArrayBuffer>;
  file: { name: string; type: string };
}

/** The 200 of a route whose body type is B: a text or byte body is a named file (the exports' file bodies), any other is JSON. */
export type Success<B> = [B] extends [string | Uint8Array] ? FileAnswer : Ok<B>;

/** What a route with body type B answers: its 200 or an error. */
export type Answer<B> = Success<B> | ErrorAnswer;

/** Any answer. */
export type ApiResponse = Ok<unknown> | FileAnswer | ErrorAnswer;

/** A file named `name`, of the content type its extension gives. */
export const fileAnswer = (name: string, body: string | Uint8Array<ArrayBuffer>): FileAnswer => ({
  [ANSWER]: true,
  status: 200,
  body,
  file: { name, type: downloadTypeOf(name) },
});

/** True for an answer (made by ok, apiError or fileAnswer), false for any other value. */
export const isAnswer = (x: unknown): x is ApiResponse => typeof x === "object" && x !== null && ANSWER in x;

export interface ErrorSpec {
  status?: ErrorStatus;
  error: string;
  message: string;
  hint: string;
  /** Extra fields after the three fixed ones, e.g. `validOptions`. */
  extra?: ErrorExtras;
}

export function apiError({ status = 400, error, message, hint, extra }: ErrorSpec): ErrorAnswer {
  return { [ANSWER]: true, status, body: { error, message, hint, ...extra } };
}

/** The one answer to a fault (an exception anywhere in answering), made by the web-standard handler alone. */
export const fault = (e: unknown): ErrorAnswer =>
  apiError({
    status: 500,
    error: "Internal server error",
    message: `The answer could not be produced: ${e instanceof Error ? e.message : String(e)}`,
    hint: "This is a fault of the service, not of the request; please report the URL.",
  });

export const ok = <B>(body: B): Ok<B> => ({ [ANSWER]: true, status: 200, body });

/** Every 404: the entity or file a request names does not exist (the spec's "not found" errors). */
export const notFound = (spec: Omit<ErrorSpec, "status">): ErrorAnswer => apiError({ ...spec, status: 404 });

export const missingParameter = (name: string, hint: string, extra?: ErrorExtras): ErrorAnswer =>
  apiError({
    error: `${name} parameter is required`,
    message: `The query parameter '${name}' is required for this endpoint.`,
    hint,
    extra,
  });
