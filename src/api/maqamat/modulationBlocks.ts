/** The modulation blocks of the maqām detail answer (§8.5), shaped from the theory's target lists. */
import { toIdName } from "../../theory/idName.js";
import { entityNameToArabic, noteNameToArabic } from "../../theory/arabic.js";
import { perCategory, type ModulationLists, type ModulationTarget, type Modulations } from "../../theory/modulation.js";
/** `{id, idName, displayName, tonicIdName, tonicDisplayName, [isTransposition], [displayNameAr, tonicDisplayNameAr]}`. */
export function modulationEntry({ entity, transposition: t }: ModulationTarget, includeArabic: boolean) {
  return {
    id: entity.id,
    idName: t.idName,
    displayName: t.name,
    tonicIdName: toIdName(t.tonic),
    tonicDisplayName: t.tonic,
    ...(entity.kind === "maqam" ? { isTransposition: t.isTransposed } : {}),
    ...(includeArabic ? { displayNameAr: entityNameToArabic(t.name), tonicDisplayNameAr: noteNameToArabic(t.tonic) } : {}),
  };
}

function listsBlock(lists: ModulationLists, includeArabic: boolean) {
  return perCategory((k) => lists[k].map((t) => modulationEntry(t, includeArabic)));
}

/** The `modulations` block of the maqām detail: both modes with `noteName2pBelowThird`. */
export function modulationsBlock(modulations: Modulations, includeArabic: boolean) {
  const { noteName2pBelowThird } = modulations;
  return {
    maqamat: { ...listsBlock(modulations.maqamat, includeArabic), noteName2pBelowThird },
    ajnas: { ...listsBlock(modulations.ajnas, includeArabic), noteName2pBelowThird },
  };
}

/** The `lowerOctaveModulations` block (no `noteName2pBelowThird`). */
export function lowerOctaveModulationsBlock(lowered: { maqamat: ModulationLists; ajnas: ModulationLists }, includeArabic: boolean) {
  return { maqamat: listsBlock(lowered.maqamat, includeArabic), ajnas: listsBlock(lowered.ajnas, includeArabic) };
}
