/** Small DOM builders the explorer's views share, and the outcome of a request as a value. */
import { MaqamApiError } from "../src/client/index.js";
import { arabic, fill, t } from "./i18n.js";

export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = "",
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
};

/** What went wrong, as text to show: an Error's message, else the thrown value. */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A request's outcome: the body, or why it failed (with the status when the API answered). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; status?: number; message: string };

export const settle = <T>(p: Promise<T>): Promise<Outcome<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (e: unknown) =>
      e instanceof MaqamApiError
        ? { ok: false as const, status: e.status, message: [e.body.error, e.body.message].filter(Boolean).join(" — ") }
        : { ok: false as const, message: errorText(e) },
  );

/** What a part shows when its request failed: a message in its place. */
export const failure = (part: string, outcome: { message: string }): HTMLElement =>
  el("p", fill(t.failed, { part, message: outcome.message }), { class: "error", role: "alert" });

/** Display name in the page's language: the archive's Arabic name when the page is Arabic and the answer has one. */
export const nameOf = (o: { displayName: string; displayNameAr?: string } | undefined, fallback = ""): string =>
  o ? (arabic && o.displayNameAr ? o.displayNameAr : o.displayName) : fallback;

/** A labelled select; options as [value, label]. */
export function select(name: string, label: string, options: [string, string][], chosen: string | readonly string[], multiple = false): HTMLLabelElement {
  const s = el("select", "", { name, id: `field-${name}` });
  s.multiple = multiple;
  const picked = new Set(typeof chosen === "string" ? [chosen] : chosen);
  s.append(...options.map(([value, text]) => new Option(text, value, false, picked.has(value))));
  if (multiple) s.size = Math.min(8, options.length);
  return el("label", "", { for: s.id }, el("span", label), s);
}

/** The maqām-or-jins choice, the same in every view. */
export const kindSelect = (chosen: string): HTMLLabelElement =>
  select(
    "kind",
    t.kind,
    [
      ["maqam", t.kindMaqam],
      ["jins", t.kindJins],
    ],
    chosen,
  );

export function numberField(name: string, label: string, value: number, min: number, max: number): HTMLLabelElement {
  const input = el("input", "", { name, id: `field-${name}`, type: "number", min: String(min), max: String(max), value: String(value) });
  return el("label", "", { for: input.id }, el("span", label), input);
}

export function checkbox(name: string, label: string, checked: boolean): HTMLLabelElement {
  const input = el("input", "", { name, id: `field-${name}`, type: "checkbox", value: "true" });
  input.checked = checked;
  return el("label", "", { for: input.id, class: "check" }, input, el("span", label));
}

/** A table in a box of its own that scrolls sideways when the table is wider than the screen. */
export function tableBox(
  caption: string,
  head: string[],
  rows: { cells: (string | Node)[]; attrs?: Record<string, string>; header?: number }[],
  cls = "",
): HTMLElement {
  const table = el("table", "", { class: cls });
  table.append(el("caption", caption));
  const thead = el("thead", "", {}, el("tr", "", {}, ...head.map((h) => el("th", h, { scope: "col" }))));
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr", "", row.attrs ?? {});
    row.cells.forEach((cell, i) => {
      tr.append(el(i < (row.header ?? 0) ? "th" : "td", "", i < (row.header ?? 0) ? { scope: "row" } : {}, cell));
    });
    body.append(tr);
  }
  table.append(thead, body);
  return el("div", "", { class: "table-box", tabindex: "0", role: "region", "aria-label": caption }, table);
}

/** A number as the table shows it: at most three decimals. */
export const shown = (v: unknown): string => (typeof v === "number" ? String(Math.round(v * 1000) / 1000) : typeof v === "string" && v !== "" ? v : "–");
