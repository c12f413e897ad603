/**
 * The explorer: one state, read from the page's address. A change of the form writes the new
 * state into the address and shows it; every showing asks for all the answers its view needs,
 * and only the latest showing, once all its answers are in, replaces the form and the view at
 * once, so no part of an earlier view can stay on screen beside a later one.
 */
import { createClient, type Client } from "../src/client/index.js";
import { el } from "./dom.js";
import { lang, refreshSwitcher, t } from "./i18n.js";
import { MODES, queryOf, stateOf, type Mode, type State } from "./state.js";
import { loadExplore, type Loaded } from "./explore.js";
import { loadRoutes } from "./routes.js";
import { loadCompare } from "./compare.js";

/** Answers are the same for the same request: the views share the recent ones instead of asking again. */
function remembering(inner: Client, size = 300): Client {
  const recent = new Map<string, Promise<unknown>>();
  return {
    request: inner.request,
    get(path, params) {
      const key = JSON.stringify([path, params ?? {}]);
      let answer = recent.get(key);
      if (answer === undefined) {
        answer = inner.get(path, params);
        recent.set(key, answer);
        if (recent.size > size) recent.delete(recent.keys().next().value!);
      }
      return answer as never;
    },
  };
}

const client = remembering(createClient({ baseUrl: location.origin }));
const LOADERS: Record<Mode, (s: State) => Promise<Loaded>> = {
  explore: (s) => loadExplore(client, s),
  routes: (s) => loadRoutes(client, s),
  compare: (s) => loadCompare(client, s),
};
const MODE_LABELS: Record<Mode, string> = { explore: t.modeExplore, routes: t.modeRoutes, compare: t.modeCompare };

const $ = (id: string) => document.getElementById(id)!;
let shown = 0;
let current: State = stateOf(location.search);
/** The language stays in the address only when it was there (the switcher puts it there). */
const langInAddress = () => (new URLSearchParams(location.search).has("lang") ? lang : undefined);

function modeLinks(active: Mode): HTMLElement {
  const nav = el("nav", "", { class: "modes", "aria-label": t.modes });
  for (const mode of MODES) {
    const a = el("a", MODE_LABELS[mode], { href: `?${queryOf({ ...current, mode }, langInAddress())}#explorer` });
    if (mode === active) a.setAttribute("aria-current", "page");
    a.addEventListener("click", (event) => {
      event.preventDefault();
      navigate({ ...current, mode });
    });
    nav.append(a);
  }
  return nav;
}

async function show(s: State): Promise<void> {
  const mine = ++shown;
  const form = $("explorer") as HTMLFormElement;
  form.dataset.ready = "false";
  $("explorer-status").textContent = t.loading;
  const loaded = await LOADERS[s.mode]({ ...s, systems: [...s.systems] }).catch(
    (e: unknown): Loaded => ({ state: s, controls: [], view: [el("p", String(e), { class: "error", role: "alert" })] }),
  );
  // A later showing started meanwhile: this one's answers are stale.
  if (mine !== shown) return;
  current = loaded.state;
  const query = queryOf(current, langInAddress());
  history.replaceState(null, "", `?${query}${location.hash || "#explorer"}`);
  refreshSwitcher();
  $("explorer-modes").replaceChildren(modeLinks(current.mode));
  form.replaceChildren(...loaded.controls);
  $("view").replaceChildren(...loaded.view);
  $("explorer-status").textContent = "";
  form.dataset.state = queryOf(current);
  form.dataset.ready = "true";
}

function navigate(next: State) {
  history.pushState(null, "", `?${queryOf(next, langInAddress())}#explorer`);
  void show(next);
}

/** The state after a change of one control of the form. */
function changed(control: HTMLInputElement | HTMLSelectElement): State {
  const next: State = { ...current, systems: [...current.systems] };
  const value = control.value;
  switch (control.name) {
    case "kind":
      next.kind = value === "jins" ? "jins" : "maqam";
      next.name = next.kind === "maqam" ? "maqam_rast" : "jins_rast";
      next.transposition = "";
      break;
    case "systems":
      next.systems = [...(control as HTMLSelectElement).selectedOptions].map((o) => o.value);
      break;
    case "maxHops":
    case "maxRoutes":
      next[control.name] = Number(value);
      break;
    case "downward":
      next.downward = (control as HTMLInputElement).checked;
      break;
    default:
      (next as unknown as Record<string, string>)[control.name] = value;
      // Another entity or tuning starts untransposed, from its taḥlīl.
      if (["tuningSystem", "startingNote", "name"].includes(control.name)) next.transposition = "";
      if (control.name === "name" || control.name === "to") next[control.name === "name" ? "fromTonic" : "toTonic"] = "";
  }
  return next;
}

export function startExplorer(): void {
  const form = $("explorer") as HTMLFormElement;
  form.addEventListener("change", (event) => navigate(changed(event.target as HTMLInputElement)));
  form.addEventListener("submit", (event) => event.preventDefault());
  addEventListener("popstate", () => void show(stateOf(location.search)));
  void show(current);
}
