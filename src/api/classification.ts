/**
 * The classification group: both pitch-class-set endpoints.
 */
import type { Route } from "./route.js";
import { maqamSetsRoute } from "./maqamPitchClassSets.js";
import { twelveToneRoute } from "./twelvePitchClassSets.js";

export const routes: readonly Route[] = [twelveToneRoute, maqamSetsRoute];
