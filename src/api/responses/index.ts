/**
 * The typed answers of the API: a zod schema of the 200 body of every JSON route, keyed by route name
 * (`GET /maqamat/{idName}`), and of the error body. Every object is strict and every schema
 * converts to JSON Schema (z.toJSONSchema), for the OpenAPI document.
 */
import { z } from "zod";
import { ajnasList, jinsAvailability, jinsCompare, jinsDetail, jinsTranspositions } from "./ajnas.js";
import { maqamPitchClassSets, twelvePitchClassSets } from "./classification.js";
import { intervals, intervalsCalculate, intervalsCompare } from "./intervals.js";
import { maqamDetail } from "./maqamDetail.js";
import { maqamatList, maqamAvailability, maqamCompare, maqamFamilies, maqamTranspositions } from "./maqamat.js";
import { modulationRoutes } from "./modulationRoutes.js";
import { apiIndex, openApiDocument } from "./describe.js";
import { noteNameAvailability, noteNameCompare, noteNameDetail, noteNamesList } from "./noteNames.js";
import { sourceAjnas, sourceDetail, sourceMaqamat, sourcesList, sourceTuningSystems } from "./sources.js";
import { tuningSystemAjnas, tuningSystemDetail, tuningSystemMaqamat, tuningSystemPitchClasses, tuningSystemsList } from "./tuningSystems.js";

export { ERROR_BODY } from "./errors.js";
export { SHARED_SCHEMAS } from "./shared.js";

/**
 * The body of a route that answers a file (route.answersFile: the Scala and AnaMark exports):
 * printable ASCII lines, each ended by a line feed. Their content is checked by readers of the
 * formats themselves (test/support/tuningFiles.ts).
 */
export const TEXT_FILE_PATTERN = /^([\x20-\x7e]*\n)*$/;
export const TEXT_FILE_BODY = z
  .string()
  .regex(TEXT_FILE_PATTERN)
  .describe("A Scala scale, Scala keyboard mapping or AnaMark tuning file: ASCII text.");

export const RESPONSE_SCHEMAS = {
  "GET /": apiIndex,
  "GET /openapi.json": openApiDocument,
  "GET /maqamat": maqamatList,
  "GET /maqamat/families": maqamFamilies,
  "GET /maqamat/{idName}": maqamDetail,
  "GET /maqamat/{idName}/availability": maqamAvailability,
  "GET /maqamat/{idName}/transpositions": maqamTranspositions,
  "GET /maqamat/{idName}/compare": maqamCompare,
  "GET /maqamat/classification/12-pitch-class-sets": twelvePitchClassSets,
  "GET /maqamat/classification/maqam-pitch-class-sets": maqamPitchClassSets,
  "GET /ajnas": ajnasList,
  "GET /ajnas/{idName}": jinsDetail,
  "GET /ajnas/{idName}/availability": jinsAvailability,
  "GET /ajnas/{idName}/transpositions": jinsTranspositions,
  "GET /ajnas/{idName}/compare": jinsCompare,
  "GET /tuning-systems": tuningSystemsList,
  "GET /tuning-systems/{id}": tuningSystemDetail,
  "GET /tuning-systems/{id}/{startingNote}/pitch-classes": tuningSystemPitchClasses,
  "GET /tuning-systems/{id}/{startingNote}/maqamat": tuningSystemMaqamat,
  "GET /tuning-systems/{id}/{startingNote}/ajnas": tuningSystemAjnas,
  "GET /pitch-classes/note-names": noteNamesList,
  "GET /pitch-classes/note-names/{noteName}": noteNameDetail,
  "GET /pitch-classes/note-names/{noteName}/availability": noteNameAvailability,
  "GET /pitch-classes/note-names/{noteName}/compare": noteNameCompare,
  "GET /intervals": intervals,
  "GET /intervals/compare": intervalsCompare,
  "GET /intervals/calculate": intervalsCalculate,
  "GET /sources": sourcesList,
  "GET /sources/{id}": sourceDetail,
  "GET /sources/{id}/tuning-systems": sourceTuningSystems,
  "GET /sources/{id}/maqamat": sourceMaqamat,
  "GET /sources/{id}/ajnas": sourceAjnas,
  "GET /modulation-routes": modulationRoutes,
} satisfies Record<string, z.ZodType>;

export type RouteName = keyof typeof RESPONSE_SCHEMAS;
