/** The Lambda function URL adapter: events in, web Requests through the worker, results out. */
import { describe, it, expect } from "vitest";
import { gzipSync, gunzipSync } from "node:zlib";
import { handler, requestOf, resultOf, type FunctionUrlEvent } from "../src/serve/lambda.js";

const event = (rawPath: string, rawQueryString = "", method = "GET", headers: Record<string, string> = {}): FunctionUrlEvent => ({
  rawPath,
  rawQueryString,
  headers: { host: "abc.lambda-url.eu-west-1.on.aws", ...headers },
  requestContext: { http: { method }, domainName: "abc.lambda-url.eu-west-1.on.aws" },
});

describe("requestOf", () => {
  it("keeps the raw query, percent-encoding and all, the method and the headers", () => {
    const r = requestOf(event("/api/pitch-classes/note-names/r%C4%81st", "includeArabic=true&x=%E2%9C%93", "HEAD", { "if-none-match": '"abc"' }));
    expect(r.url).toBe("https://abc.lambda-url.eu-west-1.on.aws/api/pitch-classes/note-names/r%C4%81st?includeArabic=true&x=%E2%9C%93");
    expect(r.method).toBe("HEAD");
    expect(r.headers.get("if-none-match")).toBe('"abc"');
  });
});

describe("resultOf", () => {
  it("sends JSON as text and content-encoded or binary bodies in base64", async () => {
    const json = await resultOf(new Response('{"a":"ā"}', { status: 404, headers: { "content-type": "application/json; charset=utf-8" } }));
    expect(json).toEqual({ statusCode: 404, headers: { "content-type": "application/json; charset=utf-8" }, body: '{"a":"ā"}', isBase64Encoded: false });
    const packed = new Uint8Array(gzipSync('{"a":"1"}'));
    const gz = await resultOf(new Response(packed, { headers: { "content-type": "application/json", "content-encoding": "gzip" } }));
    expect(gz.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(gz.body, "base64")).toString()).toBe('{"a":"1"}');
  });
});

describe("handler", () => {
  it("answers spec URLs through the worker, every answer computed", async () => {
    const list = await handler(event("/api/tuning-systems"));
    expect(list.statusCode).toBe(200);
    expect(list.headers["x-answer-source"]).toBe("computed");
    expect(JSON.parse(list.body).count).toBe(35);
    const interval = await handler(event("/api/intervals/calculate", "from=rast&to=nawa&tuningSystem=ibnsina_1037&startingNote=yegah&unit=fraction"));
    expect(JSON.parse(interval.body).interval).toEqual(expect.objectContaining({ value: "3/2", unit: "fraction" }));
    const missing = await handler(event("/api/maqamat/nothing"));
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toHaveProperty("hint");
  });
});
