/** Every exported jins file (.scl, .kbm), read strictly and checked against the jins's detail answer. */
import { catalog } from "./support/catalog.js";
import { renderingFiles } from "../src/api/exports/prerender.js";
import { renderingSuite } from "./support/exportChecks.js";

renderingSuite("jins", [...renderingFiles(catalog, { full: false }, "jins")], 12_000);
