/**
 * The edge rules of deploy/ and build/_redirects against staticFileOf, the canonicaliser the
 * build uses: every request they send to a file must be one staticFileOf sends to that file.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { catalog } from "./support/catalog.js";
import { readFileSync, mkdtempSync, rmSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { createContext, runInContext } from "node:vm";
import { cloudfrontFunction, netlifyRedirects, nginxConfig, serveConfig } from "../src/serve/deploy.js";
import { staticFileOf, requestOfStaticFile } from "../src/api/staticPath.js";
import { routes } from "../src/api/routes.js";
import { prerenderRequests } from "../scripts/prerender/index.js";
import { packMirror, MIRROR_FOLDER } from "../scripts/mirror.js";
import { buildSample } from "./support/buildSample.js";

const root = join(import.meta.dirname, "..");

/** Canonical requests of the build plus non-canonical and hostile variants of some of them. */
function corpus(): string[] {
  const canonical = [...prerenderRequests(catalog)].filter((_, i) => i % 11 === 0);
  const variants = canonical.slice(0, 400).flatMap((r) => {
    const [path, query = ""] = r.split("?");
    const pairs = query ? query.split("&") : [];
    return [
      `${path}/`,
      `${path}?${[...pairs].reverse().join("&")}`,
      `${path}?${[...pairs, pairs[0] ?? "a=1"].join("&")}`,
      `${path}?${pairs.map((p) => p.replace("=", "=%2F")).join("&")}`,
      `${path}?${pairs.map((p) => p.replace(/_/g, "%5F")).join("&")}`,
      `${path.replace(/_/, "%5F")}${query ? `?${query}` : ""}`,
      `${path}?${pairs.join("&")}&zz=a+b`,
      `${path}?${pairs.join("&")}&zz=a~b`,
      `${path}?${pairs.join("&")}&zz=x/y`,
      `${path}?${pairs.join("&")}&zz=x/y/z/w/v`,
    ];
  });
  const hostile = [
    "/..",
    "/../package.json",
    "/tuning-systems/../../package.json",
    "/%2e%2e/package.json",
    "/..%2fpackage.json",
    "/tuning-systems/./x",
    "/tuning-systems//x",
    "/tuning-systems?a=1&&b=2",
    "/tuning-systems?a==1",
    "/tuning-systems?=1",
    "/tuning-systems?a",
    "/tuning-systems?a=../../x",
    "/tuning-systems?b=1&a=2",
    "/tuning-systems?a=1&a=1",
    `/tuning-systems?q=${"x".repeat(300)}`,
    "/sources/index.json",
    "/sources/@a=1.json",
  ];
  return [...canonical, ...variants, ...hostile].map((r) => `/api${r}`);
}

const split = (uri: string): [string, string] => {
  const q = uri.indexOf("?");
  return q < 0 ? [uri, ""] : [uri.slice(0, q), uri.slice(q + 1)];
};
/** staticFileOf on a raw request URI (the path is not normalised first, as an edge sees it). */
const expectedFile = (uri: string) => {
  const [path, query] = split(uri);
  return staticFileOf(path.slice(4), new URLSearchParams(query));
};

/** The querystring object CloudFront hands a viewer-request function: raw names and values. */
function cloudfrontQuery(raw: string) {
  const qs: Record<string, { value: string; multiValue?: { value: string }[] }> = {};
  for (const piece of raw.split("&")) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const [name, value] = eq < 0 ? [piece, ""] : [piece.slice(0, eq), piece.slice(eq + 1)];
    const entry = qs[name];
    if (entry) {
      entry.multiValue ??= [{ value: entry.value }];
      entry.multiValue.push({ value });
    } else qs[name] = { value };
  }
  return qs;
}

describe("generated files", () => {
  it("deploy/ holds what the generators produce", () => {
    const stale = "deploy/ is stale: npm run build regenerates it";
    expect(readFileSync(join(root, "deploy", "nginx.conf"), "utf8"), stale).toBe(nginxConfig());
    expect(readFileSync(join(root, "deploy", "cloudfront-viewer-request.js"), "utf8"), stale).toBe(cloudfrontFunction());
  });

  it("serve.json is valid JSON with CORS", () => {
    expect(JSON.stringify(JSON.parse(serveConfig()))).toContain("Access-Control-Allow-Origin");
  });
});

/** Built-ins of later ECMAScript editions and of hosts that CloudFront Functions (cloudfront-js-2.0, ES 5.1 with some of ES 6-12) do not offer. */
const NOT_IN_CLOUDFRONT = ["Intl", "WeakRef", "FinalizationRegistry", "SharedArrayBuffer", "Atomics", "WebAssembly"];

/**
 * The function in a sandbox restricted as CloudFront Functions' runtime is: a fresh realm with
 * ECMAScript's own objects only (no URL, URLSearchParams, TextEncoder, Buffer, timers, fetch,
 * require or process), without NOT_IN_CLOUDFRONT, with no code generation from strings (eval), and
 * the handler defined by the script's top level, as CloudFront loads it.
 */
function cloudfrontSandbox(source: string) {
  const context = createContext({}, { codeGeneration: { strings: false, wasm: false } });
  runInContext(`${JSON.stringify(NOT_IN_CLOUDFRONT)}.forEach(function (name) { delete globalThis[name]; });`, context);
  runInContext(source, context, { filename: "cloudfront-viewer-request.js" });
  return {
    context,
    fn: runInContext("({ staticFile: staticFile, handler: handler })", context) as {
      staticFile: (uri: string, qs: ReturnType<typeof cloudfrontQuery>) => string | undefined;
      handler: (event: { request: { uri: string; querystring: object } }) => { uri: string; querystring: object };
    },
  };
}

describe("CloudFront viewer-request function", () => {
  const { context, fn } = cloudfrontSandbox(cloudfrontFunction());

  it("runs in the restricted sandbox: no host API, no later built-in, no eval", () => {
    for (const name of ["URL", "URLSearchParams", "TextEncoder", "Buffer", "setTimeout", "fetch", "require", "process", ...NOT_IN_CLOUDFRONT])
      expect(runInContext(`typeof ${name}`, context), name).toBe("undefined");
    expect(() => runInContext("eval('1')", context)).toThrow(/Code generation from strings disallowed/);
    expect(runInContext("typeof handler", context)).toBe("function");
  });

  it("rewrites exactly the requests staticFileOf maps, to the same file", () => {
    for (const uri of corpus()) {
      const [path, query] = split(uri);
      expect(fn.staticFile(path, cloudfrontQuery(query)), uri).toBe(expectedFile(uri));
    }
  });

  it("rewrites the request URI and drops the query", () => {
    const request = { uri: "/api/tuning-systems", querystring: cloudfrontQuery("includeArabic=true&includeSources=true") };
    expect(fn.handler({ request })).toEqual({ uri: "/api/tuning-systems/@includeArabic=true&includeSources=true.json", querystring: {} });
    const unsorted = { uri: "/api/tuning-systems", querystring: cloudfrontQuery("includeSources=true&includeArabic=true") };
    expect(fn.handler({ request: unsorted }).uri).toBe("/api/tuning-systems");
  });
});

/** The three maps of deploy/nginx.conf, evaluated as nginx does (first matching regex wins). */
function nginxFile(conf: string, uri: string): string {
  const maps = new Map<string, { exact: Map<string, string>; regex: [RegExp, string][] }>();
  for (const m of conf.matchAll(/^map \S+ \$(\w+) \{\n([\s\S]*?)\n\}/gm)) {
    const exact = new Map<string, string>();
    const regex: [RegExp, string][] = [];
    for (const line of m[2].split("\n")) {
      const entry = /^\s+"(~?)(.*)" "?(.*?)"?;$/.exec(line);
      if (!entry) continue;
      if (entry[1]) regex.push([new RegExp(entry[2]), entry[3]]);
      else exact.set(entry[2], entry[3]);
    }
    maps.set(m[1], { exact, regex });
  }
  const lookup = (name: string, source: string) => {
    const { exact, regex } = maps.get(name)!;
    if (exact.has(source)) return exact.get(source)!;
    for (const [re, template] of regex) {
      const match = re.exec(source);
      if (match) return template.replace(/\$(\w+)/g, (_, v: string) => match.groups![v]);
    }
    return "";
  };
  const [, args] = split(uri);
  const path = lookup("maqam_api_path", uri);
  const query = lookup("maqam_api_query", args);
  return lookup("maqam_api_file", `${path}|${query}`);
}

describe("nginx maps", () => {
  const conf = nginxConfig();

  it("send a request to a file only when staticFileOf sends it there", () => {
    for (const uri of corpus()) {
      const file = nginxFile(conf, uri);
      if (file === "") continue;
      expect(file.startsWith("/api/"), uri).toBe(true);
      // A name no build writes cannot be found; any other must be the canonical file.
      if (requestOfStaticFile(file.slice(5)) === undefined) continue;
      expect(file.slice(5), uri).toBe(expectedFile(uri));
    }
  });

  it("find the file of every canonical request written plainly", () => {
    for (const r of [...prerenderRequests(catalog)].filter((_, i) => i % 7 === 0)) {
      const uri = `/api${r}`;
      expect(nginxFile(conf, uri), uri).toBe(`/api/${expectedFile(uri)}`);
    }
    expect(nginxFile(conf, "/api/maqamat/maqam_rast?startingNote=saham/ramal_tuti&tuningSystem=x")).toBe(
      "/api/maqamat/maqam_rast/@startingNote=saham~ramal_tuti&tuningSystem=x.json",
    );
  });
});

describe("Netlify _redirects", () => {
  const shapes = {
    "GET /tuning-systems": ["", "includeArabic", "includeArabic&includeSources"],
    "GET /tuning-systems/{id}/{startingNote}/pitch-classes": ["", "octave&pitchClassDataType"],
  };
  const text = netlifyRedirects(shapes, routes, "https://fallback.example.org");
  const rules = text
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(/\s+/));

  /** Netlify's first matching rule, taking query conditions as the exact set of names. */
  function target(uri: string): string | undefined {
    const [path, query] = split(uri);
    const params = new URLSearchParams(query);
    for (const rule of rules) {
      const [from, ...rest] = rule;
      const status = rest.pop();
      const to = rest.pop()!;
      const conditions = rest.map((c) => c.split("="));
      const names = Object.fromEntries(from.split("/").map((s, i) => [i, s]));
      const segs = path.split("/");
      const bound: Record<string, string> = {};
      if (from.endsWith("*")) {
        if (!path.startsWith(from.slice(0, -1))) continue;
        bound.splat = path.slice(from.length - 1);
      } else {
        if (segs.length !== Object.keys(names).length) continue;
        const bind = (name: string, value: string) => {
          bound[name] = value;
          return true;
        };
        if (!segs.every((s, i) => (names[i].startsWith(":") ? bind(names[i].slice(1), s) : names[i] === s))) continue;
        if ([...params.keys()].length !== conditions.length) continue;
        if (!conditions.every(([k, v]) => params.has(k) && bind(v.slice(1), params.get(k)!))) continue;
      }
      expect(status).toBe("200");
      return to.replace(/:(\w+)/g, (_, v: string) => bound[v]);
    }
    return undefined;
  }

  it("rewrite canonical requests with a query to their file, and send the rest to the fallback", () => {
    const cases = [
      "/api/tuning-systems?includeArabic=true",
      "/api/tuning-systems?includeArabic=true&includeSources=false",
      "/api/tuning-systems/ibnsina_1037/yegah/pitch-classes?octave=1&pitchClassDataType=cents",
    ];
    for (const uri of cases) expect(target(uri), uri).toBe(`/api/${expectedFile(uri)}`);
    expect(target("/api/tuning-systems")).toBe("https://fallback.example.org/api/tuning-systems");
    expect(target("/api/tuning-systems?foo=1")).toBe("https://fallback.example.org/api/tuning-systems");
    expect(text.split("\n").at(-2)).toBe("/api/*  https://fallback.example.org/api/:splat  200");
  });
});

describe("mirror", () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample(["gzip"], { requests: ["/tuning-systems", "/tuning-systems?includeArabic=true", "/sources"] });
  });
  afterAll(() => {
    if (sample) rmSync(sample.dir, { recursive: true, force: true });
  });

  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

  it("packs the build without siblings into one folder that tar unpacks, the same bytes every time", async () => {
    const out = mkdtempSync(join(tmpdir(), "maqam-mirror-"));
    try {
      const first = await packMirror(sample.outDir, join(out, "a.tar.gz"));
      await packMirror(sample.outDir, join(out, "b.tar.gz"));
      expect(readFileSync(join(out, "a.tar.gz")).equals(readFileSync(join(out, "b.tar.gz")))).toBe(true);
      execFileSync("tar", ["-xzf", join(out, "a.tar.gz"), "-C", out]);
      const unpacked = join(out, MIRROR_FOLDER);
      const expected = walk(sample.outDir)
        .filter((f) => !/\.(gz|br)$/.test(f))
        .map((f) => relative(sample.outDir, f))
        .sort();
      expect(
        walk(unpacked)
          .map((f) => relative(unpacked, f))
          .sort(),
      ).toEqual(expected);
      expect(first.files).toBe(expected.length);
      for (const f of expected) expect(readFileSync(join(unpacked, f)).equals(readFileSync(join(sample.outDir, f))), f).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("FALLBACK_URL", () => {
  it("is checked and normalised by the build, and absent it leaves the rest to the edge function", async () => {
    const { fallbackUrlOf } = await import("../scripts/finishBuild.js");
    expect(fallbackUrlOf(undefined)).toBeUndefined();
    expect(fallbackUrlOf("https://fallback.example.org/")).toBe("https://fallback.example.org");
    expect(fallbackUrlOf("https://abc.lambda-url.eu-west-1.on.aws/prefix/")).toBe("https://abc.lambda-url.eu-west-1.on.aws/prefix");
    for (const bad of ["fallback.example.org", "/api", "ftp://x.org", "https://x.org/?a=1", "https://x.org#top", "https://user:secret@x.org"])
      expect(() => fallbackUrlOf(bad), bad).toThrow(/FALLBACK_URL must be an absolute http\(s\) URL without credentials, query or fragment.*got/);
    const rules = netlifyRedirects({}, routes, undefined);
    expect(rules).not.toMatch(/:splat/);
    expect(rules).toContain("edge function");
  });

  it("names the fallback origin of the CloudFront origin group", async () => {
    const { cloudfrontOrigins } = await import("../src/serve/deploy.js");
    const config = JSON.parse(cloudfrontOrigins("https://abc.lambda-url.eu-west-1.on.aws", "maqam.s3.amazonaws.com"));
    expect(config.Origins.Items.map((o: { DomainName: string }) => o.DomainName)).toEqual(["maqam.s3.amazonaws.com", "abc.lambda-url.eu-west-1.on.aws"]);
    expect(config.OriginGroups.Items[0].FailoverCriteria.StatusCodes.Items).toEqual([403, 404]);
    expect(config.OriginGroups.Items[0].Members.Items.map((m: { OriginId: string }) => m.OriginId)).toEqual(
      config.Origins.Items.map((o: { Id: string }) => o.Id),
    );
    expect(config.Origins.Items[1].CustomOriginConfig).toMatchObject({ HTTPSPort: 443, OriginProtocolPolicy: "https-only" });
  });

  it("gives CloudFront the fallback's port apart from its domain, its scheme and its path", async () => {
    const { cloudfrontOrigins } = await import("../src/serve/deploy.js");
    const [, fallback] = JSON.parse(cloudfrontOrigins("http://fallback.example.org:8080/maqam", "maqam.s3.amazonaws.com")).Origins.Items;
    expect(fallback).toMatchObject({
      DomainName: "fallback.example.org",
      OriginPath: "/maqam",
      CustomOriginConfig: { HTTPPort: 8080, OriginProtocolPolicy: "http-only" },
    });
    const [, secure] = JSON.parse(cloudfrontOrigins("https://fallback.example.org:8443", "maqam.s3.amazonaws.com")).Origins.Items;
    expect(secure).toMatchObject({ DomainName: "fallback.example.org", CustomOriginConfig: { HTTPSPort: 8443, OriginProtocolPolicy: "https-only" } });
  });
});
