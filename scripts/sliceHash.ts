/**
 * Content hashes of the plan's groups, by which an incremental build tells what it may keep. A
 * tuning system × starting note group hashes the facts it reads — its tuning system's record,
 * al-Kindī's (whose tuning completes the 12-tone sets), the note names, the maqāmāt, ajnās and
 * family rules it searches, the sources these cite — with its requests, the options that shape its
 * bytes and the engine's version. An availability group (a
 * maqām's or jins's `/availability`, by one idName) hashes what its answer is made of: the
 * entity's record, the note names, and the availability block itself, computed as the route does
 * (the tuning systems whose note names realise the entity, and under a transposed idName which of
 * their starting notes reach its tonic), so a change to one tuning system renders again only the
 * availability answers it changes. Any other group (lists, indexes) hashes all the facts, so it is
 * rendered again whenever anything changed.
 */
import { createHash, type Hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { Catalog } from "../src/theory/catalog.js";
import { availableStartingNotes, reachedTonics, type ReachedTonics } from "../src/api/entities/availability.js";
import type { ListOf } from "../src/api/shared/prerender.js";
import type { Entity } from "../src/theory/entity.js";
import { availabilityOf, availableIn, type Availability } from "../src/theory/realisation.js";
import type { TuningSystem } from "../src/theory/tuningSystem.js";
import { AL_KINDI_ID } from "../src/theory/twelveToneSets.js";
import { isAnswer } from "../src/api/errors.js";
import { requestedTonic, resolveEntity } from "../src/api/resolve.js";
import { DEFAULT_CENTS_TOLERANCE } from "../src/theory/defaults.js";
import type { Encoding } from "../src/serve/handler.js";
import type { Planned } from "./manifest.js";

/** Raised by hand when the bytes of a rendering change without any file below changing (a new Node, say). */
export const ENGINE_VERSION = 1;

const root = resolve(import.meta.dirname, "..");
/** What computes, writes and compresses the answers and pictures: the engine, the worker, its drawing of the pictures, the locked dependencies. */
const ENGINE_DIRS = ["src"];
const ENGINE_FILES = ["scripts/buildWorker.ts", "scripts/pictures.ts", "package-lock.json"];

/** The engine's version: ENGINE_VERSION and the contents of every engine file, in path order. */
export function engineDigest(): string {
  const digest = createHash("sha256").update(`engine ${ENGINE_VERSION}\n`);
  const inDirs = ENGINE_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name))),
  );
  for (const file of [...inDirs, ...ENGINE_FILES].sort()) digest.update(`${file}\n`).update(readFileSync(join(root, file)));
  return digest.digest("hex");
}

/** The scripts that compute and write the datasets (what src/ holds of them is the engine's). */
const DATASETS_CODE = [
  "scripts/datasets.ts",
  "scripts/datasetSlices.ts",
  "scripts/datasetDatabase.ts",
  "scripts/datasetFiles.ts",
  "scripts/datasetGroups.ts",
  "scripts/datasetsPool.ts",
  "scripts/datasetSliceWorker.ts",
  "scripts/datasetTasks.ts",
  "scripts/datasetTaskThread.ts",
  "scripts/fileParts.ts",
  "scripts/threadBundle.ts",
  "scripts/heap.ts",
];

/** The contents of the datasets' scripts, as one text. */
export const datasetsCode = (): string => DATASETS_CODE.map((file) => `${file}\n${readFileSync(join(root, file), "utf8")}`).join("\n");

/** The datasets' hash: all the facts, the engine, and the scripts that write them. */
export function datasetsHash(catalog: Catalog, engine: string): string {
  return sha256(engine, datasetsCode(), JSON.stringify(catalog.facts));
}

/** What a tuning system's own rows and answers read besides the shared facts: its record and the sources it and the entities cite. */
export function tuningSystemFacts(catalog: Catalog, tuningSystem: string): string {
  const { facts } = catalog;
  const record = catalog.findTuningSystem(tuningSystem)?.record;
  const cited = citedSources([record, facts.maqamat, facts.ajnas]);
  return `${JSON.stringify(record ?? null)}\0${JSON.stringify(facts.sources.filter((s) => cited.has(s.id)))}`;
}

/** The options besides the facts and the plan that shape the bytes of a group's files and pictures. */
export interface RenderKey {
  baseUrl: string;
  encodings: Encoding[];
  pictures: boolean;
}

const SLICE = /^(.+) × (.+)$/;

const sha256 = (...parts: string[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex");
};

/** The ids of the sources the records cite (any `sourceId` field, at any depth). */
function citedSources(records: unknown[]): Set<string> {
  const ids = new Set<string>();
  JSON.stringify(records, (key, value) => {
    if (key === "sourceId" && typeof value === "string") ids.add(value);
    return value;
  });
  return ids;
}

/**
 * An availability request: its kind and idName (a transposed idName may hold a `/`, as in
 * `…_nim_kawasht/rahawi`), with includeArabic=true or nothing (other parameters are not told apart).
 */
const AVAILABILITY = /^\/(maqamat|ajnas)\/(.+)\/availability(?:\?includeArabic=true)?$/;

/**
 * What the files of an availability group are made of, when every request of the group is one
 * the route answers from the entity, the note names and availableStartingNotes alone (at the
 * default tolerance): per idName, the entity's record and the tuning systems' ids, names and
 * starting notes the answer lists, or for an idName that names nothing the records it was looked
 * for in (with the note names, all the lookup reads); undefined for any other request.
 */
function availabilityFacts(
  catalog: Catalog,
  lines: readonly string[],
  reached: (e: Entity) => ReachedTonics,
  availability: (e: Entity) => readonly Availability[],
): string | undefined {
  const idNames = new Map<string, "maqam" | "jins">();
  for (const line of lines) {
    const m = AVAILABILITY.exec(line.split("\t")[0]);
    if (!m) return undefined;
    idNames.set(m[2], m[1] === "maqamat" ? "maqam" : "jins");
  }
  const facts = [...idNames].map(([idName, kind]) => {
    const ref = resolveEntity(catalog, kind, idName);
    if (isAnswer(ref)) return ["not found", idName, kind === "maqam" ? catalog.facts.maqamat : catalog.facts.ajnas];
    const tonic = requestedTonic(catalog, ref, "transpositionNoteName", undefined);
    // The answer's block is these names, formatted (and put into Arabic) by the engine.
    const available = isAnswer(tonic)
      ? tonic
      : availableStartingNotes(catalog, ref.entity, tonic, DEFAULT_CENTS_TOLERANCE, reached(ref.entity), availability(ref.entity)).map(
          ({ ts, startingNotes }) => [ts.id, ts.displayName, ts.displayNameAr, startingNotes],
        );
    return [idName, ref.entity.record, available];
  });
  return JSON.stringify(facts);
}

/** The listing's part (ListOf) that holds an entity's tonics in a tuning system (tonicsIn). */
export const availabilityPart = (e: Entity): string => `availability/${e.kind}/${e.idName}`;

/** The tonics an entity's transposition lists reach at each starting note of `ts` that realises it (availableIn). */
export function tonicsIn(catalog: Catalog, e: Entity, ts: TuningSystem): Record<string, string[]> {
  const reached = reachedTonics(catalog, e, DEFAULT_CENTS_TOLERANCE);
  return Object.fromEntries(availableIn(catalog, e, ts).map((startingNote) => [startingNote, [...reached(ts, startingNote)]]));
}

/** ReachedTonics of an entity from the tonics listed per tuning system (`listOf`, a part per entity). */
function listedTonics(catalog: Catalog, listOf: ListOf): (e: Entity) => ReachedTonics {
  const sets = new Map<string, Map<string, ReadonlySet<string>>>();
  return (e) => (ts, startingNote) => {
    const part = availabilityPart(e);
    let byNote = sets.get(`${part}\t${ts.id}`);
    if (!byNote) {
      const tonics = listOf(ts, part, () => tonicsIn(catalog, e, ts));
      byNote = new Map(Object.entries(tonics).map(([note, idNames]) => [note, new Set(idNames)]));
      sets.set(`${part}\t${ts.id}`, byNote);
    }
    // Only the starting notes that realise the entity are listed, the only ones availableStartingNotes asks about.
    return byNote.get(startingNote) ?? reachedTonics(catalog, e, DEFAULT_CENTS_TOLERANCE)(ts, startingNote);
  };
}

/** A group's hash being made: its lines' text not yet given to it. */
interface Hashing {
  hash: Hash;
  pending: string;
}

/** The characters of lines held before they are hashed. */
const HASHED_AT = 4096;

/** Group name → content hash, for every group of the plan (cacheGroupOf). */
export function groupHashes(
  planned: readonly Planned[],
  catalog: Catalog,
  key: RenderKey,
  engine = engineDigest(),
  listOf: ListOf = (_, __, list) => list(),
): Map<string, string> {
  const { facts } = catalog;
  const reached = listedTonics(catalog, listOf);
  // Where an entity is realised, worked out once for all its idNames (some 10,000 transposed ones).
  const realised = new Map<Entity, readonly Availability[]>();
  const availability = (e: Entity) => {
    let known = realised.get(e);
    if (!known) {
      known = availabilityOf(catalog, e);
      realised.set(e, known);
    }
    return known;
  };
  const common = sha256(engine, JSON.stringify(key), JSON.stringify([facts.noteNames, facts.maqamat, facts.ajnas, facts.familyRules]));
  const everything = sha256(common, JSON.stringify(facts));
  const availabilityBase = sha256(engine, JSON.stringify(key), JSON.stringify(facts.noteNames));
  // The 12-tone sets of every tuning system × starting note are completed from al-Kindī's tuning (the datasets' rows are not).
  const alKindi = JSON.stringify(catalog.findTuningSystem(AL_KINDI_ID)?.record ?? null);
  const sliceFacts = (tuningSystem: string): string => sha256(common, alKindi, tuningSystemFacts(catalog, tuningSystem));
  const factsOfTuningSystem = new Map<string, string>();
  const factsOf = (tuningSystem: string) => {
    const known = factsOfTuningSystem.get(tuningSystem) ?? sliceFacts(tuningSystem);
    factsOfTuningSystem.set(tuningSystem, known);
    return known;
  };
  // A group's hash is sha256(base, group, its lines joined by "\n"). A tuning system × starting note
  // group's base is known from its name, so its lines are hashed as they come, a few kilobytes at a
  // time (one call per line was some 266,000 calls into the hash); the other
  // groups' lines are held until all are listed (an availability group's base reads them).
  const byGroup = new Map<string, Hashing | string[]>();
  for (const p of planned) {
    const line = `${p.request}\t${p.file}`;
    const made = byGroup.get(p.group);
    if (Array.isArray(made)) made.push(line);
    else if (made) {
      made.pending += `\n${line}`;
      if (made.pending.length > HASHED_AT) {
        made.hash.update(made.pending);
        made.pending = "";
      }
    } else {
      const tuningSystem = SLICE.exec(p.group)?.[1];
      byGroup.set(p.group, tuningSystem === undefined ? [line] : { hash: createHash("sha256"), pending: `${factsOf(tuningSystem)}\0${p.group}\0${line}` });
    }
  }
  const hashes = new Map<string, string>();
  for (const [group, made] of byGroup) {
    if (!Array.isArray(made)) {
      hashes.set(group, made.hash.update(`${made.pending}\0`).digest("hex"));
      continue;
    }
    const answered = availabilityFacts(catalog, made, reached, availability);
    const base = answered === undefined ? everything : sha256(availabilityBase, answered);
    hashes.set(group, sha256(base, group, made.join("\n")));
  }
  return hashes;
}
