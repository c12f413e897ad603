/**
 * Suyūr (melodic paths, docs/algorithms.md §12) of a maqām, moved with the selected transposition:
 * every note a stop names moves by the same number of tuning cells as the tonic (§12.2), so a
 * sayr of maqām rāst read on nawā starts from nawā. Ids, directions and texts are unchanged.
 */
import type { PitchClass } from "./pitchClass.js";
import type { Maqam } from "./entity.js";
import type { SayrRecord } from "../data/schemas.js";
import type { Transposition } from "./transposition.js";
import { degreeShift, shiftedNote } from "./degrees.js";

type Stop = SayrRecord["stops"][number];

/** A stop with its note (or its starting note) moved; a note that cannot move keeps its name. */
function transposedStop(stop: Stop, shift: number, pcs: readonly PitchClass[]): Stop {
  const move = (name: string) => shiftedNote(name, shift, pcs) ?? name;
  if (stop.type === "note") return { ...stop, value: move(stop.value) };
  if (stop.startingNote !== undefined) return { ...stop, startingNote: move(stop.startingNote) };
  return stop;
}

/** The maqām's suyūr as stored, their stops read on the transposition's tonic. */
export function suyurOf(maqam: Maqam, t: Transposition, pcs: readonly PitchClass[]): SayrRecord[] {
  const shift = degreeShift(maqam, t, pcs);
  if (shift === 0) return maqam.record.suyur;
  return maqam.record.suyur.map((sayr) => ({ ...sayr, stops: sayr.stops.map((stop) => transposedStop(stop, shift, pcs)) }));
}
