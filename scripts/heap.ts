/** V8 in the build's threads: how far a heap may grow, how much TurboFan inlines, and a collection on demand. */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * V8 lets a heap grow to up to four times what survives a collection while it allocates fast, as
 * the planning and the rendering do: a planning that keeps 170 MB peaked at 860 MB. A growth of
 * half what survives bounds every thread's heap by its live data (the planning then peaks at 350
 * MB, for about a tenth more collection time) and, unlike a fixed heap size, grows with the archive.
 * The flag is the process's: set once, it holds for the main thread and every worker.
 */
export const HEAP_GROWING_PERCENT = 50;
export const boundHeapGrowth = () => setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

/**
 * V8's own growth again (0: the factor it works out from the collector's and the program's speeds),
 * for the heaps of a build after a change of few tuning systems: its main thread, whose work sets
 * the build's time then, spent a fifth of it collecting under the bound, and its peak (the
 * database's thread beside a plan read back) stays within the 1 GB a clean build is held to, some
 * 20 MB higher (docs/benchmarks.md). Read by V8 at each collection: it holds from then on for every thread.
 */
export const growHeapFreely = () => setFlagsFromString("--heap-growing-percent=0");

/**
 * The bytecode TurboFan inlines into one function, at most (V8's default: 920 bytes). Each thread
 * of a build (the datasets' pool, the planning, the render workers) compiles the same code afresh
 * in an isolate of its own, and the compiler took some 14 of a clean build's 140 s of CPU (perf, by
 * V8's symbols); inlining less makes each compilation cheaper, without slower code (builds in
 * turn, docs/benchmarks.md). Only how V8 compiles: the same bytes. The process's flag, as above.
 */
export const INLINED_BYTECODE_BYTES = 300;
export const inlineLess = () => setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_BYTES}`);

/**
 * A full garbage collection, now: where a phase has just let go of a lot (an incremental build's
 * parsed states, some 90 MB each) and the render workers are about to start, what the collector
 * would otherwise reclaim later adds to the build's peak.
 */
export function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}
