/**
 * The page's language: `?lang=en|ar|fr`, else the one chosen last (localStorage), else English.
 * Sets `<html lang dir>`, fills every `[data-t]` element from the language's table, loads the
 * Arabic font only for Arabic (its CSS is a file of its own), and draws the switcher, which keeps
 * the rest of the address.
 */
import { en, type Strings } from "./lang/en.js";
import { ar } from "./lang/ar.js";
import { fr } from "./lang/fr.js";

export const LANGS = { en, ar, fr } as const;
export type Lang = keyof typeof LANGS;
const STORED = "maqam-archive-lang";

const isLang = (s: string | null): s is Lang => s !== null && Object.hasOwn(LANGS, s);

/** The language of this page load; a `?lang=` in the address is remembered for the next pages. */
export function pageLang(): Lang {
  const asked = new URLSearchParams(location.search).get("lang");
  if (isLang(asked)) {
    try {
      localStorage.setItem(STORED, asked);
    } catch {
      // Storage may be off (private mode): the address still carries the language.
    }
    return asked;
  }
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORED);
  } catch {
    stored = null;
  }
  return isLang(stored) ? stored : "en";
}

export const lang: Lang = pageLang();
export const t: Strings = LANGS[lang];
export const arabic = lang === "ar";

/** A string of the table with `{name}` placeholders filled. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

/** The address of this page in another language (the rest of the query and the hash kept). */
export function addressIn(other: Lang): string {
  const q = new URLSearchParams(location.search);
  q.set("lang", other);
  return `${location.pathname}?${q}${location.hash}`;
}

function drawSwitcher(host: HTMLElement) {
  const nav = document.createElement("nav");
  nav.className = "langs";
  nav.setAttribute("aria-label", t.language);
  for (const other of Object.keys(LANGS) as Lang[]) {
    const a = document.createElement("a");
    a.textContent = LANGS[other].languageName;
    a.lang = other;
    a.href = addressIn(other);
    if (other === lang) a.setAttribute("aria-current", "true");
    nav.append(a);
  }
  host.replaceChildren(nav);
}

/** Applies the language to the document: lang, dir, title, the table's strings, the font, the switcher. */
export function applyLanguage(title: (strings: Strings) => string): void {
  document.title = title(t);
  const root = document.documentElement;
  root.lang = lang;
  root.dir = arabic ? "rtl" : "ltr";
  for (const node of document.querySelectorAll<HTMLElement>("[data-t]")) {
    const value = t[node.dataset.t as keyof Strings];
    if (typeof value === "string") node.textContent = value;
  }
  if (arabic && !document.querySelector("link[data-font]")) {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/fonts/arabic.css" });
    link.dataset.font = "arabic";
    document.head.append(link);
  }
  const switcher = document.getElementById("langs");
  if (switcher) drawSwitcher(switcher);
}

/** Keeps the switcher's links current when the page changes its own address. */
export function refreshSwitcher(): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>("nav.langs a")) a.href = addressIn(a.lang as Lang);
}
