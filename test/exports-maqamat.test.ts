/** Every exported maqām file (.scl, -descending.scl, .kbm), read strictly and checked against the maqām's detail answer. */
import { catalog } from "./support/catalog.js";
import { renderingFiles } from "../src/api/exports/prerender.js";
import { renderingSuite } from "./support/exportChecks.js";

renderingSuite("maqam", [...renderingFiles(catalog, { full: false }, "maqam")], 15_000);
