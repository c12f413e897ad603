/**
 * The state a build keeps of its groups (scripts/buildCache.ts), as lines: a head of JSON (the
 * SHA-256 of the manifest it belongs to first, which belongsTo reads alone; the format; the number
 * of groups; the SHA-256 of the lines after it; padded with spaces, as it is written last), then
 * the files its fit left out (paths below the tree, in its cache) as a JSON array, then per group
 * its hash, its name, and its results and pictures as the JSON `[results, pictures]`, tab-separated
 * (a name never holds a tab or a line break, and JSON escapes them). The files left out tell the
 * next builds which of a group's files the tree lacks without looking for each. Read back, the
 * lines are split as bytes and a group's JSON is decoded and parsed only when the build asks for it
 * (groupOf): after one change, the spare's groups, and of the previous build's only those the spare
 * does not hold with the same hash. A group parsed and written again unchanged is written as the
 * bytes it was read from. A file of another format, cut short or changed since it was written gives
 * no state.
 */
import { createHash } from "node:crypto";
import { linesOf, NEWLINE, writeParts } from "./fileParts.js";
import type { Encoding } from "../src/serve/handler.js";

/** A request's result as kept: request, status, bytes, content hash, sizes of the siblings. */
export type KeptResult = [request: string, status: number, bytes: number, hash: string, encoded: Partial<Record<Encoding, number>>];

export interface GroupState {
  hash: string;
  results: KeptResult[];
  /** Pictures drawn for the group: file below pictures/ and bytes. */
  pictures: [file: string, bytes: number][];
}

/** A group as the state holds it: its hash, and its results and pictures as the UTF-8 bytes of their JSON, parsed by groupOf. */
export interface StoredGroup {
  hash: string;
  bytes: Buffer;
}

export interface BuildState {
  /** SHA-256 of the manifest.json this state describes: a state of another tree is not used. */
  manifest: string;
  groups: Map<string, StoredGroup>;
  /** The files the fit left out of the tree (paths below it), kept in the build's cache. */
  leftOut: ReadonlySet<string>;
}

/** Raised by hand when the lines change shape. */
const FORMAT = "state lines 2";
/** Each stored group parsed once; and the bytes a group was parsed from, while it is that object. */
const parsedGroups = new WeakMap<StoredGroup, GroupState>();
const readFrom = new WeakMap<GroupState, Buffer>();

const TAB = 9;

/** A stored group's hash, results and pictures. */
export function groupOf(stored: StoredGroup): GroupState {
  const known = parsedGroups.get(stored);
  if (known) return known;
  const [results, pictures] = JSON.parse(String(stored.bytes)) as [KeptResult[], GroupState["pictures"]];
  const group = { hash: stored.hash, results, pictures };
  parsedGroups.set(stored, group);
  readFrom.set(group, stored.bytes);
  return group;
}

/**
 * Room for the head, written last (its digest sums up the lines after it): padded with spaces, which
 * JSON allows after a value. Its fields take some 190 bytes.
 */
const HEAD_BYTES = 256;

/**
 * Writes the state of `manifest`'s tree with `groups` (name and state, each made as it is asked
 * for) and the files its fit left out into `file`, a group at a time: a doubled archive's state,
 * 267 MB, is never held whole. A group parsed from a state and unchanged since is written as the
 * bytes it was read from, neither stringified nor encoded again.
 */
export function writeStateFile(file: string, manifest: string, groups: Iterable<readonly [string, GroupState]>, leftOut: readonly string[]): void {
  const digest = createHash("sha256");
  let count = 0;
  const hashed = (part: Uint8Array) => {
    digest.update(part);
    return part;
  };
  function* lines(): Generator<Uint8Array> {
    const lineEnd = Buffer.from("\n");
    yield hashed(Buffer.from(`${JSON.stringify(leftOut)}\n`));
    for (const [name, group] of groups) {
      count++;
      yield hashed(Buffer.from(`${group.hash}\t${name}\t`));
      yield hashed(readFrom.get(group) ?? Buffer.from(JSON.stringify([group.results, group.pictures])));
      yield hashed(lineEnd);
    }
  }
  const headOf = () => {
    const head = JSON.stringify({ manifest, format: FORMAT, groups: count, digest: digest.digest("hex") });
    return Buffer.from(`${head.padEnd(HEAD_BYTES - 1)}\n`);
  };
  writeParts(file, lines(), { bytes: HEAD_BYTES, of: headOf });
}

/** The state a file's bytes hold, or undefined when they are of another format, cut short or changed since written. */
export function stateOfBytes(bytes: Buffer): BuildState | undefined {
  const end = bytes.indexOf(NEWLINE);
  if (end < 0) return undefined;
  let head: { manifest?: unknown; format?: unknown; groups?: unknown; digest?: unknown };
  try {
    head = JSON.parse(bytes.toString("utf8", 0, end)) as typeof head;
  } catch {
    return undefined;
  }
  const body = bytes.subarray(end + 1);
  if (head.format !== FORMAT || typeof head.manifest !== "string" || head.digest !== createHash("sha256").update(body).digest("hex")) return undefined;
  // Split as bytes: a group's JSON is decoded only when it is parsed (groupOf).
  const lines = linesOf(body);
  if (lines.length < 2 || lines.at(-1)?.length !== 0) return undefined;
  // Checked by the digest above: the array as it was written.
  const leftOut = new Set(JSON.parse(String(lines[0])) as string[]);
  const groups = new Map<string, StoredGroup>();
  for (const line of lines.slice(1, -1)) {
    const name = line.indexOf(TAB);
    const text = line.indexOf(TAB, name + 1);
    if (name < 0 || text < 0) return undefined;
    groups.set(line.toString("utf8", name + 1, text), { hash: line.toString("latin1", 0, name), bytes: line.subarray(text + 1) });
  }
  if (head.groups !== groups.size) return undefined;
  return { manifest: head.manifest, groups, leftOut };
}
