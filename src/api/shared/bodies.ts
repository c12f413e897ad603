/**
 * The typed answers of the API: zod schemas of the 200 bodies, which each route declares as its
 * `response` (each group's schemas.ts), of a file's body and of the error body.
 * Every object is strict and every schema converts to JSON Schema (z.toJSONSchema), for the
 * OpenAPI document.
 */
import * as z from "zod";

export { ERROR_BODY } from "./errorSchema.js";
export { SHARED_SCHEMAS } from "./schemas.js";

/**
 * The body of a route that answers a file (the Scala and AnaMark exports, route.answersFile):
 * printable ASCII lines, each ended by a line feed. Their content is checked by readers of the
 * formats themselves (test/support/tuningFiles.ts).
 */
export const TEXT_FILE_PATTERN = /^([\x20-\x7e]*\n)*$/;
export const TEXT_FILE_BODY = z
  .string()
  .regex(TEXT_FILE_PATTERN)
  .describe("A Scala scale, Scala keyboard mapping, AnaMark tuning or Ableton Live tuning file: ASCII text.");
/** The body of a route that answers bytes (MIDI Tuning Standard system exclusive); read by test/support/mtsFiles.ts. */
export const BINARY_FILE_BODY = z.instanceof(Uint8Array).describe("MIDI system-exclusive messages (.syx): bytes.");
/** Whether a route's 200 body is a file (text or bytes) rather than JSON. */
export const isFileBody = (schema: z.ZodType): boolean => schema === TEXT_FILE_BODY || schema === BINARY_FILE_BODY;
