/**
 * The explorer swept over the archive: renderings chosen (seeded) over every tuning system ×
 * starting note, maqāmāt and ajnās, on their taḥlīl and transposed, with the states whose answers
 * are a 422 (no distinct transposition, an entity the tuning cannot realise); each shown in one
 * page by changing its address, then checked against the API's own answers computed in Node:
 * title, table, picture and downloads, and no error shown where there is none to show.
 */
import type { Page } from "playwright-core";
import { handleRequest } from "../../src/serve/handler.js";
import type { Catalog } from "../../src/theory/catalog.js";
import { KINDS, queryOf, stateOf, VALUE_FORMATS, type State } from "../../public/state.js";

type Kind = keyof typeof KINDS;
export interface Case {
  state: State;
  /** What the API says of it: a rendering, a rendering without other transposition, or not realisable. */
  expect: "rendering" | "tahlil-only" | "unrealisable";
}

/** A small seeded generator (mulberry32): the same seed, the same sweep. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Named {
  idName: string;
  displayName: string;
}
interface Pitch extends Record<string, unknown> {
  noteNameDisplay: string;
  octave: number;
  scaleDegree?: string;
  englishName?: string;
  cents: number;
}
/** The parts of the API's answers the sweep reads (lists, transpositions, details, errors). */
interface Body {
  error: string;
  data: ({ tuningSystem: Named; startingNotes: { idNames: string[] } } & Record<Kind, Named>)[];
  transpositions: { detailed: Named[] };
  maqam?: Named;
  jins?: Named;
  tonic: Named;
  context: { tuningSystem: Named };
  pitchData: Pitch[] | { ascending: Pitch[]; descending: Pitch[] };
}
export const apiOf =
  (catalog: Catalog) =>
  async (path: string): Promise<{ status: number; body: Body }> => {
    const r = await handleRequest(new Request(`http://localhost/api${path}`), { catalog, baseUrl: "http://localhost:3000" });
    return { status: r.status, body: (await r.json()) as Body };
  };

/**
 * Cases: `perContext` maqāmāt and jins per tuning system × starting note (every one when
 * `perContext` is Infinity), each on its taḥlīl or on one of its transpositions, and one entity
 * the tuning cannot realise per context where there is one.
 */
export async function sweepCases(catalog: Catalog, perContext: number, seed: number): Promise<Case[]> {
  const api = apiOf(catalog);
  const random = seeded(seed);
  const cases: Case[] = [];
  const systems = (await api("/tuning-systems")).body.data;
  const library: Record<Kind, string[]> = {
    maqam: (await api("/maqamat")).body.data.map((d) => d.maqam.idName),
    jins: (await api("/ajnas")).body.data.map((d) => d.jins.idName),
  };
  for (const { tuningSystem, startingNotes } of systems)
    for (const startingNote of startingNotes.idNames)
      for (const kind of ["maqam", "jins"] as Kind[]) {
        const list = (await api(`/tuning-systems/${tuningSystem.idName}/${startingNote}/${KINDS[kind]}`)).body.data;
        const names = list.map((d) => d[kind].idName);
        const picked = perContext >= names.length ? names : [...names].sort(() => random() - 0.5).slice(0, perContext);
        for (const name of picked) {
          const base = {
            ...stateOf(""),
            tuningSystem: tuningSystem.idName,
            startingNote,
            kind,
            name,
            format: VALUE_FORMATS[Math.floor(random() * VALUE_FORMATS.length)],
          };
          const moves = await api(`/${KINDS[kind]}/${name}/transpositions?startingNote=${startingNote}&tuningSystem=${tuningSystem.idName}`);
          if (moves.status === 422) {
            cases.push({ state: base, expect: "tahlil-only" });
            continue;
          }
          const options = moves.body.transpositions.detailed.map((t) => t.idName);
          const transposed = random() < 0.5 ? options[Math.floor(random() * options.length)] : "";
          cases.push({ state: { ...base, transposition: transposed }, expect: "rendering" });
        }
        // An entity the address names that this tuning cannot realise (its detail is a 422).
        for (const name of library[kind].filter((n) => !names.includes(n)).sort(() => random() - 0.5)) {
          const detail = await api(`/${KINDS[kind]}/${name}?startingNote=${startingNote}&tuningSystem=${tuningSystem.idName}`);
          if (detail.status !== 422) continue;
          cases.push({ state: { ...stateOf(""), tuningSystem: tuningSystem.idName, startingNote, kind, name }, expect: "unrealisable" });
          break;
        }
      }
  return cases.sort(() => random() - 0.5);
}

/** What the page shows of the explorer's view. */
export interface Shown {
  title: string;
  context: string;
  rows: Record<string, string[][]>;
  marks: Record<string, number[]>;
  links: string[];
  errors: string[];
  notes: string[];
  transpositionOptions: number;
}

/** Shows `state` in the open page by changing its address, as the back button would, and reads the view once it is complete. */
export async function show(page: Page, state: State): Promise<Shown> {
  const query = queryOf(state);
  await page.evaluate((q) => {
    history.pushState(null, "", `?${q}#explorer`);
    dispatchEvent(new PopStateEvent("popstate"));
  }, query);
  await page.waitForFunction(
    (q) => {
      const form = document.getElementById("explorer");
      return form?.dataset.ready === "true" && form.dataset.state === q;
    },
    query,
    { timeout: 30_000 },
  );
  return page.evaluate(() => {
    const texts = (selector: string) => [...document.querySelectorAll(selector)].map((e) => e.textContent ?? "");
    const rows: Record<string, string[][]> = {};
    for (const tr of document.querySelectorAll<HTMLElement>("#view table.pitches tbody tr")) {
      rows[tr.dataset.row!] ??= [];
      rows[tr.dataset.row!].push([...tr.querySelectorAll("td")].map((td) => td.textContent ?? ""));
    }
    const marks: Record<string, number[]> = {};
    for (const g of document.querySelectorAll<SVGGElement>("#picture g[data-row]"))
      marks[g.dataset.row!] = [...g.querySelectorAll("circle.pc")].map((c) => Number(c.getAttribute("data-cents")));
    return {
      title: texts("#explorer-title .main").join(""),
      context: texts("#explorer-title .context").join(""),
      rows,
      marks,
      links: [...document.querySelectorAll<HTMLAnchorElement>("#explorer-links li a:not([download])")].map((a) => a.getAttribute("href") ?? ""),
      errors: texts("#view .error"),
      notes: texts("#view .note"),
      transpositionOptions: document.querySelectorAll("#explorer select[name=transposition] option").length,
    };
  });
}

const shown = (v: unknown) => (typeof v === "number" ? String(Math.round(v * 1000) / 1000) : typeof v === "string" && v !== "" ? v : "–");
const sameNotes = (a: Pitch[], b: Pitch[]) =>
  a.length === b.length && a.every((p, i) => p.noteNameDisplay === b[i].noteNameDisplay && p.octave === b[i].octave);

/** The differences between what the page shows for `c` and what the API answers (empty when they agree). */
export async function differences(catalog: Catalog, c: Case, got: Shown): Promise<string[]> {
  const api = apiOf(catalog);
  const s = c.state;
  const out: string[] = [];
  const where = queryOf(s);
  const idName = s.transposition || s.name;
  const detail = await api(`/${KINDS[s.kind]}/${idName}?pitchClassDataType=all&startingNote=${s.startingNote}&tuningSystem=${s.tuningSystem}`);
  if (c.expect === "unrealisable") {
    if (detail.status !== 422) out.push(`${where}: the API answers ${detail.status}, not 422`);
    if (got.errors.length !== 1 || !got.errors[0].includes(detail.body.error))
      out.push(`${where}: shows ${JSON.stringify(got.errors)} instead of the 422's message`);
    if (got.title || Object.keys(got.rows).length || Object.keys(got.marks).length || got.links.length) out.push(`${where}: shows a rendering beside the 422`);
    return out;
  }
  if (got.errors.length) out.push(`${where}: shows an error: ${got.errors.join(" | ")}`);
  if (c.expect === "tahlil-only" && (got.transpositionOptions !== 1 || got.notes.length !== 1))
    out.push(`${where}: ${got.transpositionOptions} transposition options and ${got.notes.length} notes, not the taḥlīl alone with its note`);
  const body = detail.body;
  const entity = (body.maqam ?? body.jins)!;
  if (!got.title.includes(entity.displayName) || !got.title.includes(body.tonic.displayName))
    out.push(`${where}: title "${got.title}" lacks ${entity.displayName} or its tonic ${body.tonic.displayName}`);
  const systemName = String(body.context.tuningSystem.displayName).replace(/\s+/g, " ");
  if (!got.context.includes(systemName)) out.push(`${where}: title context "${got.context}" lacks ${systemName}`);
  const rows: [string, Pitch[]][] = Array.isArray(body.pitchData)
    ? [["notes", body.pitchData]]
    : [
        ["ascending", body.pitchData.ascending],
        ["descending", body.pitchData.descending],
      ];
  const tonic = rows[0][1][0].cents;
  for (const [key, pitches] of rows) {
    const want = pitches.map((p) => [p.scaleDegree ?? "", p.noteNameDisplay, String(p.englishName ?? ""), shown(p.cents - tonic), shown(p[s.format])]);
    if (JSON.stringify(got.rows[key]) !== JSON.stringify(want)) out.push(`${where}: ${key} table ${JSON.stringify(got.rows[key])} ≠ ${JSON.stringify(want)}`);
    const marks = pitches.map((p) => p.cents - tonic).sort((a, b) => a - b);
    const drawn = got.marks[key] ?? [];
    if (drawn.length !== marks.length || drawn.some((m, i) => Math.abs(m - marks[i]) > 1e-9))
      out.push(`${where}: ${key} picture ${JSON.stringify(drawn)} ≠ ${JSON.stringify(marks)}`);
  }
  const base = `/api/exports/${KINDS[s.kind]}/${idName}/${s.tuningSystem}/${s.startingNote}`;
  const descending = rows.length === 2 && !sameNotes(rows[0][1], [...rows[1][1]].reverse());
  const links = [
    `${base}.scl`,
    `${base}.kbm`,
    `${base}-names.kbm`,
    ...(descending ? [`${base}-descending.scl`] : []),
    `${base}.tun`,
    `/api/exports/tuning-systems/${s.tuningSystem}/${s.startingNote}.tun`,
    `${base}.ascl`,
    ...(descending ? [`${base}-descending.ascl`] : []),
    `${base}.syx`,
    ...(descending ? [`${base}-descending.syx`] : []),
    `/api/${KINDS[s.kind]}/${idName}?pitchClassDataType=all&tuningSystem=${s.tuningSystem}&startingNote=${s.startingNote}`,
    `/api/tuning-systems/${s.tuningSystem}/${s.startingNote}/pitch-classes?pitchClassDataType=all`,
  ];
  if (JSON.stringify(got.links) !== JSON.stringify(links)) out.push(`${where}: downloads ${JSON.stringify(got.links)} ≠ ${JSON.stringify(links)}`);
  return out;
}
