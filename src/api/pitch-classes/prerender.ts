/** The note-name requests a build pre-renders (canonical form: parameters sorted by name, values as idNames). */
import { queryString } from "../links.js";
import { NOTE_NAME_SORT_OPTIONS, NOTE_NAMES_PATH } from "./routes.js";
import type { Catalog } from "../../theory/catalog.js";

/** Every list variant, and each note name's detail over all tuning systems and its availability. */
export function* noteNamesRequests(cat: Catalog): Generator<string> {
  for (const filter of [undefined, ...cat.tuningSystems.map((ts) => ts.id)])
    for (const arabic of [undefined, "true"])
      for (const sortBy of [undefined, ...NOTE_NAME_SORT_OPTIONS])
        yield NOTE_NAMES_PATH +
          queryString([
            ["filterByTuningSystem", filter],
            ["includeArabic", arabic],
            ["sortBy", sortBy],
          ]);
  for (const { idName } of cat.notes.allNoteNames)
    for (const q of ["", "?includeArabic=true"]) {
      yield `${NOTE_NAMES_PATH}/${idName}${q}`;
      yield `${NOTE_NAMES_PATH}/${idName}/availability${q}`;
    }
}
