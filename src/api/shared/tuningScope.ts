/**
 * Which tuning systems × starting notes a note-name or interval request covers. Detail requests
 * name one pair, every starting note of one system (`startingNote=all`) or nothing (every
 * system); compare requests list systems, and each system × starting note is a cell that may
 * fail (unknown system, starting note not in it) without failing the request.
 */
import { optionalText, requiredText } from "../declare.js";
import { resolveTuning, type TuningContext } from "../resolve.js";
import { isAnswer, type ErrorAnswer } from "../errors.js";
import { noteRef, tuningSystemRef } from "./format.js";
import { findStartingNote, type TuningSystem } from "../../theory/tuningSystem.js";
import type { Catalog } from "../../theory/catalog.js";
import { toIdName } from "../../theory/idName.js";

export interface Scope {
  contexts: TuningContext[];
  /** One tuning system and one starting note were named: the answer is a single object. */
  single: boolean;
}

const contextsOf = (systems: readonly TuningSystem[]): TuningContext[] =>
  systems.flatMap((ts) => ts.startingNotes.map((startingNote) => ({ ts, startingNote })));

/** `tuningSystem` of a scoped route: absent or blank for every tuning system (checked by resolveScope). */
export const scopeTuningSystem = () =>
  optionalText({ blank: "kept", description: "One tuning system; absent for every tuning system and starting note.", example: "ibnsina_1037" });

/** `startingNote` of a scoped route: required with a tuning system (resolveScope); `all` for each of its starting notes. */
export const scopeStartingNote = () =>
  optionalText({ blank: "kept", description: "Starting note of `tuningSystem`, or `all` for each of its starting notes.", example: "yegah" });

/** `startingNote` of a compare route: a starting note, or `all` for every starting note of each tuning system. */
export const compareStartingNote = () =>
  requiredText({
    description: "Starting note in each tuning system, or `all` for every starting note of each.",
    example: "yegah",
    hint: "Add startingNote=yegah, or startingNote=all for every starting note of each tuning system.",
  });

/** Without a tuning system, every system and starting note; `startingNote=all`, every starting note of one. */
export function resolveScope(cat: Catalog, tuningSystem: string | undefined, startingNote: string | undefined): Scope | ErrorAnswer {
  if (tuningSystem === undefined || tuningSystem === "") return { contexts: contextsOf(cat.tuningSystems), single: false };
  const ts = cat.findTuningSystem(tuningSystem);
  if (ts && startingNote === "all") return { contexts: contextsOf([ts]), single: false };
  const one = resolveTuning(cat, tuningSystem, startingNote);
  return isAnswer(one) ? one : { contexts: [one], single: true };
}

/** Named after the token as given (no display name to show for it). */
const tokenRef = (token: string) => ({ idName: toIdName(token), displayName: token });

/** A cell that could not be computed, reported as it is: an unknown tuning system, or a starting note it lacks. */
type FailedCell = { startingNote: ReturnType<typeof tokenRef>; error: string } & (
  | { tuningSystem: { id: string; idName: string; displayName: string } }
  | { tuningSystem: ReturnType<typeof tuningSystemRef> }
);

/** A cell of a compare answer: a tuning context to compute, or one that failed before computing. */
type Cell = { ok: true; context: TuningContext } | { ok: false; failed: FailedCell };

/** The cells of a tuning system. */
function cellsOf(cat: Catalog, id: string, startingNote: string, includeArabic: boolean): Cell[] {
  const ts = cat.findTuningSystem(id);
  if (!ts)
    return [{ ok: false, failed: { tuningSystem: { id, ...tokenRef(id) }, startingNote: tokenRef(startingNote), error: `Tuning system '${id}' not found` } }];
  const toCompute = (context: TuningContext): Cell => ({ ok: true, context });
  if (startingNote === "all") return contextsOf([ts]).map(toCompute);
  const resolved = findStartingNote(ts, startingNote);
  if (resolved) return [toCompute({ ts, startingNote: resolved })];
  return [
    {
      ok: false,
      failed: {
        tuningSystem: tuningSystemRef(ts, includeArabic),
        startingNote: tokenRef(startingNote),
        error: `Starting note '${startingNote}' is not available in tuning system '${ts.displayName}'`,
      },
    },
  ];
}

const MISSING_NOTE: unique symbol = Symbol("missing note");
/** Why a cell fails while computing: the idName of a note name its tuning context has no pitch class for. */
export interface MissingNote {
  readonly [MISSING_NOTE]: string;
}
export const missingNote = (idName: string): MissingNote => ({ [MISSING_NOTE]: idName });
const isMissingNote = (x: object): x is MissingNote => MISSING_NOTE in x;

/** `{tuningSystem, startingNote}` of a tuning context. */
export const contextIdentity = ({ ts, startingNote }: TuningContext, includeArabic: boolean) => ({
  tuningSystem: tuningSystemRef(ts, includeArabic),
  startingNote: noteRef(startingNote, includeArabic),
});

/**
 * The `comparisons` and `meta` of a compare answer. Cells run tuning systems outside, their
 * starting notes inside; `compute` returns a cell's entry, or the note name that makes it fail.
 * Every cell is reported, so successful + failed = total.
 */
export function compareCells<E extends object>(
  cat: Catalog,
  ids: readonly string[],
  startingNote: string,
  includeArabic: boolean,
  compute: (context: TuningContext) => E | MissingNote,
) {
  const cells = ids.flatMap((id) => cellsOf(cat, id, startingNote, includeArabic));
  let successful = 0;
  const comparisons = cells.map((cell) => {
    if (!cell.ok) return cell.failed;
    const entry = compute(cell.context);
    if (isMissingNote(entry))
      return {
        ...contextIdentity(cell.context, includeArabic),
        error: `Note name '${entry[MISSING_NOTE]}' is not a pitch class of this tuning system and starting note`,
      };
    successful++;
    return entry;
  });
  return {
    comparisons,
    meta: { totalComparisons: cells.length, successfulComparisons: successful, failedComparisons: cells.length - successful },
  };
}
