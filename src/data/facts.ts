/**
 * The archive's facts as one value, validated with the zod schemas. Pure: the caller brings the
 * parsed JSON of each fact file (from disk in Node, bundled elsewhere), and invalid data is
 * refused with a message naming the file, the record id and the field.
 */
import type { z } from "zod";
import {
  tuningSystemSchema,
  maqamSchema,
  jinsSchema,
  sourceSchema,
  familyRulesSchema,
  noteNameUniverseSchema,
  type TuningSystemRecord,
  type MaqamRecord,
  type JinsRecord,
  type SourceRecord,
  type FamilyRules,
  type NoteNameUniverse,
} from "./schemas.js";

export interface Facts {
  tuningSystems: TuningSystemRecord[];
  maqamat: MaqamRecord[];
  ajnas: JinsRecord[];
  sources: SourceRecord[];
  familyRules: FamilyRules;
  noteNames: NoteNameUniverse;
}

/** The fact files, by the name they have in data/. */
export const FACT_FILES = {
  tuningSystems: "tuningSystems.json",
  maqamat: "maqamat.json",
  ajnas: "ajnas.json",
  sources: "sources.json",
  familyRules: "maqamat-family-rules.json",
  noteNames: "note-names.json",
} as const satisfies Record<keyof Facts, string>;

/** Parsed but unvalidated JSON of each fact file. */
export type RawFacts = Record<keyof Facts, unknown>;

export class DataError extends Error {}

function describeIssue(file: string, recordId: string | undefined, issue: z.ZodIssue): string {
  const field = issue.path.join(".") || "(record)";
  return `${file}${recordId !== undefined ? ` record '${recordId}'` : ""} field '${field}': ${issue.message}`;
}

function validateRecords<T>(file: string, raw: unknown, schema: z.ZodType<T>, problems: string[]): T[] {
  if (!Array.isArray(raw)) {
    problems.push(`${file}: expected an array of records`);
    return [];
  }
  const ids = new Map<string, number>();
  return raw.map((record, index) => {
    const id = typeof record?.id === "string" ? record.id : undefined;
    if (id !== undefined) {
      if (ids.has(id)) problems.push(`${file} record '${id}' field 'id': duplicate of record #${ids.get(id)}`);
      ids.set(id, index);
    }
    const result = schema.safeParse(record);
    if (result.success) return result.data;
    problems.push(...result.error.issues.map((issue) => describeIssue(file, id ?? `#${index}`, issue)));
    return undefined as T;
  });
}

function validateObject<T>(file: string, raw: unknown, schema: z.ZodType<T>, problems: string[]): T {
  const result = schema.safeParse(raw);
  if (!result.success) problems.push(...result.error.issues.map((issue) => describeIssue(file, undefined, issue)));
  return result.data as T;
}

/** Validates every fact file; throws a DataError naming file, record and field (`where` says which data). */
export function validateFacts(raw: RawFacts, where = "data/"): Facts {
  const problems: string[] = [];
  const facts: Facts = {
    tuningSystems: validateRecords(FACT_FILES.tuningSystems, raw.tuningSystems, tuningSystemSchema, problems),
    maqamat: validateRecords(FACT_FILES.maqamat, raw.maqamat, maqamSchema, problems),
    ajnas: validateRecords(FACT_FILES.ajnas, raw.ajnas, jinsSchema, problems),
    sources: validateRecords(FACT_FILES.sources, raw.sources, sourceSchema, problems),
    familyRules: validateObject(FACT_FILES.familyRules, raw.familyRules, familyRulesSchema, problems),
    noteNames: validateObject(FACT_FILES.noteNames, raw.noteNames, noteNameUniverseSchema, problems),
  };
  if (!problems.length)
    for (const ts of facts.tuningSystems) {
      const n = ts.tuningSystemPitchClasses.length;
      ts.noteNames.forEach((set, i) => {
        if (set.length !== n) problems.push(`${FACT_FILES.tuningSystems} record '${ts.id}' field 'noteNames.${i}': ${set.length} names for ${n} pitch classes`);
      });
    }
  if (problems.length) throw new DataError(`invalid data in ${where}:\n  ${problems.join("\n  ")}`);
  return facts;
}
