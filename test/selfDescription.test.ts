/**
 * The API describes itself: /api/openapi.json is a valid OpenAPI 3.1.0 document with every
 * operation and every parameter of the specification, TypeScript types generated from it
 * type-check a client, and /api lists every endpoint with an example that answers 200.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import openapiTS, { astToString } from "openapi-typescript";
import { handleRequest } from "../src/serve/handler.js";
import { dataRoutes } from "../src/api/routes.js";
import { prerenderRequests } from "../scripts/prerender/index.js";
import { catalog } from "./support/catalog.js";

const SAMPLE_BASE_URL = "http://localhost:3000";

/** An answer: JSON parsed, a file's text as it is. */
const get = async (target: string) => {
  const response = await handleRequest(new Request(`${SAMPLE_BASE_URL}${target}`), { catalog, baseUrl: SAMPLE_BASE_URL });
  const text = await response.text();
  return { status: response.status, body: response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text };
};

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: { enum?: string[]; default?: unknown } }[];
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

const openapi = await get("/api/openapi.json");
const operations = Object.entries(openapi.body.paths as Record<string, { get: Operation }>);
/** The tuning-file downloads (Scala, AnaMark, Ableton, MIDI Tuning Standard), beside the operations of the specification. */
const isExport = ([path]: [string, unknown]) => path.startsWith("/exports/");
/** Operations beyond the specification's: the tuning-system record that links lead to. */
const ADDED_OPERATIONS = ["/tuning-systems/{id}"];
/** The API's own description: the index (/api) and this document, which the index does not list. */
const SELF_DESCRIPTION = ["/", "/openapi.json"];
const specOperations = operations.filter((o) => !isExport(o) && !ADDED_OPERATIONS.includes(o[0]) && !SELF_DESCRIPTION.includes(o[0]));
const listedOperations = operations.filter(([path]) => !SELF_DESCRIPTION.includes(path));
const EXPORT_OPERATIONS = 27;

/** Each `GET` endpoint of the specification with the parameters its tables list (npm run import-fixtures). */
const specParameters = (): Map<string, string[]> =>
  new Map(Object.entries(JSON.parse(readFileSync(new URL("./fixtures/spec-parameters.json", import.meta.url), "utf8")) as Record<string, string[]>));

describe("GET /api/openapi.json", () => {
  it("is OpenAPI 3.1.0 declaring version 1.0.0 and valid for an independent validator (zero errors)", async () => {
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toBe("3.1.0");
    expect(openapi.body.info.version).toBe("1.0.0");
    const result = await new Validator().validate(openapi.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("has the 30 operations of the specification, each with every parameter the specification lists, the 27 exports and the tuning-system record", () => {
    const spec = specParameters();
    expect(spec.size).toBe(30);
    expect(specOperations.map(([path]) => path).sort()).toEqual([...spec.keys()].sort());
    expect(operations.filter(isExport)).toHaveLength(EXPORT_OPERATIONS);
    expect(operations.length).toBe(30 + EXPORT_OPERATIONS + ADDED_OPERATIONS.length + SELF_DESCRIPTION.length);
    for (const [path, names] of spec) {
      const declared = new Set(openapi.body.paths[path].get.parameters.map((p: { name: string }) => p.name));
      const missing = [...names].filter((n) => !declared.has(n));
      expect(missing, path).toEqual([]);
    }
  });

  it("states enumerations, defaults and required parameters as declared", () => {
    const pitchClasses = openapi.body.paths["/tuning-systems/{id}/{startingNote}/pitch-classes"].get as Operation;
    const type = pitchClasses.parameters.find((p) => p.name === "pitchClassDataType")!;
    expect(type.schema.default).toBe("all");
    expect(type.schema.enum).toContain("midiNoteDeviation");
    expect(pitchClasses.parameters.find((p) => p.name === "id")).toMatchObject({ in: "path", required: true });
    const families = openapi.body.paths["/maqamat/families"].get as Operation;
    expect(families.parameters.find((p) => p.name === "tuningSystem")!.required).toBe(true);
    expect(families.parameters.find((p) => p.name === "centsTolerance")!.schema.default).toBe(5);
    const calculate = openapi.body.paths["/intervals/calculate"].get as Operation;
    expect(calculate.parameters.find((p) => p.name === "unit")).toMatchObject({
      required: true,
      schema: { enum: expect.arrayContaining(["cents", "fraction"]) },
    });
  });

  it("gives each operation a 200 schema, a real example (but the document's own, which would contain itself) and the error shape of its 4xx and 414", () => {
    for (const [path, { get: op }] of operations) {
      if (path === "/openapi.json")
        expect(op.responses["200"].content?.["application/json"], path).toEqual({ schema: { $ref: "#/components/schemas/OpenapiJsonResponse" } });
      else if (path.endsWith(".syx"))
        expect(op.responses["200"].content, path).toEqual({ "application/octet-stream": { schema: { type: "string", format: "binary" } } });
      else if (path.startsWith("/exports/"))
        expect(op.responses["200"].content?.["text/plain; charset=us-ascii"].example, path).toMatch(/^[!;] [a-z0-9_-]+\.(scl|kbm|tun|ascl)\n/);
      else expect(op.responses["200"].content?.["application/json"].example, path).toBeTypeOf("object");
      expect(op.responses["400"], path).toEqual({ $ref: "#/components/responses/Error400" });
      expect(op.responses["404"], path).toEqual({ $ref: "#/components/responses/Error404" });
      expect(op.responses["414"], path).toEqual({ $ref: "#/components/responses/Error414" });
    }
    expect(openapi.body.paths["/maqamat/{idName}"].get.responses["422"]).toEqual({ $ref: "#/components/responses/Error422" });
    expect(openapi.body.components.schemas.Error.required).toEqual(["error", "message", "hint"]);
  });

  it("generates TypeScript types (openapi-typescript) that type-check a client", async () => {
    const dir = mkdtempSync(join(tmpdir(), "maqam-openapi-"));
    writeFileSync(join(dir, "api.d.ts"), astToString(await openapiTS(openapi.body)));
    writeFileSync(
      join(dir, "client.ts"),
      `import type { paths, components } from "./api";
type Detail = paths["/maqamat/{idName}"]["get"]["responses"][200]["content"]["application/json"];
type PitchClasses = paths["/tuning-systems/{id}/{startingNote}/pitch-classes"]["get"]["responses"][200]["content"]["application/json"];
type Query = NonNullable<paths["/maqamat/{idName}"]["get"]["parameters"]["query"]>;
const query: Query = { tuningSystem: "ibnsina_1037", startingNote: "yegah", pitchClassDataType: "cents" };
export function tonicOf(detail: Detail): string | undefined { return "tonic" in detail ? detail.tonic.displayName : undefined; }
export function cents(answer: PitchClasses): (number | null | undefined)[] { return answer.pitchClasses.map((pc) => ("cents" in pc ? pc.cents : undefined)); }
export const problem = (e: components["schemas"]["Error"]): string => e.error + ": " + e.hint;
export { query };
`,
    );
    const tsc = join(process.cwd(), "node_modules", "typescript", "bin", "tsc");
    const run = () =>
      execFileSync(process.execPath, [tsc, "--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "nodenext", join(dir, "client.ts")], {
        encoding: "utf8",
      });
    try {
      run();
    } catch (e) {
      throw new Error(String((e as { stdout?: string }).stdout));
    }
    // The check is real: a wrong field name fails.
    writeFileSync(join(dir, "client.ts"), readFileSync(join(dir, "client.ts"), "utf8").replace("detail.tonic.displayName", "detail.tonic.nameThatIsNot"));
    expect(run).toThrow();
  }, 60_000);
});

describe("GET /api and /api/", () => {
  it("lists the 31 endpoints and the 27 exports with links to the OpenAPI document, and /api/ is the same answer", async () => {
    const index = await get("/api");
    expect(index.status).toBe(200);
    expect(index.body.count).toBe(30 + ADDED_OPERATIONS.length + EXPORT_OPERATIONS);
    expect(index.body.endpoints.map((e: { path: string }) => e.path).sort()).toEqual(listedOperations.map(([path]) => `/api${path}`).sort());
    expect(index.body.links.openapi).toBe(`${SAMPLE_BASE_URL}/api/openapi.json`);
    expect((await get("/api/")).body).toEqual(index.body);
  });

  it("answers every example URL with 200, and names a static file only for pre-rendered examples", async () => {
    const index = await get("/api");
    const prerendered = new Set(prerenderRequests(catalog));
    for (const endpoint of index.body.endpoints) {
      const target = endpoint.example.slice(SAMPLE_BASE_URL.length);
      expect((await get(target)).status, target).toBe(200);
      const below = decodeURIComponent(target.slice("/api".length));
      const route = dataRoutes.find((r) => r.name === endpoint.name)!;
      expect(endpoint.staticFile === null, endpoint.name).toBe(route.computed);
      if (endpoint.staticFile) {
        expect(prerendered.has(below), below).toBe(true);
        expect((await get(endpoint.staticFile.slice(SAMPLE_BASE_URL.length))).body, endpoint.staticFile).toEqual((await get(target)).body);
      }
    }
  }, 60_000);

  it("is pointed at by the 404 of an unknown route", async () => {
    const missing = await get("/api/maqamat-typo");
    expect(missing.status).toBe(404);
    expect(missing.body.hint).toContain("GET /api");
  });
});

describe("docs/endpoints.md", () => {
  it("is what the route declarations generate (npm run docs)", async () => {
    const { ENDPOINTS_DOC, endpointsMarkdown } = await import("../scripts/endpointDocs.js");
    expect(readFileSync(ENDPOINTS_DOC, "utf8")).toBe(endpointsMarkdown());
    expect(endpointsMarkdown().match(/^## GET \/api/gm)).toHaveLength(dataRoutes.length);
  });

  it("and the README's endpoint table names every endpoint with its summary", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    for (const route of dataRoutes) expect(readme, route.name).toContain(`| \`${route.name.replace("GET ", "GET /api")}\` | ${route.summary}`);
  });
});
