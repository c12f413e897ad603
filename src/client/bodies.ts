/**
 * 200 bodies by route template (`/maqamat/{idName}`): the body type each JSON route declares
 * with its response schema. The published declarations (build/client/bodies.d.ts) carry the same
 * types, generated from /api/openapi.json by openapi-typescript, so a user of the client needs no zod.
 */
import type { z } from "zod";
import type { TypedRoute } from "../api/routes.js";

type TemplateOf<N> = N extends `GET ${infer P}` ? P : never;

/** The routes whose 200 is JSON (the exports answer files of text or bytes). */
type JsonRoute = Exclude<TypedRoute, { response: z.ZodType<string> | z.ZodType<string | Uint8Array<ArrayBuffer>> }>;

export type ResponseBodies = { [N in JsonRoute["name"] as TemplateOf<N>]: z.output<Extract<JsonRoute, { name: N }>["response"]> };
