/**
 * Host profiles: how much of the API a build pre-renders for the host it is meant for. The
 * worker (build/_worker.js) or a fallback computes everything else with the same bytes.
 */
import type { PrerenderOptions } from "./prerender/index.js";
import type { Encoding } from "../src/serve/handler.js";

export const HOST_PROFILES = ["github-pages", "cloudflare", "full"] as const;
export type HostProfile = (typeof HOST_PROFILES)[number];

export interface Profile {
  prerender: PrerenderOptions;
  /** Precompressed siblings written by default (PRECOMPRESS overrides). */
  encodings: Encoding[];
  /** Most files the whole output may hold (pre-rendered files, the worker and the root files). */
  maxFiles?: number;
  /** Most bytes the whole output may hold: everything the host publishes (the API, siblings, site, pictures, root files). */
  maxBytes?: number;
  /** Whether build/pictures/ holds an SVG of every pre-rendered realisation (the explorer draws them anyway). */
  pictures: boolean;
  description: string;
}

export const PROFILES: Record<HostProfile, Profile> = {
  "github-pages": {
    prerender: { full: false },
    // GitHub Pages compresses answers by itself and serves no siblings, which would count against its 1 GB.
    encodings: [],
    maxBytes: 1e9,
    pictures: true,
    description: "the taḥlīl and one register per transposed degree of every maqām and jins, under GitHub Pages' 1 GB",
  },
  cloudflare: {
    prerender: { full: false },
    // Cloudflare compresses by itself, and every sibling would count against the file limit.
    encodings: [],
    maxFiles: 20_000,
    pictures: false,
    description: "whole endpoints, smallest first, within Cloudflare Pages' 20,000 files (free plan); the worker computes the rest",
  },
  full: {
    prerender: { full: true },
    encodings: ["gzip"],
    pictures: true,
    description: "every maqām and jins rendering, also with includeArabic (about 4 GB), for hosts without a size limit",
  },
};

/** The profile a name selects; an unknown name is an error that lists the known ones. */
export function profileNamed(name: string | undefined): HostProfile {
  const chosen = name ?? "github-pages";
  if ((HOST_PROFILES as readonly string[]).includes(chosen)) return chosen as HostProfile;
  throw new Error(`unknown host profile '${chosen}': use one of ${HOST_PROFILES.join(", ")}`);
}

/**
 * The planned requests that fit `maxApiFiles`: whole endpoints, those with the fewest requests
 * first, so most endpoints are entirely static; the first that does not fit is cut in its own
 * order (by tuning system × starting note, as the groups list them), and larger ones are left out.
 */
export function withinFileBudget<T extends { route: string }>(planned: readonly T[], maxApiFiles: number): T[] {
  const byRoute = new Map<string, T[]>();
  for (const p of planned) byRoute.set(p.route, [...(byRoute.get(p.route) ?? []), p]);
  const kept: T[] = [];
  for (const group of [...byRoute.values()].sort((a, b) => a.length - b.length || (a[0].route < b[0].route ? -1 : 1))) {
    const room = maxApiFiles - kept.length;
    if (room <= 0) break;
    kept.push(...group.slice(0, room));
  }
  const keep = new Set(kept);
  return planned.filter((p) => keep.has(p));
}
