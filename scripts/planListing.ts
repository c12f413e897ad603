/**
 * The plan's listing kept for the next build, in `<outDir>.cache/plan.json`: per tuning system, the
 * parts it adds to the enumerators' lists (ListOf, src/api/shared/prerender.ts) and the tonics its
 * transposition lists reach (for the availability hashes, scripts/sliceHash.ts), under a hash of
 * all they read — its record, al-Kindī's (its 12-tone sets are completed from al-Kindī's tuning),
 * the note names, maqāmāt, ajnās and family rules, the pre-rendering options, the engine and the
 * scripts that list the tonics. A build reads back the parts of every tuning system whose hash is
 * unchanged instead of listing them: after a change of one tuning system, that one is listed
 * again. The file is lines: its format, then for each tuning system a line of JSON (its id, hash
 * and the SHA-256 of its parts' text) and its parts as one line of JSON, then the count of tuning
 * systems. Read back, a text is checked and parsed; a tuning system whose parts were all read back
 * and none added keeps its text as it was, neither made nor hashed again (of 22 MB, some 0.6 MB
 * change with one tuning system), and is written back as the bytes it was read as: the file is
 * read and written as bytes, not as one string. A file of another format, or cut short, is not
 * used, nor a tuning system's text that does not match its digest.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SETS_PART, setGroupingSeeds } from "../src/api/exports/prerender.js";
import type { ListOf, PrerenderOptions } from "../src/api/shared/prerender.js";
import type { Catalog } from "../src/theory/catalog.js";
import type { GroupingShape } from "../src/theory/pitchClassSets.js";
import { availableIn } from "../src/theory/realisation.js";
import type { TuningSystem } from "../src/theory/tuningSystem.js";
import { AL_KINDI_ID } from "../src/theory/twelveToneSets.js";
import { linesOf, writeParts } from "./fileParts.js";
import { TUNING_SYSTEM_PARTS } from "./prerender/index.js";
import { availabilityPart, tonicsIn } from "./sliceHash.js";

export const PLAN_FILE = "plan.json";
/** Raised by hand when what a part holds changes shape. */
const FORMAT = "plan listing 4";
/** The scripts that list parts besides the engine's enumerators (the tonics of the availability hashes). */
const LISTING_SCRIPTS = ["sliceHash.ts", "planListing.ts"];

export interface Listed {
  id: string;
  hash: string;
  /** SHA-256 of `bytes`: a file edited or cut short since it was written is not trusted. */
  digest: string;
  /** The parts, as the UTF-8 bytes of their JSON. */
  bytes: Buffer;
}

/** Parts a listing took as offered by this build's other threads, read back from the previous build, and listed itself. */
export interface ListingCounts {
  offered: number;
  read: number;
  listed: number;
}

export interface PlanListing {
  listOf: ListOf;
  /** Parts read back from the previous build, and listed now. */
  counts(): ListingCounts;
  /**
   * Writes every part this build used into `cacheDir` (made when missing), once the plan is made,
   * and lets them go: while the workers render, the parts (tens of megabytes) would only add to the
   * build's peak memory. Parts asked for afterwards are listed again.
   */
  write(cacheDir: string): void;
}

/** A tuning system's parts in this build, and those of the previous build it may read back (with their text, kept while this build adds none). */
interface Entry {
  hash: string;
  parts: Record<string, unknown>;
  previous?: { parts: Record<string, unknown>; listed: Listed };
  /** Parts listed now. */
  listed: number;
  /** Whether `previous` holds parts offered for this build rather than read back. */
  offered: boolean;
}

/** The text of the scripts that list parts besides the engine: read where they are, and handed to a thread that runs them from a bundle. */
export const listingCode = (): string[] => LISTING_SCRIPTS.map((file) => readFileSync(join(import.meta.dirname, file), "utf8"));

const sha256 = (...parts: (string | Uint8Array)[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex");
};

/** A tuning system's parts listed away from the planning (listTuningSystem), with their digest. */
export interface OfferedParts {
  digest: string;
  bytes: Uint8Array;
}

/** A tuning system's parts listed away from the planning, and the 12-tone groupings of its sets. */
export type TuningSystemListed = OfferedParts & { seeds: [string, GroupingShape][] };

/**
 * Every part a planning lists for `ts`, in the order it asks for them: the enumerators' parts
 * (TUNING_SYSTEM_PARTS), then the tonics of each entity realised in it (the availability hashes).
 * Computed where the tuning system's transpositions already are — on the datasets' thread that has
 * just computed its slice — the planning then reads them back as it reads a previous build's.
 * The 12-tone groupings its sets are listed from are given as seeds for the render workers.
 */
export function listTuningSystem(cat: Catalog, ts: TuningSystem, options: PrerenderOptions): TuningSystemListed {
  const parts: Record<string, unknown> = {};
  let seeds: [string, GroupingShape][] = [];
  for (const part of TUNING_SYSTEM_PARTS) {
    parts[part.name] = part.list(cat, ts, options);
    if (part === SETS_PART) seeds = setGroupingSeeds(cat, ts);
  }
  for (const e of [...cat.maqamat, ...cat.ajnas]) if (availableIn(cat, e, ts).length) parts[availabilityPart(e)] = tonicsIn(cat, e, ts);
  const bytes = Buffer.from(JSON.stringify(parts));
  return { digest: sha256(bytes), bytes, seeds };
}

/** The listing a previous cache holds by tuning system, or nothing when it is missing, of another format, or cut short. */
export function readStored(cacheDir: string | undefined): Record<string, Listed> {
  const file = cacheDir === undefined ? undefined : join(cacheDir, PLAN_FILE);
  if (file === undefined || !existsSync(file)) return {};
  try {
    const lines = linesOf(readFileSync(file));
    const count = (lines.length - 3) / 2;
    const ends = lines.at(-1)?.length === 0 && JSON.parse(String(lines.at(-2) ?? "null"))?.tuningSystems === count;
    if (JSON.parse(String(lines[0]))?.format !== FORMAT || !ends) return {};
    // Without a prototype: an id is only ever a key of its own.
    const stored: Record<string, Listed> = Object.create(null);
    for (let i = 1; i < lines.length - 2; i += 2) {
      const head = JSON.parse(String(lines[i])) as Omit<Listed, "bytes">;
      stored[head.id] = { ...head, bytes: lines[i + 1] };
    }
    return stored;
  } catch {
    return {};
  }
}

/** A tuning system's stored parts, parsed, when its text is the one its digest names and parses to an object. */
function trustedParts(listed: Listed): Entry["previous"] {
  if (sha256(listed.bytes) !== listed.digest) return undefined;
  try {
    const parts = JSON.parse(String(listed.bytes)) as unknown;
    return typeof parts === "object" && parts !== null && !Array.isArray(parts) ? { parts: parts as Record<string, unknown>, listed } : undefined;
  } catch {
    return undefined;
  }
}

/** What is kept of a tuning system's parts: the bytes read back when this build used every stored part and listed none, else new ones. */
function listedOf(id: string, { hash, parts, previous, listed }: Entry): Listed {
  if (previous && listed === 0 && Object.keys(parts).length === Object.keys(previous.parts).length) return previous.listed;
  const bytes = Buffer.from(JSON.stringify(parts));
  return { id, hash, digest: sha256(bytes), bytes };
}

/** What a listing reads: the engine's digest, the pre-rendering options, the previous build's cache, the parts offered for this build's facts. */
export interface ListingSources {
  engine: string;
  options: PrerenderOptions;
  previousCache?: string;
  /** The listing's scripts' text (listingCode), where it is read elsewhere. */
  scripts?: readonly string[];
  /** Parts listed for these facts by this build elsewhere (listTuningSystem), by tuning system id: taken before the previous build's. */
  offered?: ReadonlyMap<string, OfferedParts>;
}

/**
 * The ListOf of one build over `catalog`'s facts: parts offered by this build, else those of
 * `previousCache` (a build's `<outDir>.cache`) where their tuning system's hash is unchanged, where
 * their digest holds; others computed; every part used is kept for `write`.
 */
export function planListing(
  catalog: Catalog,
  { engine, options, previousCache, scripts = listingCode(), offered: offers = new Map() }: ListingSources,
): PlanListing {
  let previous = readStored(previousCache);
  const { facts } = catalog;
  const alKindi = catalog.findTuningSystem(AL_KINDI_ID)?.record ?? null;
  const common = sha256(
    FORMAT,
    engine,
    ...scripts,
    JSON.stringify({ full: options.full }),
    JSON.stringify([facts.noteNames, facts.maqamat, facts.ajnas, facts.familyRules, alKindi]),
  );
  const current = new Map<string, Entry>();
  let offered = 0;
  let read = 0;
  let listed = 0;
  const entryOf = (ts: TuningSystem) => {
    const made = current.get(ts.id);
    if (made) return made;
    const hash = sha256(common, JSON.stringify(ts.record));
    const given = offers.get(ts.id);
    // Offered bytes come from another thread as a plain Uint8Array: viewed as a Buffer, not copied.
    const before = given
      ? { id: ts.id, hash, digest: given.digest, bytes: Buffer.from(given.bytes.buffer, given.bytes.byteOffset, given.bytes.byteLength) }
      : Object.hasOwn(previous, ts.id)
        ? previous[ts.id]
        : undefined;
    const entry: Entry = { hash, parts: {}, previous: before?.hash === hash ? trustedParts(before) : undefined, listed: 0, offered: given !== undefined };
    current.set(ts.id, entry);
    return entry;
  };
  const listOf: ListOf = <T>(ts: TuningSystem, part: string, list: () => T): T => {
    const entry = entryOf(ts);
    if (Object.hasOwn(entry.parts, part)) return entry.parts[part] as T;
    const kept = entry.previous && Object.hasOwn(entry.previous.parts, part);
    const value = kept ? (entry.previous?.parts[part] as T) : list();
    if (kept && entry.offered) offered++;
    else if (kept) read++;
    else {
      listed++;
      entry.listed++;
    }
    entry.parts[part] = value;
    return value;
  };
  return {
    listOf,
    counts: () => ({ offered, read, listed }),
    write(cacheDir) {
      const lineEnd = Buffer.from("\n");
      const line = (text: string) => Buffer.from(`${text}\n`);
      const parts: Uint8Array[] = [line(JSON.stringify({ format: FORMAT }))];
      for (const [id, entry] of current) {
        const { bytes, ...head } = listedOf(id, entry);
        parts.push(line(JSON.stringify(head)), bytes, lineEnd);
      }
      parts.push(line(JSON.stringify({ tuningSystems: current.size })));
      mkdirSync(cacheDir, { recursive: true });
      writeParts(join(cacheDir, PLAN_FILE), parts);
      current.clear();
      previous = {};
    },
  };
}
