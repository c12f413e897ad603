/**
 * Compare: one maqām or jins in several tuning systems side by side. Each system's rendering
 * (from the first of its starting notes that realises it) in cents above the tonic, degree by
 * degree, with the difference from a chosen reference system, as a table and as a picture.
 */
import type { Client } from "../src/client/index.js";
import type { Picture } from "../src/site/picture.js";
import { pictureElement } from "./pictureView.js";
import { arabic, t } from "./i18n.js";
import { el, failure, kindSelect, nameOf, select, settle, shown, tableBox } from "./dom.js";
import type { Named, Pitch, TuningSystemList } from "./explore.js";
import type { Loaded } from "./explore.js";
import { KINDS, type State } from "./state.js";

interface Cell {
  tuningSystem: Named;
  startingNote: Named;
  pitchData?: Pitch[] | { ascending: Pitch[]; descending: Pitch[] };
  error?: string;
}
interface CompareAnswer {
  comparisons: { data: Cell[] };
}
interface EntityList {
  data: ({ maqam: Named } | { jins: Named })[];
}

const arabicParam = () => (arabic ? { includeArabic: "true" } : {});
const ascendingOf = (c: Cell): Pitch[] => (Array.isArray(c.pitchData) ? c.pitchData : (c.pitchData?.ascending ?? []));
/** "Ibn Sīnā (1037)": the system's name up to its year. */
const shortName = (n: Named) => nameOf(n).replace(/\s+/g, " ").replace(/\).*$/, ")");
/** A label that fits the picture's margin: "Cairo Congre… (1929)". */
const label = (n: Named) => {
  const name = shortName(n);
  const year = / \(([^)]*)\)$/.exec(name);
  return name.length <= 16 || !year ? name : `${name.slice(0, 10).trim()}… (${year[1]})`;
};

/** One column per chosen system: the cents above the tonic of its ascending notes (undefined where it cannot be realised). */
export function comparisonOf(answer: CompareAnswer, systems: string[]): { id: string; name: Named; start?: Named; cents?: number[]; notes?: string[] }[] {
  return systems.map((id) => {
    const cells = answer.comparisons.data.filter((c) => c.tuningSystem.idName === id);
    const done = cells.find((c) => c.pitchData);
    const rising = done ? ascendingOf(done) : [];
    return {
      id,
      name: cells[0]?.tuningSystem ?? { idName: id, displayName: id },
      start: done?.startingNote,
      cents: done ? rising.map((p) => p.cents - rising[0].cents) : undefined,
      notes: done ? rising.map((p) => (arabic && p.noteNameDisplayAr) || p.noteNameDisplay) : undefined,
    };
  });
}

export async function loadCompare(client: Client, s: State): Promise<Loaded> {
  const collection = KINDS[s.kind];
  const [systems, entities] = await Promise.all([
    settle(client.get("/tuning-systems", arabicParam()) as Promise<TuningSystemList>),
    settle(client.get(`/${collection}`, arabicParam()) as Promise<EntityList>),
  ]);
  if (!systems.ok) return { state: s, controls: [], view: [failure(t.partSelectors, systems)] };
  if (!entities.ok) return { state: s, controls: [], view: [failure(t.partSelectors, entities)] };
  const known = new Set(systems.value.data.map((d) => d.tuningSystem.idName));
  s.systems = s.systems.filter((id) => known.has(id));
  if (s.systems.length === 0) s.systems = [systems.value.data[0].tuningSystem.idName];
  if (!s.systems.includes(s.reference)) s.reference = s.systems[0];
  const names = entities.value.data.map((d) => ("maqam" in d ? d.maqam : d.jins));
  if (!names.some((n) => n.idName === s.name)) s.name = names[0].idName;
  const systemOptions = systems.value.data.map((d): [string, string] => [d.tuningSystem.idName, nameOf(d.tuningSystem)]);
  const controls = [
    kindSelect(s.kind),
    select(
      "name",
      t.compareName,
      names.map((n) => [n.idName, nameOf(n)]),
      s.name,
    ),
    select("systems", t.compareSystems, systemOptions, s.systems, true),
    select(
      "reference",
      t.compareReference,
      systemOptions.filter(([id]) => s.systems.includes(id)),
      s.reference,
    ),
  ];
  const notes = [...new Set(systems.value.data.filter((d) => s.systems.includes(d.tuningSystem.idName)).flatMap((d) => d.startingNotes.idNames))];
  const answer = await settle(
    client.get(`/${collection}/{idName}/compare`, {
      idName: s.name,
      tuningSystems: s.systems.join(","),
      startingNotes: notes.join(","),
      pitchClassDataType: "cents",
      ...arabicParam(),
    }) as Promise<CompareAnswer>,
  );
  if (!answer.ok) return { state: s, controls, view: [failure(t.partCompare, answer)] };
  const columns = comparisonOf(answer.value, s.systems);
  const reference = columns.find((c) => c.id === s.reference)!;
  const degrees = Math.max(0, ...columns.map((c) => c.cents?.length ?? 0));
  const rows = Array.from({ length: degrees }, (_, i) => ({
    header: 1,
    attrs: { "data-degree": String(i + 1) },
    cells: [
      String(i + 1),
      ...columns.flatMap((c) => {
        if (!c.cents) return [t.notAvailable, ""];
        const delta = reference.cents?.[i] === undefined || c.cents[i] === undefined ? "–" : shown(c.cents[i] - reference.cents[i]);
        return [c.cents[i] === undefined ? "–" : `${shown(c.cents[i])} (${c.notes![i]})`, c.id === s.reference ? "" : delta];
      }),
    ],
  }));
  const table = tableBox(
    t.compareTable,
    [t.degree, ...columns.flatMap((c) => [`${shortName(c.name)}${c.start ? ` · ${nameOf(c.start)}` : ""}`, t.difference])],
    rows,
    "compare",
  );
  const picture: Picture = {
    title: `${nameOf(names.find((n) => n.idName === s.name))} · ${t.modeCompare}`,
    axis: t.fromTonic,
    span: Math.max(1200, ...columns.flatMap((c) => c.cents ?? []).map((c) => Math.ceil(c / 100) * 100)),
    rows: columns
      .filter((c) => c.cents)
      .map((c) => ({ key: c.id, label: label(c.name), brackets: [], marks: c.cents!.map((cents, i) => ({ cents, name: c.notes![i] })) })),
  };
  const figure = pictureElement(picture, "compare-picture", t.compareCaption);
  return { state: s, controls, view: [el("h3", picture.title, { id: "explorer-title" }), figure, table] };
}
