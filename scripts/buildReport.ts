/**
 * What a build reports when it ends (scripts/build.ts run from the command line): its figures, the
 * slowest routes, the groups taken over, the phases by step, the tree as its host counts it, what
 * the host's limits left out, and any budget passed.
 */
import { cacheOf } from "./buildCache.js";
import { HEADROOM } from "./budget.js";
import type { FinishSteps } from "./finishBuild.js";
import { kb, mb, type Manifest } from "./manifest.js";
import { PLAN_STEP_NAMES, type PlanSteps } from "./planApart.js";
import type { ListingCounts } from "./planListing.js";
import type { TreeSize } from "./treeSize.js";

export interface RouteTimes {
  requests: number;
  computeSeconds: number;
  writeSeconds: number;
}

/** Worker time per route (not in the manifest: timings differ between builds). */
export type TimesByRoute = Record<string, RouteTimes>;

/** Adds requests and their worker seconds to their route's. */
function addTimes(times: TimesByRoute, route: string, more: RouteTimes): void {
  times[route] ??= { requests: 0, computeSeconds: 0, writeSeconds: 0 };
  const t = times[route];
  t.requests += more.requests;
  t.computeSeconds += more.computeSeconds;
  t.writeSeconds += more.writeSeconds;
}

/** Adds one request's worker time to its route's. */
export const addTime = (times: TimesByRoute, route: string, computeMs: number, writeMs: number): void =>
  addTimes(times, route, { requests: 1, computeSeconds: computeMs / 1000, writeSeconds: writeMs / 1000 });

/** The worker times of several renderings (the slices of a sharded build) together. */
export function timesTogether(parts: readonly TimesByRoute[]): TimesByRoute {
  const sum: TimesByRoute = {};
  for (const part of parts) for (const [route, t] of Object.entries(part)) addTimes(sum, route, t);
  return sum;
}

export interface Built {
  manifest: Manifest;
  /** The tree as its host counts it. */
  published: TreeSize;
  /**
   * Groups of the plan (tuning system × starting note, or an entity's or list's path) rendered, and
   * taken over unchanged from an earlier build: `inPlace` of them already in the spare tree the
   * build started from, the others linked from the previous build.
   */
  groups?: { rendered: number; kept: number; inPlace: number };
  /**
   * Seconds of the datasets (with reading the facts) until the planning starts, of the plan (with
   * the hashes and the files taken over), of the rendering, and of the finishing (by step); and,
   * when the datasets' files and database were written beside the planning, the seconds they took
   * after it started and those the planning then waited for them (and, when the CSV and Parquet
   * files were written on the main thread, the seconds they took there, within the planning's); whether the plan was made on a
   * thread of its own (most tuning systems listed by the planning) or on the main thread (few: the others offered or read back).
   */
  phases?: {
    datasets: number;
    besidePlan?: BesidePlan;
    plan: number;
    planApart?: boolean;
    render: number;
    finish: number;
    planSteps?: PlanSteps;
    /** The planning's parts by where they came from: listed by the datasets' threads, read back, listed by the planning. */
    planParts?: ListingCounts;
    steps: FinishSteps;
  };
  seconds: number;
  workers: number;
  recycled: number;
  gcSeconds: number;
  times: TimesByRoute;
}

/** Where the planning's parts came from, as the build prints it. */
const partsText = (parts: ListingCounts | undefined) =>
  parts ? `, of its parts ${parts.offered} listed by the datasets' threads, ${parts.read} read back, ${parts.listed} listed by the planning` : "";

/** The steps of a phase as the build prints them, and the benches after it: "plan 11.8 s, group hashes 2.1 s, …". */
export function stepsText(steps: PlanSteps | FinishSteps): string {
  const names: Readonly<Record<string, string>> = PLAN_STEP_NAMES;
  return Object.entries(steps)
    .map(([name, t]) => `${names[name] ?? name} ${t.toFixed(1)} s`)
    .join(", ");
}

export type BesidePlan = { seconds: number; waited: number; filesHere?: number };

/** What of the datasets ran beside the planning, as the build prints it and the benches after it: " (then their files and database …)". */
export const besideText = (besidePlan: BesidePlan | undefined): string =>
  besidePlan
    ? ` (then their files and database ${besidePlan.seconds.toFixed(1)} s beside the planning, which waited ${besidePlan.waited.toFixed(1)} s for them${
        besidePlan.filesHere === undefined
          ? ""
          : `; the CSV and Parquet files ${besidePlan.filesHere.toFixed(1)} s of it on the main thread, within the planning's time`
      })`
    : "";

/** Prints what the build at `outDir` did, `maxRssBytes` its peak memory. */
export function reportBuilt(built: Built, outDir: string, maxRssBytes: number): void {
  const { manifest: m, seconds, workers, recycled, gcSeconds, times, phases } = built;
  const gz = m.precompressed.gzip;
  const br = m.precompressed.br;
  console.log(
    [
      `build: ${m.files} files, ${mb(m.bytes)}`,
      gz ? ` (+ ${gz.files} .gz, ${mb(gz.bytes)})` : "",
      br ? ` (+ ${br.files} .br, ${mb(br.bytes)})` : "",
      `, largest ${kb(m.largest.bytes)} (${m.largest.file}), median ${kb(m.medianBytes)}`,
      m.skipped.count ? `, ${m.skipped.count} non-200 requests not written (see manifest.json)` : "",
      `; ${seconds.toFixed(1)} s on ${workers} workers, peak memory ${mb(maxRssBytes)} → ${outDir}`,
    ].join(""),
  );
  const slowest = Object.entries(times)
    .sort(([, a], [, b]) => b.computeSeconds + b.writeSeconds - (a.computeSeconds + a.writeSeconds))
    .slice(0, 4)
    .map(([name, t]) => `${name} ${t.computeSeconds.toFixed(1)} s + ${t.writeSeconds.toFixed(1)} s writing (${t.requests})`);
  console.log(
    `build: worker time by route: ${slowest.join("; ")}; garbage collection ${gcSeconds.toFixed(1)} s; caches dropped ${recycled} times by the workers`,
  );
  if (built.groups?.kept)
    console.log(
      `build: ${built.groups.kept} of ${built.groups.kept + built.groups.rendered} groups unchanged since the last build, taken over from it; ${built.groups.rendered} rendered; ${built.groups.inPlace} of those taken over already in place in the spare tree it started from, the others linked (${cacheOf(outDir)} holds what the next build compares with)`,
    );
  if (phases) {
    const { datasets, besidePlan, plan, planApart, render, finish, planSteps, planParts, steps } = phases;
    const inBrackets = (of: PlanSteps | FinishSteps | undefined) => (of ? ` (${stepsText(of)})` : "");
    console.log(
      `build: datasets ${datasets.toFixed(1)} s${besideText(besidePlan)}, planning ${plan.toFixed(1)} s${planApart === undefined ? "" : planApart ? " on a thread of its own" : " on the main thread"}${inBrackets(planSteps)}${partsText(planParts)}, rendering ${render.toFixed(1)} s, finishing ${finish.toFixed(1)} s${inBrackets(steps)}`,
    );
  }
  // What the host publishes: every file of the output, site and pictures included, as the host counts it.
  const { published } = built;
  const { limits, leftOut, notRendered } = m.published;
  const shown = [
    limits.tarBytes && `tar ≤ ${mb(limits.tarBytes)}`,
    limits.files && `≤ ${limits.files} files`,
    limits.fileBytes && `files ≤ ${mb(limits.fileBytes)}`,
  ].filter(Boolean);
  console.log(
    `build: ${outDir} holds ${published.files} files, ${mb(published.bytes)}, a tar of ${mb(published.tarBytes)}` +
      (shown.length ? ` (profile ${m.profile}: ${shown.join(", ")}, less ${HEADROOM * 100} % headroom)` : ""),
  );
  if (leftOut.files) {
    const classes = Object.entries(leftOut.byClass).map(([c, t]) => `${c} ${t.files} files, ${mb(t.bytes)}`);
    console.log(
      `build: left out to fit the host, computed on request instead: ${leftOut.files} files, ${mb(leftOut.bytes)} (${classes.join("; ")}); see manifest.json`,
    );
  }
  if (notRendered.requests || notRendered.pictures) {
    const classes = Object.entries(notRendered.byClass).map(([c, n]) => `${c} ${n}`);
    console.log(
      `build: not rendered, as the host's limits were reached before them: ${notRendered.requests} answers (${classes.join(", ")}) and ${notRendered.pictures} pictures, computed on request instead`,
    );
  }
  const budget: [boolean, string][] = [
    [seconds > 180, `took ${seconds.toFixed(0)} s (budget 180 s)`],
    [maxRssBytes > 2e9, `peak memory ${mb(maxRssBytes)} (budget 2 GB)`],
  ];
  for (const [over, what] of budget) if (over) console.log(`build: OVER BUDGET: ${what}`);
}
