/**
 * The explorer's state: one record read from the page's address and written back to it, so a
 * view is a link. Unknown or missing values get defaults here; values that need the archive to
 * check (a tuning system, a name) are checked when the view loads.
 */
import type { PitchClassDataField } from "../src/api/shared/pitchClassValues.js";

export const MODES = ["explore", "routes", "compare"] as const;
export type Mode = (typeof MODES)[number];
/** The pitch-class fields the explorer offers as its value column: measures of the API's one table of value formats (a field renamed there fails to compile here). */
export const VALUE_FORMATS = [
  "cents",
  "fraction",
  "decimalRatio",
  "frequency",
  "stringLength",
  "fretDivision",
  "midiNoteDecimal",
  "centsDeviation",
] as const satisfies readonly PitchClassDataField[];
export const KINDS = { maqam: "maqamat", jins: "ajnas" } as const;
export type Kind = keyof typeof KINDS;

export interface State {
  mode: Mode;
  tuningSystem: string;
  startingNote: string;
  kind: Kind;
  /** The base maqām or jins (idName). */
  name: string;
  /** A transposition's idName, or "" for the taḥlīl. */
  transposition: string;
  format: string;
  /** Routes: the target maqām, the tonics ("" for the taḥlīl) and the limits. */
  to: string;
  fromTonic: string;
  toTonic: string;
  maxHops: number;
  maxRoutes: number;
  downward: boolean;
  /** Compare: the tuning systems side by side and the one the differences are taken from. */
  systems: string[];
  reference: string;
}

/** A request below /api as the client takes it: a path template and its parameters. */
export type Ask = readonly [template: string, params: Readonly<Record<string, string>>];

/**
 * What the explorer reads for the view of `s`, each part a request: the tuning systems, the
 * scope's maqāmāt or ajnās (and its ajnās for a maqām's picture), the transpositions and the
 * rendering shown, with every value format at once so that switching formats asks nothing more;
 * the names in Arabic too on the Arabic page. The build pre-renders the first view's
 * (scripts/prerender/index.ts), so that the landing page reads files only.
 */
export function explorerRequests(s: Pick<State, "tuningSystem" | "startingNote" | "kind" | "name" | "transposition">, arabic: boolean) {
  const language = arabic ? { includeArabic: "true" } : {};
  const collection = KINDS[s.kind];
  const scope = { id: s.tuningSystem, startingNote: s.startingNote, ...language };
  const context = { tuningSystem: s.tuningSystem, startingNote: s.startingNote, ...language };
  return {
    systems: ["/tuning-systems", language] as Ask,
    names: [`/tuning-systems/{id}/{startingNote}/${collection}`, scope] as Ask,
    ajnas: s.kind === "maqam" ? (["/tuning-systems/{id}/{startingNote}/ajnas", scope] as Ask) : undefined,
    transpositions: [`/${collection}/{idName}/transpositions`, { idName: s.name, ...context }] as Ask,
    rendering: [`/${collection}/{idName}`, { idName: s.transposition || s.name, ...context, pitchClassDataType: "all" }] as Ask,
  };
}

export const DEFAULTS: State = {
  mode: "explore",
  tuningSystem: "ibnsina_1037",
  startingNote: "yegah",
  kind: "maqam",
  name: "maqam_rast",
  transposition: "",
  format: "cents",
  to: "maqam_bayyat",
  fromTonic: "",
  toTonic: "",
  maxHops: 2,
  maxRoutes: 10,
  downward: true,
  systems: ["ibnsina_1037", "alfarabi_950g", "cairocongresstuningcommittee_1929", "angloeuropean_1800"],
  reference: "angloeuropean_1800",
};

const intIn = (raw: string | null, low: number, high: number, fallback: number) => {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n >= low && n <= high ? n : fallback;
};
const oneOf = <T extends string>(raw: string | null, options: readonly T[], fallback: T): T => (options.includes(raw as T) ? (raw as T) : fallback);

/** The state an address names (its query string). */
export function stateOf(search: string): State {
  const q = new URLSearchParams(search);
  const kind = oneOf(q.get("kind"), ["maqam", "jins"] as const, "maqam");
  const systems = (q.get("systems") ?? "").split(",").filter(Boolean);
  return {
    mode: oneOf(q.get("view"), MODES, "explore"),
    tuningSystem: q.get("tuningSystem") || DEFAULTS.tuningSystem,
    startingNote: q.get("startingNote") || DEFAULTS.startingNote,
    kind,
    name: q.get(kind) || (kind === "maqam" ? DEFAULTS.name : "jins_rast"),
    transposition: q.get("transposition") ?? "",
    format: oneOf(q.get("format"), VALUE_FORMATS, "cents"),
    to: q.get("to") || DEFAULTS.to,
    fromTonic: q.get("fromTonic") ?? "",
    toTonic: q.get("toTonic") ?? "",
    maxHops: intIn(q.get("maxHops"), 1, 6, DEFAULTS.maxHops),
    maxRoutes: intIn(q.get("maxRoutes"), 1, 50, DEFAULTS.maxRoutes),
    downward: q.has("downward") ? q.get("downward") === "true" : DEFAULTS.downward,
    systems: systems.length ? systems.slice(0, 12) : DEFAULTS.systems,
    reference: q.get("reference") || (systems[0] ?? DEFAULTS.reference),
  };
}

/** The query string of a state: only what its mode reads, in a fixed order (so equal states give equal addresses). */
export function queryOf(s: State, lang?: string): string {
  const common: [string, string][] = [["view", s.mode], ...(lang ? [["lang", lang] as [string, string]] : [])];
  const byMode: Record<Mode, [string, string][]> = {
    explore: [
      ["tuningSystem", s.tuningSystem],
      ["startingNote", s.startingNote],
      ["kind", s.kind],
      [s.kind, s.name],
      ["transposition", s.transposition],
      ["format", s.format],
    ],
    routes: [
      ["tuningSystem", s.tuningSystem],
      ["startingNote", s.startingNote],
      ["maqam", s.name],
      ["fromTonic", s.fromTonic],
      ["to", s.to],
      ["toTonic", s.toTonic],
      ["maxHops", String(s.maxHops)],
      ["maxRoutes", String(s.maxRoutes)],
      ["downward", String(s.downward)],
    ],
    compare: [
      ["kind", s.kind],
      [s.kind, s.name],
      ["systems", s.systems.join(",")],
      ["reference", s.reference],
      ["format", s.format],
    ],
  };
  return new URLSearchParams([...common, ...byMode[s.mode]]).toString();
}
