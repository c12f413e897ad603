/**
 * The kernel's page reclaim around a build (Linux): once the page cache, the inodes and the
 * folders of the files a build writes fill the machine's memory, every new page is taken from
 * them, by kswapd on a core of its own or by the writing thread itself (direct reclaim, counted in
 * the build's system time). A tree that fits in memory pays none of it and one twice its size
 * does, so a comparison of builds names it. Read from /proc; undefined where there is none.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Counters of the kernel's reclaim, since boot or over a span. */
export interface Reclaim {
  /** Pages scanned by kswapd, in the background. */
  scannedByKswapd: number;
  /** Pages scanned by threads that could not allocate until they freed some (direct reclaim). */
  scannedDirect: number;
  /** Allocations that stalled for direct reclaim. */
  stalls: number;
  /** CPU seconds of the kswapd threads. */
  kswapdSeconds: number;
}

/** The reclaim counters of a /proc/vmstat text, kswapd's seconds left at 0. */
export function reclaimOfVmstat(text: string): Reclaim {
  const counters = new Map(
    text
      .split("\n")
      .map((line) => line.split(" "))
      .filter((parts) => parts.length === 2)
      .map(([name, value]) => [name, Number(value)] as const),
  );
  const sum = (test: (name: string) => boolean) => [...counters].filter(([name]) => test(name)).reduce((n, [, v]) => n + v, 0);
  return {
    scannedByKswapd: counters.get("pgscan_kswapd") ?? 0,
    scannedDirect: counters.get("pgscan_direct") ?? 0,
    stalls: sum((name) => name.startsWith("allocstall_")),
    kswapdSeconds: 0,
  };
}

/** USER_HZ, the unit of /proc/<pid>/stat times: 100 on every architecture Linux runs Node on. */
const TICKS_PER_SECOND = 100;

/** User and system seconds of a /proc/<pid>/stat line (fields 14 and 15, after the parenthesised name). */
export function cpuSecondsOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields counted from the state, the third: utime is the 14th, stime the 15th.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

const readOrEmpty = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** The machine's reclaim counters now; undefined without /proc/vmstat. */
export function reclaimNow(): Reclaim | undefined {
  const vmstat = readOrEmpty("/proc/vmstat");
  if (!vmstat) return undefined;
  const kswapd = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && readOrEmpty(`/proc/${entry}/comm`).startsWith("kswapd"))
    .map((pid) => readOrEmpty(`/proc/${pid}/stat`))
    .filter((stat) => stat !== "");
  return { ...reclaimOfVmstat(vmstat), kswapdSeconds: kswapd.reduce((s, stat) => s + cpuSecondsOfStat(stat), 0) };
}

/** The reclaim between two readings. */
export const reclaimBetween = (before: Reclaim, after: Reclaim): Reclaim => ({
  scannedByKswapd: after.scannedByKswapd - before.scannedByKswapd,
  scannedDirect: after.scannedDirect - before.scannedDirect,
  stalls: after.stalls - before.stalls,
  kswapdSeconds: after.kswapdSeconds - before.kswapdSeconds,
});

/** Reclaim as the benches' tables print it: pages scanned (in millions) and kswapd's seconds, or "none". */
export function reclaimText(reclaim: Reclaim | undefined): string {
  if (!reclaim) return "–";
  const scanned = reclaim.scannedByKswapd + reclaim.scannedDirect;
  if (scanned === 0 && reclaim.stalls === 0) return "none";
  const millions = (n: number) => `${(n / 1e6).toFixed(1)} M`;
  return `${millions(scanned)} pages scanned (${millions(reclaim.scannedDirect)} direct, ${reclaim.stalls} stalls), kswapd ${reclaim.kswapdSeconds.toFixed(1)} s`;
}
