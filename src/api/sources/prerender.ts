/** The source requests a build pre-renders. */
import type { Catalog } from "../../theory/catalog.js";

/** Every source answer, with and without Arabic. */
export function* sourcesRequests(cat: Catalog): Generator<string> {
  for (const q of ["", "?includeArabic=true"]) {
    yield `/sources${q}`;
    for (const { id } of cat.sources) for (const sub of ["", "/tuning-systems", "/maqamat", "/ajnas"]) yield `/sources/${id}${sub}${q}`;
  }
}
