/** The catalog of data/ the tests share (made once per test file). */
import { readFacts } from "../../src/data/load.js";
import { createCatalog } from "../../src/theory/catalog.js";

export const catalog = createCatalog(readFacts());
