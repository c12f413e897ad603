/**
 * Host profiles: how much of the API a build pre-renders for the host it is meant for. The
 * worker (build/_worker.js) or a fallback computes everything else with the same bytes.
 */
import type { PrerenderOptions } from "./prerender/index.js";
import type { Encoding } from "../src/serve/handler.js";
import type { HostLimits } from "./budget.js";

export const HOST_PROFILES = ["github-pages", "cloudflare", "full"] as const;
export type HostProfile = (typeof HOST_PROFILES)[number];

export interface Profile {
  prerender: PrerenderOptions;
  /** Precompressed siblings written by default (PRECOMPRESS overrides). */
  encodings: Encoding[];
  /** The host's limits on everything it publishes (the API, siblings, site, pictures, root files), as it counts them. */
  limits: HostLimits;
  /** Whether build/pictures/ holds an SVG of every pre-rendered realisation (the explorer draws them anyway). */
  pictures: boolean;
  description: string;
}

export const PROFILES: Record<HostProfile, Profile> = {
  "github-pages": {
    prerender: { full: false },
    // GitHub Pages compresses answers by itself and serves no siblings, which would count against its 1 GB.
    encodings: [],
    // Pages publishes a tar of the tree: its headers and padding count against the 1 GB, and a file
    // over 100 MB cannot be pushed to a repository.
    limits: { tarBytes: 1e9, fileBytes: 100e6 },
    pictures: true,
    description: "as much of the API, its exports and pictures as fits GitHub Pages' 1 GB (as its tar), most valuable first",
  },
  cloudflare: {
    prerender: { full: false },
    // Cloudflare compresses by itself, and every sibling would count against the file limit.
    encodings: [],
    limits: { files: 20_000, fileBytes: 25 * 2 ** 20 },
    pictures: false,
    description: "as much of the API as fits Cloudflare Pages' 20,000 files (free plan) and 25 MiB per file, most valuable first; the worker computes the rest",
  },
  full: {
    prerender: { full: true },
    encodings: ["gzip"],
    limits: {},
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
