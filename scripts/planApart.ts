/** The planning of a build on a thread of its own (scripts/planThread.ts): what it is given and gives back. */
import { Worker } from "node:worker_threads";
import type { HostLimits } from "./budget.js";
import type { HostProfile } from "./profiles.js";
import type { Shard } from "./slicePlan.js";
import type { RenderKey } from "./sliceHash.js";
import { threadEntry } from "./threadBundle.js";
import { type PlanMade, type PlanSent, planReceived } from "./planColumns.js";
import type { OfferedParts } from "./planListing.js";

export interface PlanTask {
  /** Directory of the fact files (named even when it is data/: the thread runs from a bundle elsewhere). */
  dataDir: string;
  /** The requests to plan instead of the profile's (SliceOptions.requests). */
  requests?: string[];
  profile: HostProfile;
  limits: HostLimits;
  shard: Shard;
  key: RenderKey;
  engine: string;
  /** The text of the listing's scripts (planListing.ts's listingCode), read on the main thread for the same reason. */
  listingCode: string[];
  /** The previous build's cache, whose listing is read back where unchanged. */
  previousCache?: string;
  /** The cache this build writes, where the listing is kept. */
  cache: string;
  /** Parts listed by the datasets' threads for this build's facts (scripts/planListing.ts listTuningSystem), by tuning system id. */
  offered?: ReadonlyMap<string, OfferedParts>;
}

/** Seconds of the planning by step: the plan listed (files, routes, batches), the groups hashed, the listing kept, the unchanged groups' files taken over. */
export type PlanSteps = {
  plan: number;
  hashes: number;
  listing: number;
  kept: number;
};

/** The steps as the build's output names them. */
export const PLAN_STEP_NAMES: Record<keyof PlanSteps, string> = { plan: "plan", hashes: "group hashes", listing: "listing kept", kept: "unchanged taken over" };

/** Plans on a thread of its own; rejects with the thread's error if the planning fails. */
export function planApart(task: PlanTask): Promise<PlanMade> {
  const thread = new Worker(threadEntry("scripts/planThread.ts"), { workerData: task, execArgv: [] });
  return new Promise((done, fail) => {
    thread.once("message", (sent: PlanSent) => {
      done(planReceived(sent));
      void thread.terminate();
    });
    thread.once("error", fail);
    thread.once("exit", (code) => fail(new Error(`the planning thread ended (exit code ${code}) without a plan`)));
  });
}
