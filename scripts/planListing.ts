/**
 * The plan's listing kept for the next build, in `<outDir>.cache/plan.json`: per tuning system, the
 * parts it adds to the enumerators' lists (ListOf, src/api/shared/prerender.ts) and the tonics its
 * transposition lists reach (for the availability hashes, scripts/sliceHash.ts), under a hash of
 * all they read — its record, al-Kindī's (its 12-tone sets are completed from al-Kindī's tuning),
 * the note names, maqāmāt, ajnās and family rules, the pre-rendering options, the engine and the
 * scripts that list the tonics. A build reads back the parts of every tuning system whose hash is
 * unchanged instead of listing them: after a change of one tuning system, that one is listed
 * again. A file that does not parse, is of another format, or holds parts that do not match the
 * digest stored beside them is not used.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ListOf, PrerenderOptions } from "../src/api/shared/prerender.js";
import type { Catalog } from "../src/theory/catalog.js";
import type { TuningSystem } from "../src/theory/tuningSystem.js";
import { AL_KINDI_ID } from "../src/theory/twelveToneSets.js";

export const PLAN_FILE = "plan.json";
/** Raised by hand when what a part holds changes shape. */
const FORMAT = "plan listing 1";
/** The scripts that list parts besides the engine's enumerators (the tonics of the availability hashes). */
const LISTING_SCRIPTS = ["sliceHash.ts", "planListing.ts"];

interface Listed {
  hash: string;
  /** SHA-256 of the parts as JSON: a file edited or cut short since it was written is not trusted. */
  digest: string;
  parts: Record<string, unknown>;
}

interface Stored {
  format: string;
  tuningSystems: Record<string, Listed>;
}

export interface PlanListing {
  listOf: ListOf;
  /** Parts read back from the previous build, and listed now. */
  counts(): { read: number; listed: number };
  /**
   * Writes every part this build used into `cacheDir` (made when missing), once the plan is made,
   * and lets them go: while the workers render, the parts (tens of megabytes) would only add to the
   * build's peak memory. Parts asked for afterwards are listed again.
   */
  write(cacheDir: string): void;
}

/** A tuning system's parts in this build, and those of the previous build it may read back. */
interface Entry {
  hash: string;
  parts: Record<string, unknown>;
  previous?: Record<string, unknown>;
}

/** The text of the scripts that list parts besides the engine: read where they are, and handed to a thread that runs them from a bundle. */
export const listingCode = (): string[] => LISTING_SCRIPTS.map((file) => readFileSync(join(import.meta.dirname, file), "utf8"));

const sha256 = (...parts: string[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex");
};

/** The listing a previous cache holds, or nothing when it is missing, does not parse or is of another format. */
function readStored(cacheDir: string | undefined): Record<string, Listed> {
  const file = cacheDir === undefined ? undefined : join(cacheDir, PLAN_FILE);
  if (file === undefined || !existsSync(file)) return {};
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<Stored> | null;
    return stored?.format === FORMAT && typeof stored.tuningSystems === "object" && stored.tuningSystems !== null ? stored.tuningSystems : {};
  } catch {
    return {};
  }
}

/**
 * The ListOf of one build over `catalog`'s facts: parts of `previousCache` (a build's
 * `<outDir>.cache`) where their tuning system's hash is unchanged and their digest holds, others
 * computed; every part used is kept for `write`.
 */
export function planListing(
  catalog: Catalog,
  engine: string,
  options: PrerenderOptions,
  previousCache?: string,
  scripts: readonly string[] = listingCode(),
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
  let read = 0;
  let listed = 0;
  const entryOf = (ts: TuningSystem) => {
    const made = current.get(ts.id);
    if (made) return made;
    const hash = sha256(common, JSON.stringify(ts.record));
    const before = Object.hasOwn(previous, ts.id) ? previous[ts.id] : undefined;
    const trusted =
      before?.hash === hash && typeof before.parts === "object" && before.parts !== null && sha256(JSON.stringify(before.parts)) === before.digest;
    const entry: Entry = { hash, parts: {}, previous: trusted ? before.parts : undefined };
    current.set(ts.id, entry);
    return entry;
  };
  const listOf: ListOf = <T>(ts: TuningSystem, part: string, list: () => T): T => {
    const entry = entryOf(ts);
    if (Object.hasOwn(entry.parts, part)) return entry.parts[part] as T;
    const kept = entry.previous && Object.hasOwn(entry.previous, part);
    const value = kept ? (entry.previous?.[part] as T) : list();
    if (kept) read++;
    else listed++;
    entry.parts[part] = value;
    return value;
  };
  return {
    listOf,
    counts: () => ({ read, listed }),
    write(cacheDir) {
      const tuningSystems: Record<string, Listed> = {};
      for (const [id, { hash, parts }] of current) tuningSystems[id] = { hash, digest: sha256(JSON.stringify(parts)), parts };
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(join(cacheDir, PLAN_FILE), JSON.stringify({ format: FORMAT, tuningSystems } satisfies Stored));
      current.clear();
      previous = {};
    },
  };
}
