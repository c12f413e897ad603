/**
 * The fact files imported as modules, for runtimes without a file system (the worker, the
 * browser): a bundler inlines them. Validated when asked for, not when imported.
 */
import tuningSystems from "../../data/tuningSystems.json" with { type: "json" };
import maqamat from "../../data/maqamat.json" with { type: "json" };
import ajnas from "../../data/ajnas.json" with { type: "json" };
import sources from "../../data/sources.json" with { type: "json" };
import familyRules from "../../data/maqamat-family-rules.json" with { type: "json" };
import noteNames from "../../data/note-names.json" with { type: "json" };
import { validateFacts, type Facts } from "./facts.js";

export const bundledFacts = (): Facts => validateFacts({ tuningSystems, maqamat, ajnas, sources, familyRules, noteNames }, "the bundled data");
