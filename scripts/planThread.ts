/**
 * The planning of a build (scripts/planMake.ts) on a thread of its own (scripts/planApart.ts starts
 * it), when most tuning systems are listed afresh (a clean build). Such a planning computes much and
 * keeps little: the 12-tone sets of every tuning system × starting note, the availability of every
 * entity. On the main thread its garbage, interleaved with the plan it keeps, held the heap at
 * about 400 MB through the rendering; a thread's heap is returned whole when it ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { PlanTask } from "./planApart.js";
import { planToSend } from "./planColumns.js";
import { makePlan } from "./planMake.js";

const { planned, batches, hashes, seeds, steps, parts } = makePlan(workerData as PlanTask);
const sent = planToSend(planned, batches, hashes, seeds, steps, parts);
const shapes = seeds.flatMap(([, shape]) => [shape.sets, shape.incompatible]);
parentPort?.postMessage(
  sent,
  [...sent.batches, ...shapes].map((b) => b.buffer as ArrayBuffer),
);
