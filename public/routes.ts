/**
 * Modulation routes: two maqāmāt of one tuning system, each on its taḥlīl or another tonic, and
 * the search limits; the routes found (computed in the page when no file holds them) drawn as
 * paths, each hop labelled with its degree and al-Shawwā's category.
 */
import type { Client } from "../src/client/index.js";
import { arabic, fill, t } from "./i18n.js";
import { checkbox, el, failure, nameOf, numberField, select, settle } from "./dom.js";
import { tuningControls, type Loaded, type Named, type TuningSystemList } from "./explore.js";
import type { State } from "./state.js";

interface Node {
  maqamIdName: string;
  maqamDisplayName: string;
  maqamDisplayNameAr?: string;
  tonicDisplay: string;
  tonicDisplayAr?: string;
}
interface Step {
  from: Node;
  to: Node;
  modulationDegree: string;
  modulationCategory: string;
}
export interface RoutesAnswer {
  totalPossibleRoutes: { outboundRoutesCount: number; data: { routeNumber: number; outboundRoute: { hops: number; steps: Step[] } }[] };
  message?: string;
}
interface MaqamList {
  data: { maqam: Named }[];
}
interface Transpositions {
  transpositions: { detailed: (Named & { tonic: Named })[] };
}

const arabicParam = () => (arabic ? { includeArabic: "true" } : {});

/** al-Shawwā's category in words: the base category, and "an octave below" for its downward twin. */
export function categoryWords(category: string): string {
  const base = category.replace(/OctaveBelow$/, "");
  const words = t.categories[base] ?? category;
  return base !== category && base !== "octave" ? `${words}${t.octaveBelowSuffix}` : words;
}

const nodeName = (n: Node) => `${(arabic && n.maqamDisplayNameAr) || n.maqamDisplayName} (${(arabic && n.tonicDisplayAr) || n.tonicDisplay})`;

/** The routes as paths: maqām boxes joined by arrows that name the hop. */
export function routeDiagram(answer: RoutesAnswer): HTMLElement {
  const routes = answer.totalPossibleRoutes.data;
  const box = el("div", "", { id: "routes", "data-count": String(routes.length) });
  box.append(el("p", routes.length ? fill(t.routesFound, { count: routes.length }) : t.noRoute, { class: "note" }));
  for (const route of routes) {
    const path = el("ol", "", { class: "route", "aria-label": fill(t.route, { n: route.routeNumber }) });
    const steps = route.outboundRoute.steps;
    steps.forEach((step, i) => {
      if (i === 0) path.append(el("li", nodeName(step.from), { class: "node" }));
      path.append(
        el(
          "li",
          "",
          { class: "hop", "data-degree": step.modulationDegree, "data-category": step.modulationCategory },
          el("span", "→", { class: "arrow", "aria-hidden": "true" }),
          el("span", fill(t.hop, { degree: step.modulationDegree, category: categoryWords(step.modulationCategory) })),
        ),
        el("li", nodeName(step.to), { class: "node" }),
      );
    });
    box.append(el("h4", fill(t.route, { n: route.routeNumber })), path);
  }
  return box;
}

export async function loadRoutes(client: Client, s: State): Promise<Loaded> {
  const systems = await settle(client.get("/tuning-systems", arabicParam()) as Promise<TuningSystemList>);
  if (!systems.ok) return { state: s, controls: [], view: [failure(t.partSelectors, systems)] };
  s.kind = "maqam";
  const controls = tuningControls(s, systems.value);
  const context = { tuningSystem: s.tuningSystem, startingNote: s.startingNote, ...arabicParam() };
  const names = await settle(
    client.get("/tuning-systems/{id}/{startingNote}/maqamat", { id: s.tuningSystem, startingNote: s.startingNote, ...arabicParam() }) as Promise<MaqamList>,
  );
  if (!names.ok) return { state: s, controls, view: [failure(t.partSelectors, names)] };
  const options = names.value.data.map((d): [string, string] => [d.maqam.idName, nameOf(d.maqam)]);
  if (!options.some(([id]) => id === s.name)) s.name = options[0][0];
  if (!options.some(([id]) => id === s.to)) s.to = options[Math.min(1, options.length - 1)][0];
  const tonics = async (idName: string) => {
    const moves = await settle(client.get("/maqamat/{idName}/transpositions", { idName, ...context }) as Promise<Transpositions>);
    return [["", t.anyTonic], ...(moves.ok ? moves.value.transpositions.detailed.map((m): [string, string] => [m.tonic.idName, nameOf(m.tonic)]) : [])] as [
      string,
      string,
    ][];
  };
  const [fromTonics, toTonics] = await Promise.all([tonics(s.name), tonics(s.to)]);
  if (!fromTonics.some(([id]) => id === s.fromTonic)) s.fromTonic = "";
  if (!toTonics.some(([id]) => id === s.toTonic)) s.toTonic = "";
  controls.push(
    select("name", t.routesFrom, options, s.name),
    select("fromTonic", t.routesFromTonic, fromTonics, s.fromTonic),
    select("to", t.routesTo, options, s.to),
    select("toTonic", t.routesToTonic, toTonics, s.toTonic),
    numberField("maxHops", t.maxHops, s.maxHops, 1, 6),
    numberField("maxRoutes", t.maxRoutes, s.maxRoutes, 1, 50),
    checkbox("downward", t.downward, s.downward),
  );
  const found = await settle(
    client.get("/modulation-routes", {
      ...context,
      fromMaqam: s.name,
      toMaqam: s.to,
      ...(s.fromTonic ? { fromTonic: s.fromTonic } : {}),
      ...(s.toTonic ? { toTonic: s.toTonic } : {}),
      maxHops: s.maxHops,
      maxRoutes: s.maxRoutes,
      allowDownwardModulation: s.downward,
    }) as Promise<RoutesAnswer>,
  );
  return { state: s, controls, view: [found.ok ? routeDiagram(found.value) : failure(t.partRoutes, found)] };
}
