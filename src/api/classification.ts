/**
 * The classification group: both pitch-class-set endpoints.
 */
import { maqamSetsRoute } from "./maqamPitchClassSets.js";
import { twelveToneRoute } from "./twelvePitchClassSets.js";

export const routes = [twelveToneRoute, maqamSetsRoute];
