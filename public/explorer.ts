/**
 * The explorer: choose a tuning system, starting note, maqām or jins, transposition and value
 * format; see the pitch-class table, the ajnās per degree, the picture, links to the JSON answer,
 * the tuning and the picture file, and hear the sequence. Every answer comes through the client:
 * the pre-rendered file where the build has one, computed in the page otherwise.
 */
import { createClient } from "../src/client/index.js";
import { staticFileOf } from "../src/api/staticPath.js";
import { pictureOf, svgOf, type PitchRow, type RealisationAnswer } from "../src/site/picture.js";
import { play } from "./sound.js";

interface Named {
  idName: string;
  displayName: string;
}
interface TuningSystemList {
  data: { tuningSystem: Named; startingNotes: { idNames: string[]; displayNames: string[] } }[];
}
interface KindList {
  data: (({ maqam: Named & { id: string } } | { jins: Named & { id: string } }) & { stats: { numberOfPitchClasses: number } })[];
}
interface Transpositions {
  transpositions: { detailed: Named[] };
}
type Pitch = PitchRow & { scaleDegree?: string; englishName?: string; frequency: number; cents: number } & Record<string, unknown>;
type Answer = Omit<RealisationAnswer, "pitchData"> & {
  pitchData: Pitch[] | { ascending: Pitch[]; descending: Pitch[] };
  links: { self: string };
};

export const VALUE_FORMATS = ["cents", "fraction", "decimalRatio", "frequency", "stringLength", "fretDivision", "midiNoteDecimal", "centsDeviation"] as const;
const KINDS = { maqam: "maqamat", jins: "ajnas" } as const;
type Kind = keyof typeof KINDS;

export interface Selection {
  tuningSystem: string;
  startingNote: string;
  kind: Kind;
  name: string;
  transposition: string;
  format: string;
}

const DEFAULTS: Selection = { tuningSystem: "ibnsina_1037", startingNote: "yegah", kind: "maqam", name: "maqam_rast", transposition: "", format: "cents" };

const client = createClient({ baseUrl: location.origin });
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const el = (tag: string, text = "", attrs: Record<string, string> = {}) => {
  const e = document.createElement(tag);
  e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

function fill(select: HTMLSelectElement, options: [value: string, label: string][], chosen: string): string {
  select.replaceChildren(...options.map(([value, label]) => new Option(label, value, false, value === chosen)));
  if (!options.some(([v]) => v === chosen)) select.selectedIndex = 0;
  return select.value;
}

/** The selection in the page's query string, defaults for what it does not name. */
function selectionFromUrl(): Selection {
  const q = new URLSearchParams(location.search);
  const kind = q.get("kind") === "jins" ? "jins" : "maqam";
  return {
    tuningSystem: q.get("tuningSystem") ?? DEFAULTS.tuningSystem,
    startingNote: q.get("startingNote") ?? DEFAULTS.startingNote,
    kind,
    name: q.get(kind) ?? (kind === "maqam" ? DEFAULTS.name : "jins_rast"),
    transposition: q.get("transposition") ?? "",
    format: q.get("format") ?? DEFAULTS.format,
  };
}

const value = (p: Pitch, format: string) => {
  const v = p[format];
  return typeof v === "number" ? String(Math.round(v * 1000) / 1000) : typeof v === "string" ? v : "–";
};

function pitchTable(rows: [string, Pitch[]][], format: string): HTMLTableElement {
  const table = el("table", "", { class: "pitches" }) as HTMLTableElement;
  table.append(el("caption", "Pitch classes"));
  const head = el("tr");
  for (const h of ["", "degree", "note", "English", format]) head.append(el("th", h));
  table.append(head);
  for (const [label, pitches] of rows)
    pitches.forEach((p, i) => {
      const tr = el("tr", "", { "data-row": label });
      tr.append(el("th", i === 0 ? label : ""), el("td", p.scaleDegree ?? String(i + 1)), el("td", p.noteNameDisplay), el("td", String(p.englishName ?? "")), el("td", value(p, format), { class: "value" }));
      table.append(tr);
    });
  return table;
}

function ajnasTable(ajnas: NonNullable<RealisationAnswer["ajnas"]>): HTMLTableElement {
  const table = el("table", "", { class: "ajnas" }) as HTMLTableElement;
  table.append(el("caption", "Ajnās on each degree"));
  for (const [label, byNote] of Object.entries(ajnas)) {
    for (const [note, found] of Object.entries(byNote)) {
      const tr = el("tr");
      tr.append(el("th", note === Object.keys(byNote)[0] ? label : ""), el("td", note), el("td", found.map((j) => j.displayName).join(", ") || "–"));
      table.append(tr);
    }
  }
  return table;
}

async function render(s: Selection) {
  const status = $("explorer-status");
  status.textContent = "Loading…";
  const form = $<HTMLFormElement>("explorer");
  const select = (name: string) => form.elements.namedItem(name) as HTMLSelectElement;
  const systems = (await client.get("/tuning-systems")) as TuningSystemList;
  s.tuningSystem = fill(select("tuningSystem"), systems.data.map((t) => [t.tuningSystem.idName, t.tuningSystem.displayName]), s.tuningSystem);
  const system = systems.data.find((t) => t.tuningSystem.idName === s.tuningSystem)!;
  s.startingNote = fill(select("startingNote"), system.startingNotes.idNames.map((id, i) => [id, system.startingNotes.displayNames[i]]), s.startingNote);
  select("kind").value = s.kind;
  const scope = { id: s.tuningSystem, startingNote: s.startingNote };
  const [names, ajnasList] = await Promise.all([
    client.get(`/tuning-systems/{id}/{startingNote}/${KINDS[s.kind]}`, scope) as Promise<KindList>,
    client.get("/tuning-systems/{id}/{startingNote}/ajnas", scope) as Promise<KindList>,
  ]);
  const named = (d: KindList["data"][number]) => ("maqam" in d ? d.maqam : d.jins);
  s.name = fill(select("name"), names.data.map((d) => [named(d).idName, named(d).displayName]), s.name);
  const context = { tuningSystem: s.tuningSystem, startingNote: s.startingNote };
  const moves = (await client.get(`/${KINDS[s.kind]}/{idName}/transpositions`, { idName: s.name, ...context })) as Transpositions;
  s.transposition = fill(select("transposition"), [["", "untransposed"], ...moves.transpositions.detailed.map((t): [string, string] => [t.idName, t.displayName])], s.transposition);
  s.format = fill(select("format"), VALUE_FORMATS.map((f) => [f, f]), s.format);
  const path = `/${KINDS[s.kind]}/{idName}`;
  const params = { idName: s.transposition || s.name, pitchClassDataType: "all", ...context };
  const answer = (await client.get(path, params)) as Answer;
  const sizes = new Map(ajnasList.data.map((d) => ["jins" in d ? d.jins.id : "", d.stats.numberOfPitchClasses]));
  const picture = pictureOf(answer, sizes);
  const rows: [string, Pitch[]][] = Array.isArray(answer.pitchData)
    ? [["notes", answer.pitchData]]
    : [
        ["ascending", answer.pitchData.ascending],
        ["descending", answer.pitchData.descending],
      ];
  $("explorer-title").textContent = picture.title;
  $("picture").innerHTML = svgOf(picture);
  $("pitch-table").replaceChildren(pitchTable(rows, s.format));
  $("ajnas-table").replaceChildren(...(answer.ajnas ? [ajnasTable(answer.ajnas)] : []));
  const realisation = `/${KINDS[s.kind]}/${params.idName}`;
  const pictureFile = staticFileOf(realisation, new URLSearchParams(Object.entries(context).sort()))?.replace(/\.json$/, ".svg");
  const links: [string, string][] = [
    ["JSON answer", `/api${path.replace("{idName}", params.idName)}?${new URLSearchParams({ pitchClassDataType: "all", ...context })}`],
    ["tuning (all pitch classes)", `/api/tuning-systems/${s.tuningSystem}/${s.startingNote}/pitch-classes?pitchClassDataType=all`],
  ];
  if (pictureFile) links.push(["picture (SVG)", `/pictures/${pictureFile}`]);
  // Files to load into an instrument (docs/exports.md): the rendering's Scala scale and mapping, the tuning's AnaMark file.
  const exportBase = `/api/exports/${KINDS[s.kind]}/${params.idName}/${s.tuningSystem}/${s.startingNote}`;
  links.push(["Scala scale (.scl)", `${exportBase}.scl`]);
  if (rows.length === 2 && !sameSequence(rows[0][1], [...rows[1][1]].reverse())) links.push(["descending scale (.scl)", `${exportBase}-descending.scl`]);
  links.push(["keyboard mapping (.kbm)", `${exportBase}.kbm`], ["tuning (.tun)", `/api/exports/tuning-systems/${s.tuningSystem}/${s.startingNote}.tun`]);
  $("explorer-links").replaceChildren(...links.map(([label, href]) => Object.assign(el("a", label), { href })));
  $<HTMLButtonElement>("play").onclick = () => play(rows.map(([, pitches]) => pitches.map((p) => p.frequency)));
  history.replaceState(null, "", `?${new URLSearchParams({ tuningSystem: s.tuningSystem, startingNote: s.startingNote, kind: s.kind, [s.kind]: s.name, transposition: s.transposition, format: s.format })}#explorer`);
  status.textContent = "";
  form.dataset.ready = "true";
}

/** The same notes in the same order (a maqām whose descending sequence is its ascending one reversed). */
const sameSequence = (a: readonly Pitch[], b: readonly Pitch[]): boolean =>
  a.length === b.length && a.every((p, i) => p.noteNameDisplay === b[i].noteNameDisplay && p.octave === b[i].octave);

export function startExplorer() {
  const form = $<HTMLFormElement>("explorer");
  let current = selectionFromUrl();
  const show = (s: Selection) =>
    render(s).catch((e: unknown) => {
      $("explorer-status").textContent = `Could not load: ${(e as Error).message}`;
    });
  form.addEventListener("change", (event) => {
    const changed = (event.target as HTMLSelectElement).name as keyof Selection;
    const data = new FormData(form);
    const next = { ...current, [changed]: String(data.get(changed)) } as Selection;
    // A new maqām, jins or kind starts untransposed; a new kind starts from its first name.
    if (changed !== "transposition" && changed !== "format") next.transposition = "";
    if (changed === "kind") next.name = "";
    current = next;
    void show(current);
  });
  void show(current);
}
