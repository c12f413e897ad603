/**
 * Loads data/ once, validates every record with zod and refuses invalid data with a
 * message naming the file, the record id and the field.
 */
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
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

export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "data");

export interface Archive {
  tuningSystems: TuningSystemRecord[];
  maqamat: MaqamRecord[];
  ajnas: JinsRecord[];
  sources: SourceRecord[];
  familyRules: FamilyRules;
  noteNames: NoteNameUniverse;
}

export class DataError extends Error {}

function readJson(dir: string, file: string): unknown {
  const path = join(dir, file);
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new DataError(`${path}: cannot read JSON (${(e as Error).message})`);
  }
}

function describeIssue(file: string, recordId: string | undefined, issue: z.ZodIssue): string {
  const field = issue.path.join(".") || "(record)";
  return `${file}${recordId !== undefined ? ` record '${recordId}'` : ""} field '${field}': ${issue.message}`;
}

function validateRecords<T>(dir: string, file: string, schema: z.ZodType<T>): T[] {
  const raw = readJson(dir, file);
  if (!Array.isArray(raw)) throw new DataError(`${file}: expected an array of records`);
  const problems: string[] = [];
  const records = raw.map((record, index) => {
    const result = schema.safeParse(record);
    if (result.success) return result.data;
    const id = typeof record?.id === "string" ? record.id : `#${index}`;
    problems.push(...result.error.issues.map((issue) => describeIssue(file, id, issue)));
    return undefined as T;
  });
  const ids = new Map<string, number>();
  raw.forEach((record, index) => {
    const id = record?.id;
    if (typeof id !== "string") return;
    if (ids.has(id)) problems.push(`${file} record '${id}' field 'id': duplicate of record #${ids.get(id)}`);
    ids.set(id, index);
  });
  if (problems.length) throw new DataError(`invalid data in ${dir}:\n  ${problems.join("\n  ")}`);
  return records;
}

function validateObject<T>(dir: string, file: string, schema: z.ZodType<T>): T {
  const result = schema.safeParse(readJson(dir, file));
  if (result.success) return result.data;
  throw new DataError(
    `invalid data in ${dir}:\n  ${result.error.issues.map((issue) => describeIssue(file, undefined, issue)).join("\n  ")}`,
  );
}

/** Reads and validates every fact file of `dir`; throws a DataError naming file, record and field. */
export function validateArchive(dir: string = DATA_DIR): Archive {
  const archive: Archive = {
    tuningSystems: validateRecords(dir, "tuningSystems.json", tuningSystemSchema),
    maqamat: validateRecords(dir, "maqamat.json", maqamSchema),
    ajnas: validateRecords(dir, "ajnas.json", jinsSchema),
    sources: validateRecords(dir, "sources.json", sourceSchema),
    familyRules: validateObject(dir, "maqamat-family-rules.json", familyRulesSchema),
    noteNames: validateObject(dir, "note-names.json", noteNameUniverseSchema),
  };
  const problems: string[] = [];
  for (const ts of archive.tuningSystems) {
    const n = ts.tuningSystemPitchClasses.length;
    ts.noteNames.forEach((set, i) => {
      if (set.length !== n)
        problems.push(`tuningSystems.json record '${ts.id}' field 'noteNames.${i}': ${set.length} names for ${n} pitch classes`);
    });
  }
  if (problems.length) throw new DataError(`invalid data in ${dir}:\n  ${problems.join("\n  ")}`);
  return archive;
}

let cached: Archive | undefined;

/** The archive of data/, loaded and validated once per process. */
export function archive(): Archive {
  cached ??= validateArchive(DATA_DIR);
  return cached;
}
