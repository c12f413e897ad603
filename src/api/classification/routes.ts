/**
 * The classification group: both pitch-class-set endpoints.
 */
import { maqamSetsRoute } from "./maqamSets.js";
import { twelveToneRoute } from "./twelveToneSets.js";

export const routes = [twelveToneRoute, maqamSetsRoute];
