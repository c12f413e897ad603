import { describe, it, expect } from "vitest";
import { catalog } from "./support/catalog.js";
import { staticFileOf, requestOfStaticFile, canonicalQuery, MAX_SEGMENT_BYTES, SAFE_PATH, SAFE_SEGMENT } from "../src/api/staticPath.js";
import { prerenderRequests } from "../scripts/prerender/index.js";

const fileOf = (request: string) => {
  const url = new URL(request, "http://x");
  return staticFileOf(url.pathname, url.searchParams);
};
/** Every pre-rendered request of the default profile, listed once for the file's tests. */
let listed: string[] | undefined;
const prerendered = () => (listed ??= [...prerenderRequests(catalog)]);

/** staticFileOf on the raw path, before WHATWG URL parsing resolves dot segments. */
const rawFileOf = (path: string, query = "") => staticFileOf(path, new URLSearchParams(query));

describe("staticFileOf", () => {
  it("maps canonical requests to files", () => {
    expect(fileOf("/tuning-systems")).toBe("tuning-systems/index.json");
    expect(fileOf("/tuning-systems/ibnsina_1037/yegah/pitch-classes?octave=1&pitchClassDataType=cents")).toBe(
      "tuning-systems/ibnsina_1037/yegah/pitch-classes/@octave=1&pitchClassDataType=cents.json",
    );
    expect(fileOf("/maqamat/maqam_rast?startingNote=saham/ramal_tuti&tuningSystem=x")).toBe(
      "maqamat/maqam_rast/@startingNote=saham~ramal_tuti&tuningSystem=x.json",
    );
    expect(fileOf("/pitch-classes/note-names/saham/ramal_tuti")).toBe("pitch-classes/note-names/saham/ramal_tuti/index.json");
    expect(fileOf("/sources?includeArabic=")).toBe("sources/@includeArabic=.json");
  });

  it.each([
    ["unsorted parameters", "/maqamat/maqam_rast?tuningSystem=x&startingNote=yegah"],
    ["a repeated parameter", "/maqamat/maqam_rast?a=1&a=2"],
    ["a trailing slash", "/tuning-systems/"],
    ["an empty segment", "/tuning-systems//ibnsina_1037/yegah/pitch-classes"],
    ["a percent-encoded segment", "/tuning-systems/ibnsina_1037/y%61gah/pitch-classes"],
    ["an encoded slash", "/tuning-systems/ibnsina_1037%2Fyegah/pitch-classes"],
    ["a space in a value", "/sources?q=a+b"],
    ["a tilde in a value", "/sources?q=a~b"],
    ["a percent sign in a value", "/sources?q=100%25"],
    ["a non-ASCII value", "/sources?q=%C3%A9"],
    ["a non-alphanumeric name", "/sources?a_b=1"],
    ["an overlong file name", `/sources?q=${"x".repeat(260)}`],
  ])("refuses %s", (_, request) => {
    const [path, query] = request.split("?");
    expect(rawFileOf(path, query)).toBeUndefined();
  });

  it.each(["/..", "/../package.json", "/tuning-systems/../../package.json", "/.", "/tuning-systems/./x", "/%2e%2e/package.json", "/..%2fpackage.json"])(
    "refuses the dot segments of %s",
    (path) => expect(rawFileOf(path)).toBeUndefined(),
  );

  it("takes a path exactly when each of its segments is safe (SAFE_PATH against the segments one by one)", () => {
    const safeSegment = (segment: string) => SAFE_SEGMENT.test(segment) && !/^\.+$/.test(segment) && segment.length <= MAX_SEGMENT_BYTES;
    const bySegments = (path: string) => path.startsWith("/") && path.slice(1).split("/").every(safeSegment);
    // Paths of the characters that decide, and segments about the length limit.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = ["/", "/", ".", "..", "a", "Z9", "_", "-", "(x)", "~", "%2e", "é", " ", "", "x".repeat(MAX_SEGMENT_BYTES - 1)];
    const paths = Array.from({ length: 20_000 }, () =>
      Array.from({ length: 1 + Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]).join(""),
    );
    paths.push(
      "/",
      "//",
      "/.",
      "/..",
      "/...",
      "/.a",
      "/a.",
      `/${"x".repeat(MAX_SEGMENT_BYTES)}`,
      `/${"x".repeat(MAX_SEGMENT_BYTES + 1)}`,
      `/a/${"x".repeat(MAX_SEGMENT_BYTES)}/b`,
    );
    const differing = paths.filter((path) => SAFE_PATH.test(path) !== bySegments(path));
    expect(differing).toEqual([]);
    // Both answers are met often.
    const taken = paths.filter((path) => SAFE_PATH.test(path)).length;
    expect(taken).toBeGreaterThan(300);
    expect(paths.length - taken).toBeGreaterThan(10_000);
  });

  it("keeps every file name inside its folder and within 255 bytes", () => {
    const unsafe = prerendered().filter((request) => {
      const file = fileOf(request);
      if (file === undefined) return true;
      const name = file.slice(file.lastIndexOf("/") + 1);
      return Buffer.byteLength(name) > 255 || file.split("/").some((s) => s === "" || s === "." || s === "..");
    });
    expect(unsafe).toEqual([]);
  });
});

describe("canonicalQuery", () => {
  it("sorts by name and refuses repeats", () => {
    expect(
      canonicalQuery([
        ["b", "2"],
        ["a", "1"],
      ]),
    ).toBe("a=1&b=2");
    expect(
      canonicalQuery([
        ["a", "1"],
        ["a", "2"],
      ]),
    ).toBeUndefined();
  });
});

describe("requestOfStaticFile", () => {
  it("inverts staticFileOf on every pre-rendered request", () => {
    const notInverted = prerendered().filter((request) => {
      const url = new URL(request, "http://x");
      const back = requestOfStaticFile(fileOf(request)!);
      return back?.path !== url.pathname || back.query.toString() !== url.searchParams.toString();
    });
    expect(notInverted).toEqual([]);
  });

  it("maps /api itself to index.json and /api/openapi.json to its own name, and back", () => {
    expect(fileOf("/")).toBe("index.json");
    expect(fileOf("/openapi.json")).toBe("openapi.json");
    expect(requestOfStaticFile("index.json")).toEqual({ path: "/", query: new URLSearchParams() });
    expect(requestOfStaticFile("openapi.json")).toEqual({ path: "/openapi.json", query: new URLSearchParams() });
    expect(rawFileOf("/", "a=1")).toBeUndefined();
  });

  it.each([
    "tuning-systems/@.json",
    "tuning-systems/@b=1&a=2.json",
    "tuning-systems/@a=1&a=2.json",
    "tuning-systems/@a=x+y.json",
    "tuning-systems/@a=%41.json",
    "tuning-systems/other.json",
    "../index.json",
    "x/../index.json",
  ])("refuses %s, which no build writes", (file) => expect(requestOfStaticFile(file)).toBeUndefined());
});
