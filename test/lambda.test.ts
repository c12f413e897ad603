/**
 * The Lambda function URL adapter (src/serve/lambda.ts) on synthetic payload-2.0 events: the
 * Request it makes, the result object it returns, and the worker behind it answering through it.
 */
import { describe, it, expect } from "vitest";
import { gunzipSync, gzipSync } from "node:zlib";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundle } from "../scripts/bundle.js";
import { functionUrlHandler, handler, requestOf, resultOf, type FunctionUrlEvent } from "../src/serve/lambda.js";
import worker from "../src/serve/worker.js";

const DOMAIN = "abc123.lambda-url.eu-west-1.on.aws";

const event = (over: Partial<FunctionUrlEvent> & { method?: string } = {}): FunctionUrlEvent => {
  const { method = "GET", ...rest } = over;
  return {
    version: "2.0",
    rawPath: "/api/tuning-systems",
    rawQueryString: "",
    headers: { host: DOMAIN, "accept-encoding": "gzip" },
    requestContext: { domainName: DOMAIN, http: { method } },
    isBase64Encoded: false,
    ...rest,
  };
};

describe("requestOf", () => {
  it("keeps the method and the headers, conditional ones included", () => {
    const request = requestOf(event({ method: "HEAD", rawPath: "/api/pitch-classes/note-names/r%C4%81st", headers: { "if-none-match": '"abc"' } }));
    expect(request.url).toBe(`https://${DOMAIN}/api/pitch-classes/note-names/r%C4%81st`);
    expect(request.method).toBe("HEAD");
    expect(request.headers.get("if-none-match")).toBe('"abc"');
  });

  it("rebuilds the URL on the function's domain with the raw query as sent", () => {
    const request = requestOf(event({ rawPath: "/api/maqamat/maqam_rast", rawQueryString: "tuningSystem=ibnsina_1037&startingNote=yegah" }));
    expect(request.method).toBe("GET");
    expect(request.url).toBe(`https://${DOMAIN}/api/maqamat/maqam_rast?tuningSystem=ibnsina_1037&startingNote=yegah`);
    expect(request.headers.get("accept-encoding")).toBe("gzip");
  });

  it("keeps percent-encoding and encodes raw non-ASCII as UTF-8", () => {
    const encoded = "%D8%B1%D8%A7%D8%B3%D8%AA";
    const request = requestOf(event({ rawQueryString: `a=${encoded}&b=راست&c=x%2Fy&d=%25&e=1+2` }));
    const url = new URL(request.url);
    expect(url.search).toBe(`?a=${encoded}&b=${encoded}&c=x%2Fy&d=%25&e=1+2`);
    expect(url.searchParams.get("a")).toBe("راست");
    expect(url.searchParams.get("b")).toBe("راست");
    expect(url.searchParams.get("c")).toBe("x/y");
    expect(url.searchParams.get("d")).toBe("%");
    expect(url.searchParams.get("e")).toBe("1 2");
    // Malformed escapes reach the handler as they came, for it to refuse.
    expect(new URL(requestOf(event({ rawQueryString: "a=%ZZ&b=%E0%A4" })).url).search).toBe("?a=%ZZ&b=%E0%A4");
  });

  it("keeps a decoded ? or # inside the path", () => {
    const url = new URL(requestOf(event({ rawPath: "/api/maqamat/a?b#c", rawQueryString: "x=1" })).url);
    expect(url.pathname).toBe("/api/maqamat/a%3Fb%23c");
    expect(url.search).toBe("?x=1");
    expect(new URL(requestOf(event({ rawPath: "/api/نغم" })).url).pathname).toBe("/api/%D9%86%D8%BA%D9%85");
  });

  it("joins the cookies array into one Cookie header unless the header came too", () => {
    expect(requestOf(event({ cookies: ["a=1", "b=2"] })).headers.get("cookie")).toBe("a=1; b=2");
    expect(requestOf(event({ cookies: ["a=1"], headers: { cookie: "a=1" } })).headers.get("cookie")).toBe("a=1");
  });

  it("takes the host header when the context has no domain, and upper-cases the method", () => {
    const request = requestOf({ rawPath: "/api/x", headers: { host: "example.org" }, requestContext: { http: { method: "head" } } });
    expect(request.url).toBe("https://example.org/api/x");
    expect(request.method).toBe("HEAD");
  });

  it("passes a body only with methods that have one, decoding base64", async () => {
    const posted = requestOf(event({ method: "POST", body: btoa("payload"), isBase64Encoded: true }));
    expect(await posted.text()).toBe("payload");
    expect(requestOf(event({ body: "ignored" })).body).toBeNull();
  });
});

describe("resultOf", () => {
  it("sends JSON as text with its headers, Set-Cookie apart", async () => {
    const headers = new Headers({ "Content-Type": "application/json; charset=utf-8", ETag: '"abc"' });
    headers.append("Set-Cookie", "a=1");
    headers.append("Set-Cookie", "b=2");
    const result = await resultOf(new Response('{"maqam":"rāst"}', { status: 200, headers }));
    expect(result).toEqual({
      statusCode: 200,
      headers: { "content-type": "application/json; charset=utf-8", etag: '"abc"' },
      cookies: ["a=1", "b=2"],
      body: '{"maqam":"rāst"}',
      isBase64Encoded: false,
    });
  });

  it("sends a content-encoded body as base64 of the encoded bytes", async () => {
    const json = JSON.stringify({ data: "x".repeat(5000) });
    const packed = gzipSync(json);
    const result = await resultOf(new Response(packed, { headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" } }));
    expect(result.isBase64Encoded).toBe(true);
    expect(result.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(Buffer.from(result.body, "base64")).toString()).toBe(json);
    // Encoded bytes that happen to be valid UTF-8 are still binary.
    const ascii = await resultOf(new Response("abc", { headers: { "Content-Encoding": "br" } }));
    expect(ascii).toMatchObject({ body: "YWJj", isBase64Encoded: true });
  });

  it("sends binary and non-UTF-8 bodies as base64, large ones intact", async () => {
    const bytes = randomBytes(200_000);
    const binary = await resultOf(new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body, "base64").equals(bytes)).toBe(true);
    const latin1 = await resultOf(new Response(new Uint8Array([0x7b, 0xe9, 0x7d]), { headers: { "Content-Type": "application/json" } }));
    expect(latin1).toMatchObject({ body: "e+l9", isBase64Encoded: true });
  });

  it("passes a 304 through with its headers and no body", async () => {
    const result = await resultOf(new Response(null, { status: 304, headers: { ETag: '"abc"', "Cache-Control": "public, max-age=3600" } }));
    expect(result).toEqual({ statusCode: 304, headers: { etag: '"abc"', "cache-control": "public, max-age=3600" }, body: "", isBase64Encoded: false });
  });
});

describe("the Lambda handler over the worker", () => {
  it("answers with the worker's status, bytes and headers", async () => {
    const rawQueryString = "octave=1&pitchClassDataType=cents";
    const result = await handler(event({ rawPath: "/api/tuning-systems/ibnsina_1037/yegah/pitch-classes", rawQueryString }));
    const direct = await worker.fetch(new Request(`https://${DOMAIN}/api/tuning-systems/ibnsina_1037/yegah/pitch-classes?${rawQueryString}`));
    expect(result.statusCode).toBe(200);
    expect(result.isBase64Encoded).toBe(false);
    expect(result.body).toBe(await direct.text());
    expect(result.headers).toEqual(Object.fromEntries(direct.headers));
    expect(result.headers["x-answer-source"]).toBe("computed");
    expect(JSON.parse(result.body).tuningSystem.idName).toBe("ibnsina_1037");
  });

  it("answers HEAD without a body and If-None-Match with 304", async () => {
    const get = await handler(event());
    const head = await handler(event({ method: "HEAD" }));
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers.etag).toBe(get.headers.etag);
    const revalidated = await handler(event({ headers: { "if-none-match": get.headers.etag } }));
    expect(revalidated).toMatchObject({ statusCode: 304, body: "", isBase64Encoded: false });
    expect(revalidated.headers.etag).toBe(get.headers.etag);
  });

  it("computes spec URLs: lists, interval calculation, 404s with a hint", async () => {
    const list = await handler(event());
    expect(list.statusCode).toBe(200);
    expect(JSON.parse(list.body).count).toBe(35);
    const interval = await handler(
      event({ rawPath: "/api/intervals/calculate", rawQueryString: "from=rast&to=nawa&tuningSystem=ibnsina_1037&startingNote=yegah&unit=fraction" }),
    );
    expect(JSON.parse(interval.body).interval).toEqual(expect.objectContaining({ value: "3/2", unit: "fraction" }));
    const missing = await handler(event({ rawPath: "/api/maqamat/nothing" }));
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toHaveProperty("hint");
  });

  it("answers a file URL (what CloudFront fails over with) by computing it", async () => {
    const result = await handler(event({ rawPath: "/api/tuning-systems/@includeArabic=true.json" }));
    const direct = await handler(event({ rawQueryString: "includeArabic=true" }));
    expect(result.statusCode).toBe(200);
    expect(result.body).toBe(direct.body);
  });

  it("refuses malformed escapes, other methods and unreadable events with JSON", async () => {
    const malformed = await handler(event({ rawQueryString: "includeArabic=%E0%A4" }));
    expect(malformed.statusCode).toBe(400);
    expect(JSON.parse(malformed.body).error).toContain("includeArabic");
    const post = await handler(event({ method: "POST", body: "{}" }));
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD, OPTIONS");
    const unreadable = await functionUrlHandler(() => Promise.reject(new Error("not reached")))(
      event({ requestContext: { domainName: "bad host", http: { method: "GET" } } }),
    );
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(unreadable.body)).toMatchObject({ error: "Bad request", hint: expect.any(String) });
  });
});

describe("the bundled Lambda handler", () => {
  it("loads as an ES module in Node and answers an event as the source does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "maqam-lambda-"));
    try {
      const outFile = join(dir, "index.mjs");
      await bundle({ entry: "src/serve/lambda.ts", outFile, baseUrl: "https://api.example.org" });
      const module = (await import(pathToFileURL(outFile).href)) as { handler: typeof handler };
      const bundled = await module.handler(event({ rawPath: "/api/sources" }));
      expect(bundled.statusCode).toBe(200);
      expect(JSON.parse(bundled.body)).toEqual(
        JSON.parse((await handler(event({ rawPath: "/api/sources" }))).body.replaceAll(`https://${DOMAIN}`, "https://api.example.org")),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
