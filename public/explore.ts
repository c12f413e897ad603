/**
 * The explorer's first mode: one maqām or jins realised in one tuning system from one starting
 * note, untransposed or on another tonic. Every answer the view needs is asked for first; the
 * view is built only from those answers, and a part whose answer failed shows why instead.
 */
import type { Client } from "../src/client/index.js";
import { pictureOf, type RealisationAnswer } from "../src/site/picture.js";
import { arabic, fill, t } from "./i18n.js";
import { el, failure, kindSelect, nameOf, select, settle, shown, tableBox, type Outcome } from "./dom.js";
import { explorerRequests, VALUE_FORMATS, type State } from "./state.js";
import { downloads } from "./downloads.js";
import { pictureElement } from "./pictureView.js";
import { play } from "./sound.js";

export interface Named {
  idName: string;
  displayName: string;
  displayNameAr?: string;
}
export interface TuningSystemList {
  data: { tuningSystem: Named; startingNotes: { idNames: string[]; displayNames: string[]; displayNamesAr?: string[] } }[];
}
interface KindList {
  data: (({ maqam: Named & { id: string } } | { jins: Named & { id: string } }) & { stats: { numberOfPitchClasses: number } })[];
}
interface Transpositions {
  transpositions: { detailed: Named[] };
}
export type Pitch = {
  noteName: string;
  noteNameDisplay: string;
  noteNameDisplayAr?: string;
  octave: number;
  scaleDegree?: string;
  englishName?: string;
  frequency: number;
  cents: number;
} & Record<string, unknown>;
export type Answer = Omit<RealisationAnswer, "pitchData"> & { pitchData: Pitch[] | { ascending: Pitch[]; descending: Pitch[] } };

/** What a mode's loader gives the explorer: the state as checked, the form's controls and the view. */
export interface Loaded {
  state: State;
  controls: HTMLElement[];
  view: HTMLElement[];
}

const listed = (d: KindList["data"][number]) => ("maqam" in d ? d.maqam : d.jins);

/** The tuning-system and starting-note selects, with the state moved to a system and note that exist. */
export function tuningControls(s: State, systems: TuningSystemList): HTMLElement[] {
  if (!systems.data.some((d) => d.tuningSystem.idName === s.tuningSystem)) s.tuningSystem = systems.data[0].tuningSystem.idName;
  const system = systems.data.find((d) => d.tuningSystem.idName === s.tuningSystem)!;
  const notes = system.startingNotes;
  if (!notes.idNames.includes(s.startingNote)) s.startingNote = notes.idNames[0];
  return [
    select(
      "tuningSystem",
      t.tuningSystem,
      systems.data.map((d) => [d.tuningSystem.idName, nameOf(d.tuningSystem)]),
      s.tuningSystem,
    ),
    select(
      "startingNote",
      t.startingNote,
      notes.idNames.map((id, i) => [id, (arabic && notes.displayNamesAr?.[i]) || notes.displayNames[i]]),
      s.startingNote,
    ),
  ];
}

/** The rows of an answer's pitch data: [key, label, pitches]. */
export const rowsOf = (answer: Answer): ["ascending" | "descending" | "notes", string, Pitch[]][] =>
  Array.isArray(answer.pitchData)
    ? [["notes", t.notes, answer.pitchData]]
    : [
        ["ascending", t.ascending, answer.pitchData.ascending],
        ["descending", t.descending, answer.pitchData.descending],
      ];

export const noteOf = (p: Pitch) => (arabic && p.noteNameDisplayAr) || p.noteNameDisplay;

/** The view's title: the name on its tonic, then the tuning system and the note the tuning starts from. */
export function titleOf(answer: Answer, startName: string): { main: string; context: string } {
  const name = nameOf(answer.maqam ?? answer.jins);
  const tonic = nameOf(answer.tonic, "");
  return {
    main: tonic ? fill(t.titleMaqam, { name, tonic }) : name,
    context: fill(t.titleContext, { system: nameOf(answer.context.tuningSystem).replace(/\s+/g, " "), start: startName }),
  };
}

function pitchTable(answer: Answer, format: string): HTMLElement {
  const rows = rowsOf(answer);
  const tonic = rows[0][2][0].cents;
  return tableBox(
    t.pitchClasses,
    [t.row, t.degree, t.note, t.western, t.fromTonic, t.formats[format as keyof typeof t.formats]],
    rows.flatMap(([key, label, pitches]) =>
      pitches.map((p, i) => ({
        attrs: { "data-row": key },
        header: 1,
        cells: [
          i === 0 ? label : "",
          p.scaleDegree ?? String(i + 1),
          noteOf(p),
          String(p.englishName ?? ""),
          shown(p.cents - tonic),
          el("span", shown(p[format]), { class: "value" }),
        ],
      })),
    ),
    "pitches",
  );
}

function ajnasTable(answer: Answer): HTMLElement[] {
  if (!answer.ajnas) return [];
  // The answer keys the ajnās by the note's display name: shown in the page's language.
  const notes = new Map(rowsOf(answer).flatMap(([, , pitches]) => pitches.map((p) => [p.noteNameDisplay, noteOf(p)])));
  const rows = Object.entries(answer.ajnas).flatMap(([key, byNote]) =>
    Object.entries(byNote).map(([note, found], i) => ({
      header: 1,
      cells: [
        i === 0 ? t[key as "ascending" | "descending"] : "",
        notes.get(note) ?? note,
        found.map((j) => nameOf(j)).join(arabic ? "، " : ", ") || t.noneFound,
      ],
    })),
  );
  return [tableBox(t.ajnasOnDegrees, [t.row, t.note, t.name], rows, "ajnas")];
}

/** Loads everything the view of `s` needs, then builds it. */
export async function loadExplore(client: Client, s: State): Promise<Loaded> {
  const systems = await settle(client.get(...explorerRequests(s, arabic).systems) as Promise<TuningSystemList>);
  if (!systems.ok) return { state: s, controls: [], view: [failure(t.partSelectors, systems)] };
  // The system and note move to ones that exist before the rest is asked.
  const controls = tuningControls(s, systems.value);
  const asks = explorerRequests(s, arabic);
  const [names, ajnasList, moves] = await Promise.all([
    settle(client.get(...asks.names) as Promise<KindList>),
    asks.ajnas ? settle(client.get(...asks.ajnas) as Promise<KindList>) : Promise.resolve(undefined),
    settle(client.get(...asks.transpositions) as Promise<Transpositions>),
  ]);
  if (!names.ok) return { state: s, controls, view: [failure(t.partSelectors, names)] };
  // A 422 here is a normal state: no transposition other than the taḥlīl.
  const transpositions = moves.ok ? moves.value.transpositions.detailed : [];
  if (!transpositions.some((m) => m.idName === s.transposition)) s.transposition = "";
  const detail = await settle(client.get(...explorerRequests(s, arabic).rendering) as Promise<Answer>);
  const nameOptions = names.value.data.map((d): [string, string] => [listed(d).idName, nameOf(listed(d))]);
  // A name the address gives beyond the tuning's list stays chosen: its view, or why there is none.
  if (!nameOptions.some(([id]) => id === s.name))
    nameOptions.unshift([s.name, detail.ok && !s.transposition ? nameOf(detail.value.maqam ?? detail.value.jins) : `${s.name} (${t.notInList})`]);
  controls.push(
    kindSelect(s.kind),
    select("name", t.name, nameOptions, s.name),
    select("transposition", t.transposition, [["", t.tahlil], ...transpositions.map((m): [string, string] => [m.idName, nameOf(m)])], s.transposition),
    select(
      "format",
      t.format,
      VALUE_FORMATS.map((f) => [f, t.formats[f]]),
      s.format,
    ),
  );
  const view: HTMLElement[] = [];
  if (!moves.ok && moves.status !== 422) view.push(failure(t.partTranspositions, moves));
  if (!detail.ok) return { state: s, controls, view: [...view, failure(t.partRendering, detail)] };
  if (!moves.ok) view.push(el("p", t.noOtherTransposition, { class: "note" }));
  const system = systems.value.data.find((d) => d.tuningSystem.idName === s.tuningSystem)!;
  const startIndex = system.startingNotes.idNames.indexOf(s.startingNote);
  const startName = (arabic && system.startingNotes.displayNamesAr?.[startIndex]) || system.startingNotes.displayNames[startIndex];
  view.push(...renderingView(s, detail.value, startName, ajnasList, system.tuningSystem));
  return { state: s, controls, view };
}

function renderingView(s: State, answer: Answer, startName: string, ajnasList: Outcome<KindList> | undefined, system: Named): HTMLElement[] {
  const title = titleOf(answer, startName);
  const heading = el("h3", "", { id: "explorer-title" }, el("span", title.main, { class: "main" }), el("span", title.context, { class: "context" }));
  const rows = rowsOf(answer);
  const picturePart =
    ajnasList && !ajnasList.ok
      ? failure(t.partAjnas, ajnasList)
      : pictureElement(
          pictureOf(answer, new Map((ajnasList?.value.data ?? []).map((d) => ["jins" in d ? d.jins.id : "", d.stats.numberOfPitchClasses])), {
            title: `${title.main} · ${title.context}`,
            axis: t.fromTonic,
            rows: { ascending: t.ascending, descending: t.descending, notes: t.notes },
            arabic,
          }),
        );
  const playButton = el("button", t.play, { type: "button", id: "play" });
  playButton.onclick = () => play(rows.map(([, , pitches]) => pitches.map((p) => p.frequency)));
  const staffButton = el("button", t.showStaff, { type: "button", id: "show-staff" });
  const staff = el("div", "", { id: "staff" });
  staffButton.onclick = () => {
    staffButton.disabled = true;
    import("./notation.js")
      .then((m) =>
        m.drawStaff(
          staff,
          rows.map(([key, label, pitches]) => ({ key, label, pitches })),
        ),
      )
      .catch((e: unknown) => staff.replaceChildren(failure(t.partNotation, { message: String(e) })));
  };
  return [
    heading,
    picturePart,
    el("p", "", { class: "actions" }, playButton, " ", staffButton),
    staff,
    downloads(s, rows, system, startName, picturePart),
    el("div", "", { class: "tables" }, pitchTable(answer, s.format), ...ajnasTable(answer)),
  ];
}
