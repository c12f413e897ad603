/**
 * `npm run fuzz [-- --count N --seed S]`: requests generated (fast-check, seeded) from every
 * route's declared parameters — valid values from the catalog, boundaries, wrong types, empty and
 * repeated parameters, huge lists, odd Unicode and percent-encoding, path traversal — sent through
 * the web handler. Every answer must be a 200 whose body validates against the route's response
 * schema, or a 4xx with the error body; never a 5xx, an exception or an answer slower than 2 s.
 * Prints a summary and exits 1 on any failure; `--count 100000` is the acceptance run.
 */
import fc from "fast-check";
import { pathToFileURL } from "node:url";
import { routes } from "../src/api/routes.js";
import type { Route } from "../src/api/route.js";
import type { ParamDeclaration } from "../src/api/params.js";
import { MAX_LIST_ITEMS } from "../src/api/params.js";
import { requestOfStaticFile } from "../src/api/staticPath.js";
import { BINARY_FILE_BODY } from "../src/api/shared/bodies.js";
import { errorSchemas } from "../src/api/shared/errorSchema.js";
import { BINARY_FILE_TYPE } from "../src/exports/formats.js";
import { handleRequest } from "../src/serve/handler.js";
import type { Catalog } from "../src/theory/catalog.js";
import { toIdName } from "../src/theory/idName.js";

/**
 * The longest an answer may take, in CPU time of the process (garbage collection included): on a
 * machine whose cores other work shares, wall time measures the machine. Wall time is reported.
 */
export const SLOW_MS = 2000;

/** Text that has broken parsers: traversal, encodings, control and combining characters, RTL, emoji, surrogates. */
const HOSTILE = [
  "",
  " ",
  "%20",
  "..",
  "../../package.json",
  "%2e%2e%2f%2e%2e%2fpackage.json",
  "..%2F..%2Fetc%2Fpasswd",
  "%252e%252e",
  "%",
  "%zz",
  "%E0%A4%A",
  "%FF%FE",
  "%00",
  "%ED%A0%80",
  "a%0Ab",
  "<script>",
  "'\"",
  "\u202e\u0627\u0644\u0639\u0631\u0628\u064a\u0629",
  "e\u0301\u0301\u0301",
  "\u{1F3B5}",
  "NaN",
  "-1",
  "1e308",
  "0x10",
  "true",
  "null",
  "undefined",
  "all",
  "ALL",
  "x".repeat(300),
];

const CENTS = ["0", "5", "7.5", "10", "25", "0.01", "1e2", "Infinity", "-0", "-1", "abc", "", " 5", "5abc", "1e308"];
const BOOLEANS = ["true", "false", "TRUE", " true", "", "1", "yes"];

/** Values of the catalog by parameter name: most requests should reach the handlers, not only the validators. */
function pools(cat: Catalog): Record<string, readonly string[]> {
  const tuningSystems = cat.tuningSystems.map((ts) => ts.id);
  const startingNotes = [...new Set(cat.tuningSystems.flatMap((ts) => ts.startingNotes.map(toIdName)))];
  const notes = cat.notes.allNoteNames.map((n) => n.idName);
  const maqamat = cat.maqamat.map((m) => m.idName);
  const ajnas = cat.ajnas.map((j) => j.idName);
  const families = ["rast", "bayyat", "hijaz", "Rast", "saba", "nope"];
  return {
    id: tuningSystems,
    "/sources:id": cat.sources.map((s) => s.id),
    tuningSystem: tuningSystems,
    tuningSystems: tuningSystems,
    filterByTuningSystem: tuningSystems,
    startingNote: startingNotes,
    startingNotes: startingNotes,
    noteName: notes,
    noteNames: notes,
    transpositionNoteName: notes,
    transposeTo: notes,
    filterByTonic: notes,
    from: notes,
    to: notes,
    fromTonic: notes,
    toTonic: notes,
    idName: [...maqamat, "maqam_rast_al_nawa", "1", "12"],
    "/ajnas:idName": [...ajnas, "jins_rast_al_nawa", "1", "12"],
    maqamId: maqamat,
    fromMaqam: maqamat,
    toMaqam: maqamat,
    waypoints: maqamat,
    setId: maqamat.map((m) => `${m}_set`),
    setIdName: maqamat.map((m) => `${m}_set`),
    filterByFamily: families,
    maxHops: ["0", "1", "2", "4", "20", "21", "-1", "abc", "1.5"],
    maxRoutes: ["1", "3", "100", "1000", "1001", "0", "abc"],
  };
}

const oneOf = <T>(items: readonly T[]) => fc.constantFrom(...items);
/** 0–99, uniform: fast-check's numbers lean towards their bounds, which would make every parameter present. */
const percent = fc.noBias(fc.nat({ max: 99 }));

/** Values for one declared parameter of a route: mostly plausible, sometimes hostile. */
function generatedValue(route: Route, name: string, d: ParamDeclaration, pool: Record<string, readonly string[]>): fc.Arbitrary<string> {
  // A pool for the route's group (`/ajnas:idName`), else for the name.
  const group = /^\/(exports\/)?(\w[\w-]*)/.exec(route.path)?.[2];
  const known = pool[`/${group}:${name}`] ?? pool[name] ?? [];
  const plausible = [...(d.example !== undefined ? [d.example] : []), ...known];
  const a = d.accepts;
  const hostile = oneOf(HOSTILE);
  const free = fc.string({ maxLength: 12, unit: "grapheme" });
  switch (a.shape) {
    case "flag":
    case "boolean":
      return fc.oneof({ weight: 8, arbitrary: oneOf(BOOLEANS) }, { weight: 1, arbitrary: hostile });
    case "enum":
      return fc.oneof(
        { weight: 8, arbitrary: oneOf(a.values) },
        { weight: 1, arbitrary: oneOf(a.values.map((v) => v.toUpperCase())) },
        { weight: 1, arbitrary: hostile },
      );
    case "cents":
      return fc.oneof({ weight: 6, arbitrary: oneOf(CENTS) }, { weight: 1, arbitrary: fc.double({ min: 0, max: 50, noNaN: true }).map(String) });
    case "list": {
      const item = plausible.length ? oneOf(plausible) : free;
      return fc.oneof(
        { weight: 8, arbitrary: fc.array(item, { minLength: 1, maxLength: 4 }).map((xs) => xs.join(",")) },
        { weight: 1, arbitrary: fc.constantFrom("all", "all,ibnsina_1037", ",,", " , ", "") },
        {
          weight: 1,
          arbitrary: fc
            .integer({ min: MAX_LIST_ITEMS - 2, max: MAX_LIST_ITEMS + 200 })
            .map((n) => Array.from({ length: n }, (_, i) => plausible[i % Math.max(1, plausible.length)] ?? "x").join(",")),
        },
        { weight: 1, arbitrary: hostile },
      );
    }
    default:
      return plausible.length
        ? fc.oneof({ weight: 8, arbitrary: oneOf(plausible) }, { weight: 1, arbitrary: hostile }, { weight: 1, arbitrary: free })
        : fc.oneof({ weight: 3, arbitrary: hostile }, { weight: 1, arbitrary: free });
  }
}

/** Percent-encodes as a client would, or leaves the text raw (spaces, `%`, Unicode) as a careless one might. */
const encoded = (text: string, raw: boolean) => (raw ? text.replace(/[#?&=/]/g, encodeURIComponent) : encodeURIComponent(text));

interface Generated {
  route: string;
  /** The request target as sent (below the origin), e.g. `/api/maqamat/maqam_rast?tuningSystem=…`. */
  target: string;
}

/** A request for one route: each path segment filled, each declared query parameter present or not, plus noise. */
function requestFor(route: Route, pool: Record<string, readonly string[]>): fc.Arbitrary<Generated> {
  const segments = route.pathParams.map((name) => generatedValue(route, name, route.params[name], pool));
  const query = Object.entries(route.params)
    .filter(([, d]) => d.in === "query")
    .map(([name, d]) =>
      fc
        .record({ present: percent.map((r) => r < (d.required ? 90 : 40)), value: generatedValue(route, name, d, pool), twice: percent.map((r) => r < 3) })
        .map((q) => ({ name, ...q })),
    );
  const noise = fc.array(
    fc.tuple(fc.oneof(oneOf(["x", "", "tuningSystem", "__proto__", "constructor", "%", "a b"]), fc.string({ maxLength: 6 })), oneOf(HOSTILE)),
    { maxLength: 2 },
  );
  const pathStyle = fc.constantFrom("plain", "plain", "plain", "plain", "raw", "trailing", "double");
  return fc.tuple(fc.tuple(...segments), fc.tuple(...query), noise, pathStyle, fc.boolean()).map(([values, params, extra, style, rawQuery]) => {
    let i = 0;
    let path = route.path.replace(/\{\w+\}/g, () => encoded(values[i++] ?? "", style === "raw"));
    if (style === "trailing") path += "/";
    if (style === "double") path = path.replace("/", "//");
    const pairs: string[] = [];
    for (const p of params) {
      if (!p.present) continue;
      const pair = `${p.name}=${encoded(p.value, rawQuery)}`;
      pairs.push(pair);
      if (p.twice) pairs.push(pair);
    }
    for (const [k, v] of extra) pairs.push(`${encoded(k, rawQuery)}=${encoded(v, rawQuery)}`);
    return { route: route.name, target: `/api${path}${pairs.length ? `?${pairs.join("&")}` : ""}` };
  });
}

/** Every route, equally often: one arbitrary over all of them. */
export function fuzzArbitrary(cat: Catalog): fc.Arbitrary<Generated> {
  const pool = pools(cat);
  return fc.oneof(...routes.map((r) => requestFor(r, pool)));
}

/** The route a target reaches, as dispatch matches it (raw path, trailing slashes off), or via its static file name. */
export function routeOf(target: string): Route | undefined {
  const url = new URL(target, "http://x");
  const below = url.pathname.slice("/api".length);
  const bare = below.length > 1 ? below.replace(/\/+$/, "") : below || "/";
  const direct = routes.find((r) => r.matcher.test(bare));
  if (direct) return direct;
  const asFile = url.search ? undefined : requestOfStaticFile(below.slice(1));
  return asFile ? routes.find((r) => r.matcher.test(asFile.path)) : undefined;
}

/** Why an answer breaks the contract, or undefined when it keeps it. */
export function contractBreach(target: string, status: number, contentType: string, body: string): string | undefined {
  if (status >= 500) return `${status}: ${body.slice(0, 200)}`;
  if (status >= 400) {
    if (!contentType.includes("application/json")) return `${status} is not JSON (${contentType})`;
    const parsed = errorSchemas().ERROR_BODY.safeParse(JSON.parse(body));
    return parsed.success ? undefined : `${status} body is not the error shape: ${parsed.error.issues[0]?.message}`;
  }
  if (status !== 200) return `unexpected status ${status}`;
  const route = routeOf(target);
  if (!route) return "200 from no route";
  // A file of bytes (MIDI system exclusive) is checked by its type; a text file's body is its text (printable ASCII lines); any other is JSON.
  if (route.response === BINARY_FILE_BODY) return contentType.startsWith(BINARY_FILE_TYPE) ? undefined : `a file of bytes served as ${contentType}`;
  const parsed = route.response.safeParse(route.answersFile ? body : JSON.parse(body));
  return parsed.success ? undefined : `200 does not validate against ${route.name}: ${JSON.stringify(parsed.error.issues[0]).slice(0, 300)}`;
}

export interface FuzzReport {
  requests: number;
  failures: { target: string; why: string }[];
  byStatus: Record<number, number>;
  /** The answer that took the most CPU time, and its wall time. */
  slowest: { target: string; ms: number; wallMs: number };
  routes: number;
}

/** Sends `count` generated requests (seeded) through the web handler, one at a time, and checks each answer. */
export async function fuzz(
  cat: Catalog,
  { count, seed, slowMs = SLOW_MS, onProgress }: { count: number; seed: number; slowMs?: number; onProgress?: (done: number) => void },
): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, failures: [], byStatus: {}, slowest: { target: "", ms: 0, wallMs: 0 }, routes: 0 };
  const seen = new Set<string>();
  const options = { catalog: cat, baseUrl: "http://localhost:3000" };
  // Drawn in chunks: fc.sample holds every value of a call in memory.
  const CHUNK = 1000;
  for (let start = 0; start < count; start += CHUNK) {
    const batch = fc.sample(fuzzArbitrary(cat), { seed: seed + start, numRuns: Math.min(CHUNK, count - start) });
    for (const { route, target } of batch) {
      seen.add(route);
      const started = performance.now();
      const startedCpu = process.cpuUsage();
      let why: string | undefined;
      try {
        const response = await handleRequest(new Request(`http://localhost${target}`), options);
        const body = await response.text();
        report.byStatus[response.status] = (report.byStatus[response.status] ?? 0) + 1;
        why = contractBreach(target, response.status, response.headers.get("content-type") ?? "", body);
      } catch (e) {
        // new Request refuses some targets (a client could not send them): not an answer to check.
        if (e instanceof TypeError && /Invalid URL|Failed to parse URL/.test(e.message)) continue;
        why = `exception: ${(e as Error).stack ?? e}`;
      }
      const cpu = process.cpuUsage(startedCpu);
      const ms = (cpu.user + cpu.system) / 1000;
      const wallMs = performance.now() - started;
      if (ms > report.slowest.ms) report.slowest = { target, ms, wallMs };
      if (!why && ms > slowMs) why = `answered in ${ms.toFixed(0)} ms of CPU time (over ${slowMs} ms; ${wallMs.toFixed(0)} ms wall)`;
      if (why) report.failures.push({ target, why });
      report.requests++;
    }
    onProgress?.(Math.min(count, start + CHUNK));
  }
  report.routes = seen.size;
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name: string, fallback: number) => {
    const at = process.argv.indexOf(`--${name}`);
    return at >= 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const count = arg("count", 100_000);
  const seed = arg("seed", 20261124);
  const { readFacts } = await import("../src/data/load.js");
  const { createCatalog } = await import("../src/theory/catalog.js");
  const started = performance.now();
  const report = await fuzz(createCatalog(readFacts()), {
    count,
    seed,
    onProgress: (done) => process.stderr.write(`\rfuzz: ${done}/${count}`),
  });
  process.stderr.write("\n");
  const statuses = Object.entries(report.byStatus)
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
  console.log(
    `fuzz: ${report.requests} requests over ${report.routes} routes in ${((performance.now() - started) / 1000).toFixed(0)} s (seed ${seed}); ${statuses}`,
  );
  console.log(`fuzz: slowest ${report.slowest.ms.toFixed(0)} ms CPU (${report.slowest.wallMs.toFixed(0)} ms wall): ${report.slowest.target.slice(0, 300)}`);
  for (const f of report.failures.slice(0, 30)) console.log(`FAIL ${f.target.slice(0, 300)}\n     ${f.why}`);
  console.log(`fuzz: ${report.failures.length} failures`);
  process.exitCode = report.failures.length ? 1 : 0;
}
