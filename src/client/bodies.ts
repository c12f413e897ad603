/**
 * 200 bodies by route template (`/maqamat/{idName}`), inferred from the response schemas. The
 * published declarations (build/client/bodies.d.ts) carry the same types, generated from
 * /api/openapi.json by openapi-typescript, so a user of the client needs no zod.
 */
import type { z } from "zod";
import type { RESPONSE_SCHEMAS, RouteName } from "../api/responses/index.js";

type TemplateOf<K> = K extends `GET ${infer P}` ? P : never;

export type ResponseBodies = { [K in RouteName as TemplateOf<K>]: z.output<(typeof RESPONSE_SCHEMAS)[K]> };
