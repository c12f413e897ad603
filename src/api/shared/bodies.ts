/**
 * The 200 bodies of the routes that answer files. Each route declares its body as its `response`:
 * these, or the JSON bodies of its group's schemas.ts (the error body: errorSchema.ts). Every
 * object is strict and every schema converts to JSON Schema (z.toJSONSchema), for the OpenAPI
 * document.
 */
import * as z from "zod";

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
