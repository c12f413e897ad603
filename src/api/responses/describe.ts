/** The answers that describe the API: the endpoint index (/api) and the OpenAPI document. */
import { z } from "zod";

const url = z.string().describe("Absolute URL.");

export const apiIndex = z
  .strictObject({
    title: z.string(),
    version: z.string().describe("The API version, as info.version of the OpenAPI document."),
    count: z.number().int().describe("Number of endpoints."),
    endpoints: z.array(
      z.strictObject({
        name: z.string().describe("`GET /path/{template}`."),
        path: z.string().describe("Path template, starting with /api."),
        summary: z.string(),
        requiredParameters: z.array(z.string()).describe("Parameters a data answer needs (path parameters first)."),
        example: url.describe("An example request that answers 200."),
        staticFile: url.nullable().describe("The pre-rendered file answering the example; null for computed endpoints."),
      }),
    ),
    staticFiles: z.strictObject({ rule: z.string().describe("How a request maps to its pre-rendered file."), example: url }),
    links: z.strictObject({ self: url, openapi: url, docs: url }),
  })
  .describe("The index of the endpoints.");

/** The OpenAPI document: its frame strictly, the operations as OpenAPI defines them. */
export const openApiDocument = z
  .strictObject({
    openapi: z.literal("3.1.0"),
    info: z.strictObject({ title: z.string(), version: z.string(), description: z.string() }),
    jsonSchemaDialect: z.string(),
    servers: z.array(z.strictObject({ url })),
    paths: z.record(z.string(), z.strictObject({ get: z.record(z.string(), z.unknown()) })),
    components: z.strictObject({ schemas: z.record(z.string(), z.unknown()), responses: z.record(z.string(), z.unknown()) }),
  })
  .describe("This API's OpenAPI 3.1.0 description.");
