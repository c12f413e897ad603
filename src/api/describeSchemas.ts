/** The answers that describe the API: the endpoint index (/api) and the OpenAPI document. */
import * as z from "zod";
import { onFirstUse } from "./shared/onFirstUse.js";

/** The bodies that describe the API, built on first use (shared/onFirstUse.ts). */
export const describeSchemas = onFirstUse(() => {
  const url = z.string().describe("Absolute URL.");

  const apiIndex = z
    .strictObject({
      title: z.string().describe("The API's name."),
      version: z.string().describe("The API version, as info.version of the OpenAPI document."),
      count: z.number().int().describe("Number of endpoints."),
      endpoints: z
        .array(
          z.strictObject({
            name: z.string().describe("`GET /path/{template}`."),
            path: z.string().describe("Path template, starting with /api."),
            summary: z.string(),
            requiredParameters: z.array(z.string()).describe("Parameters a data answer needs (path parameters first)."),
            example: url.describe("An example request that answers 200."),
            staticFile: url.nullable().describe("The pre-rendered file answering the example; null for computed endpoints."),
          }),
        )
        .describe("Every endpoint of the specification."),
      staticFiles: z
        .strictObject({ rule: z.string().describe("How a request maps to its pre-rendered file."), example: url })
        .describe("The rule that maps a request to its pre-rendered file."),
      links: z.strictObject({ self: url, openapi: url, docs: url }).describe("This index, the OpenAPI document and the documentation."),
    })
    .describe("The index of the endpoints.");

  /** The OpenAPI document: its frame strictly, the operations as OpenAPI defines them. */
  const openApiDocument = z
    .strictObject({
      openapi: z.literal("3.1.0").describe("The OpenAPI version."),
      info: z.strictObject({ title: z.string(), version: z.string(), description: z.string() }).describe("Title, API version and description."),
      servers: z
        .array(z.strictObject({ url: z.string().describe("The API's path on the host that serves the document (relative).") }))
        .describe("The API's base URL, relative to the host."),
      security: z.tuple([]).describe("No security scheme: every operation is public."),
      paths: z.record(z.string(), z.strictObject({ get: z.record(z.string(), z.unknown()) })).describe("One GET operation per endpoint."),
      components: z
        .strictObject({ schemas: z.record(z.string(), z.unknown()), responses: z.record(z.string(), z.unknown()) })
        .describe("Response schemas and the error responses."),
    })
    .describe("This API's OpenAPI 3.1.0 description.");

  return { apiIndex, openApiDocument };
});
