/**
 * GET /openapi.json: the OpenAPI 3.1.0 description of the API, generated from the route records
 * (declared parameters and response schemas, zod → JSON Schema 2020-12) and, as each
 * operation's example, the answer to its example request.
 */
import * as z from "zod";
import { ok, BINARY_FILE_TYPE, TEXT_FILE_TYPE, type ApiResponse } from "./errors.js";
import { exampleTarget, operationId, parameterSchema } from "./describe.js";
import { defineRoute, type RequestContext, type Route } from "./route.js";
import { BINARY_FILE_BODY, TEXT_FILE_PATTERN } from "./shared/bodies.js";
import { errorSchemas } from "./shared/errorSchema.js";
import { sharedSchemas } from "./shared/schemas.js";
import { describeSchemas } from "./describeSchemas.js";

export const API_VERSION = "1.0.0";
export const API_TITLE = "Arabic Maqām Archive API";

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid or missing parameter.",
  404: "Unknown entity, tuning system, note name or source.",
  414: "The request target is longer than the server answers.",
  422: "The entity cannot be realised in this tuning system and starting note.",
};

/** A refusal the server makes before any route reads the request, so every operation may answer it. */
const SERVER_REFUSALS = [414] as const;

/**
 * `components.schemas`: JSON Schema 2020-12 of every named zod schema, converted together so
 * that the shared ones (pitch classes) are written once and referred to by `$ref`.
 */
function componentSchemas(named: Record<string, z.ZodType>): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: "draft-2020-12", io: "output", uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, id: _id, ...schema }]) => {
      if (id === "__shared") throw new Error("a shared schema without a name: add it to SHARED_SCHEMAS");
      return [id, schema];
    }),
  );
}

/** `GET /maqamat/{idName}` → `MaqamatIdName`: the name of its response schema in components. */
const schemaName = (route: Route) => operationId(route).slice(3) + "Response";

function operationOf(route: Route, answer: (route: Route) => ApiResponse | undefined) {
  const parameters = Object.entries(route.params).map(([name, d]) => ({
    name,
    in: d.in,
    required: d.in === "path" || d.required,
    description: d.neededForData && !d.required ? `${d.description} Needed for a data answer.` : d.description,
    schema: parameterSchema(d),
    ...(d.accepts.shape === "retired" ? { deprecated: true } : {}),
    // The example in the parameter's own type, as its schema validates it.
    ...(d.example === undefined ? {} : { example: d.type === "number" ? Number(d.example) : d.example }),
  }));
  const answered = answer(route);
  // The document's own operation has no example: it would contain itself.
  const example = answered ?? { status: 0, body: undefined };
  // A file route's 200 is ASCII text (a Scala, AnaMark or Ableton file) or bytes (MIDI system
  // exclusive, shown without an example); every other 200 is JSON of its schema.
  const content = route.answersFile
    ? route.response === BINARY_FILE_BODY
      ? { [BINARY_FILE_TYPE]: { schema: { type: "string", format: "binary" } } }
      : { [TEXT_FILE_TYPE]: { schema: { type: "string", pattern: TEXT_FILE_PATTERN.source }, ...(example.status === 200 ? { example: example.body } : {}) } }
    : {
        "application/json": {
          schema: { $ref: `#/components/schemas/${schemaName(route)}` },
          ...(example.status === 200 ? { example: example.body } : {}),
        },
      };
  const responses: Record<string, unknown> = { 200: { description: route.summary, content } };
  for (const status of [...route.errorStatuses, ...SERVER_REFUSALS]) responses[status] = { $ref: `#/components/responses/Error${status}` };
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: `Example: /api${exampleTarget(route)}${route.computed ? " (computed on request: no pre-rendered file)." : ""}`,
    tags: [route.path.split("/")[1] || "index"],
    parameters,
    responses,
  };
}

/** The OpenAPI document of `routes`, examples answered by `answer`. */
export function openApiDocument(
  routes: readonly Route[],
  ctx: RequestContext,
  answer: (route: Route) => ApiResponse | undefined,
): z.output<ReturnType<typeof describeSchemas>["openApiDocument"]> {
  const paths: Record<string, { get: ReturnType<typeof operationOf> }> = {};
  const named: Record<string, z.ZodType> = { Error: errorSchemas().ERROR_BODY, ...sharedSchemas().SHARED_SCHEMAS };
  for (const route of routes) {
    paths[route.path] = { get: operationOf(route, answer) };
    if (!route.answersFile) named[schemaName(route)] = route.response;
  }
  const schemas = componentSchemas(named);
  const errorResponses = Object.fromEntries(
    Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [
      `Error${status}`,
      { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: API_TITLE,
      version: API_VERSION,
      description:
        "Maqāmāt, ajnās, historical tuning systems, note names, intervals, sources and modulation routes of the Arabic maqām archive, computed per tuning system and starting note. GET /api lists every endpoint with an example.",
    },
    // Relative: a reader of the document (the API reference's "try it") asks the host that served it.
    servers: [{ url: "/api" }],
    // Every operation is public: no security scheme applies.
    security: [],
    paths,
    components: { schemas, responses: errorResponses },
  };
}

const OPENAPI_PATH = "/openapi.json";

/** The route answering /openapi.json for `routes` and itself, each example but its own answered by `answerExample`. */
export const openApiRoute = (routes: readonly Route[], answerExample: (route: Route, ctx: RequestContext) => ApiResponse) => {
  const self = defineRoute({
    path: OPENAPI_PATH,
    summary: "This API's OpenAPI 3.1.0 description.",
    response: () => describeSchemas().openApiDocument,
    params: {},
    handle: (_p, ctx) => ok(openApiDocument([...routes, documentRoute], ctx, (route) => (route.path === OPENAPI_PATH ? undefined : answerExample(route, ctx)))),
  });
  const documentRoute: Route = self;
  return self;
};
