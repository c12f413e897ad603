/**
 * The response contract: every answer validates, strictly, against the schema its route declares
 * (the schemas beside each endpoint group in src/api; an unknown key fails) — the recorded reference answers and ours for the same
 * requests, a seeded sample of the pre-rendered files (a file is exactly the bytes `answerApi`
 * gives for its request), and seeded requests for the parameter combinations no file holds.
 * Every 4xx validates against ERROR_BODY.
 */
import { describe, it, expect, expectTypeOf } from "vitest";
import { z } from "zod";
import { catalog } from "./support/catalog.js";
import { random } from "./support/api.js";
import { endpointOf, recordedCases } from "./support/recorded.js";
import { requestVariants } from "./support/requestVariants.js";
import { routes } from "../src/api/routes.js";
import { prerenderRequests } from "../scripts/prerender/index.js";
import { answerApi } from "../src/serve/handler.js";
import { PITCH_CLASS_DATA, pitchClassData } from "../src/api/shared/pitchClassValues.js";
import { BINARY_FILE_BODY, TEXT_FILE_BODY } from "../src/api/shared/bodies.js";
import { errorSchemas } from "../src/api/shared/errorSchema.js";
import { BINARY_FILE_TYPE } from "../src/exports/formats.js";
import type { sourceSchemas } from "../src/api/sources/schemas.js";
import type { maqamSchemas } from "../src/api/maqamat/schemas.js";
import type { jinsSchemas } from "../src/api/ajnas/schemas.js";
import type { describeSchemas } from "../src/api/describeSchemas.js";
import type { ResponseBodies } from "../src/client/bodies.js";
import { pitchClassesOf } from "../src/theory/pitchClass.js";

const { ERROR_BODY } = errorSchemas();
const SEED = 20261124;
/** Pre-rendered requests drawn at random, and at least this many of every route's. */
const SAMPLE_SIZE = 2000;
const PER_ROUTE_MINIMUM = 10;
/** Rounds of requestVariants (about 28 requests each). */
const VARIANT_ROUNDS = 12;

/** The 200 body each route declares, by route name. */
const schemas = new Map(routes.map((r): [string, z.ZodType] => [r.name, r.response]));
/** Routes whose 200 is a plain-text file (the exports), not JSON. */
const fileRoutes = routes.filter((r) => r.answersFile);
const jsonRoutes = routes.filter((r) => !r.answersFile);
const prerendered = [...prerenderRequests(catalog, { full: false })];
const decoder = new TextDecoder();

interface Answered {
  request: string;
  route: string;
  status: number;
  body: unknown;
}

/** The answer to a request below /api, as the bytes a file or the fallback would serve, parsed. */
async function answer(request: string): Promise<Answered> {
  const url = new URL(request, "http://x");
  const a = await answerApi(url.pathname, url.searchParams, { catalog, baseUrl: "http://localhost:3000" });
  const text = decoder.decode(a.body);
  // A file's body as its schema reads it: bytes for a binary download, else its text.
  const body = a.download === undefined ? JSON.parse(text) : a.contentType === BINARY_FILE_TYPE ? a.body : text;
  return { request, route: endpointOf(request), status: a.status, body };
}

/** The schema an answer must satisfy: its route's for a 200, ERROR_BODY for a 4xx; none for anything else. */
const schemaOf = ({ route, status }: { route: string; status: number }): z.ZodType | undefined =>
  status === 200 ? schemas.get(route) : status >= 400 && status < 500 ? ERROR_BODY : undefined;

/** The first problem of a body under a schema, with its path, or undefined when it validates. */
function problem(schema: z.ZodType | undefined, body: unknown): string | undefined {
  if (!schema) return "no schema for this status";
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  return z.prettifyError(result.error).split("\n").slice(0, 6).join(" ");
}

/** Validates answers; returns the failures (request, status and problem), at most `limit`. */
function failures(answers: readonly Answered[], limit = 10): string[] {
  const found: string[] = [];
  for (const a of answers) {
    const p = problem(schemaOf(a), a.body);
    if (p) found.push(`${a.status} ${a.request}: ${p}`);
    if (found.length === limit) break;
  }
  return found;
}

/** A recorded body with the scorer's `__ANY__` placeholders replaced by our values at the same place. */
function withPlaceholdersFrom(recorded: unknown, ours: unknown): unknown {
  if (recorded === "__ANY__") return ours;
  const at = (key: string | number) => (ours !== null && typeof ours === "object" ? (ours as Record<string, unknown>)[key] : undefined);
  if (Array.isArray(recorded)) return recorded.map((v, i) => withPlaceholdersFrom(v, at(i)));
  if (recorded !== null && typeof recorded === "object")
    return Object.fromEntries(Object.entries(recorded).map(([k, v]) => [k, withPlaceholdersFrom(v, at(k))]));
  return recorded;
}

/**
 * Where the recorded reference differs from the specification, its bodies read in the specified
 * form (ours are validated as they are): the families' `links.maqamat` are absolute there, a
 * relative URL in the specification.
 */
const REFERENCE_DEVIATIONS: Record<string, (body: unknown) => unknown> = {
  "GET /maqamat/families": (body) => JSON.parse(JSON.stringify(body).replace(/"maqamat":"https?:\/\/[^/"]+/g, '"maqamat":"')),
};
const asSpecified = (route: string, body: unknown) => (REFERENCE_DEVIATIONS[route] ?? ((b: unknown) => b))(body);

/** A seeded sample of the pre-rendered requests: SAMPLE_SIZE at random and PER_ROUTE_MINIMUM of every route. */
function sampleOf(all: readonly string[]): string[] {
  const next = random(SEED);
  const shuffled = [...all];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const taken = new Map<string, number>();
  return shuffled.filter((request, i) => {
    const route = endpointOf(request);
    const n = taken.get(route) ?? 0;
    if (i >= SAMPLE_SIZE && n >= PER_ROUTE_MINIMUM) return false;
    taken.set(route, n + 1);
    return true;
  });
}

/** Routes with at least one validated 200, over every test below. */
const covered = new Set<string>();
const cover = (answers: readonly Answered[]) => {
  for (const a of answers) if (a.status === 200) covered.add(a.route);
};

describe("response schemas", () => {
  it("are built once, on first use: every read of a route's schema gives the same one", () => {
    const first = routes.map((r) => r.response);
    expect(routes.map((r) => r.response)).toEqual(first);
    routes.forEach((r, i) => {
      expect(r.response).toBe(first[i]);
    });
  });

  it("are declared by every route: the 31 endpoints, the index and the OpenAPI document answer JSON, the 27 export routes files (20 text, 7 bytes)", () => {
    expect(jsonRoutes).toHaveLength(33);
    expect(fileRoutes.filter((r) => r.response === TEXT_FILE_BODY)).toHaveLength(20);
    expect(fileRoutes.filter((r) => r.response === BINARY_FILE_BODY).map((r) => r.path.replace(/^.*\./, ""))).toEqual(Array(7).fill("syx"));
    // Distinct, so that each is one named schema of the OpenAPI document.
    expect(new Set(jsonRoutes.map((r) => r.response)).size).toBe(33);
  });

  it("type the client's bodies by route template, as the routes declare them (checked by tsc)", () => {
    expectTypeOf<ResponseBodies["/maqamat/{idName}/availability"]>().toEqualTypeOf<z.output<ReturnType<typeof maqamSchemas>["maqamAvailability"]>>();
    expectTypeOf<ResponseBodies["/ajnas/{idName}/compare"]>().toEqualTypeOf<z.output<ReturnType<typeof jinsSchemas>["jinsCompare"]>>();
    expectTypeOf<ResponseBodies["/sources/{id}/ajnas"]>().toEqualTypeOf<z.output<ReturnType<typeof sourceSchemas>["sourceAjnas"]>>();
    expectTypeOf<ResponseBodies["/"]>().toEqualTypeOf<z.output<ReturnType<typeof describeSchemas>["apiIndex"]>>();
    expectTypeOf<Extract<keyof ResponseBodies, `/exports/${string}`>>().toBeNever();
  });

  const all = [...jsonRoutes.map((r): [string, z.ZodType] => [r.name, r.response]), ["error body", ERROR_BODY] as const];

  it("all 34 convert to JSON Schema 2020-12", () => {
    expect(all).toHaveLength(34);
    for (const [name, schema] of all) {
      const json = z.toJSONSchema(schema, { target: "draft-2020-12" });
      expect(json.$schema, name).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(JSON.stringify(json), name).toContain('"additionalProperties":false');
    }
  });

  it("describe every top-level field (the OpenAPI document shows them)", () => {
    const undescribed = all.flatMap(([name, schema]) => {
      const json = z.toJSONSchema(schema, { target: "draft-2020-12" });
      const forms = (json.anyOf ?? [json]) as { properties?: Record<string, { description?: string }> }[];
      return forms.flatMap((form) => Object.entries(form.properties ?? {}).flatMap(([key, p]) => (p.description ? [] : [`${name}: ${key}`])));
    });
    expect(undescribed).toEqual([]);
  });

  it("know the pitch-class data fields the answers carry, in their order", () => {
    const [pc] = pitchClassesOf(catalog, catalog.findTuningSystem("ibnsina_1037")!, "yegah");
    expect(Object.keys(PITCH_CLASS_DATA)).toEqual(Object.keys(pitchClassData(pc)));
  });

  it("are strict: an unknown key fails", () => {
    const body = { error: "e", message: "m", hint: "h" };
    expect(ERROR_BODY.safeParse(body).success).toBe(true);
    expect(ERROR_BODY.safeParse({ ...body, extra: 1 }).success).toBe(false);
    expect(schemas.get("GET /sources")?.safeParse({ count: 0, data: [], meta: { total: 0 }, other: true }).success).toBe(false);
  });
});

describe("recorded answers", () => {
  const cases = recordedCases();
  let ours: Answered[] = [];

  it("our answer to every recorded request validates: 200 bodies and 4xx errors", async () => {
    ours = await Promise.all(cases.map((c) => answer(c.path)));
    cover(ours);
    expect(ours.filter((a, i) => (a.status === 200) !== (cases[i].status === 200)).map((a) => a.request)).toEqual([]);
    expect(ours.filter((a) => a.status >= 500)).toEqual([]);
    expect(failures(ours)).toEqual([]);
  });

  it("every recorded 200 body validates (placeholders read as our values)", () => {
    const asRecorded = cases.flatMap((c, i) =>
      c.status === 200 ? [{ ...ours[i], body: asSpecified(ours[i].route, withPlaceholdersFrom(c.body, ours[i].body)) }] : [],
    );
    expect(asRecorded.length).toBeGreaterThan(1000);
    expect(failures(asRecorded)).toEqual([]);
  });
});

describe("pre-rendered files", () => {
  const sample = sampleOf(prerendered);

  it(`a seeded sample of ${sample.length} validates`, async () => {
    expect(sample.length).toBeGreaterThanOrEqual(2000);
    const answers: Answered[] = [];
    for (const request of sample) answers.push(await answer(request));
    cover(answers);
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.request}`)).toEqual([]);
    expect(failures(answers)).toEqual([]);
  });
});

describe("parameter combinations no file holds", () => {
  const requests = requestVariants(catalog, prerendered, VARIANT_ROUNDS, SEED);

  it(`${requests.length} seeded requests validate`, async () => {
    const answers: Answered[] = [];
    for (const request of requests) answers.push(await answer(request));
    cover(answers);
    expect(answers.filter((a) => a.status >= 500).map((a) => a.request)).toEqual([]);
    // Most of them are data answers, not refusals.
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(requests.length / 2);
    expect(failures(answers)).toEqual([]);
  });

  it("every route has validated 200 answers", () => {
    expect(routes.map((r) => r.name).filter((name) => !covered.has(name))).toEqual([]);
  });
});
