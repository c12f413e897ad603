import { describe, expect, it } from "vitest";
import { cpuSecondsOfStat, reclaimBetween, reclaimOfVmstat, reclaimText } from "../scripts/reclaim.js";

const VMSTAT = [
  "nr_free_pages 1049821",
  "pgscan_kswapd 830254",
  "pgscan_direct 240827",
  "pgsteal_direct 2947",
  "allocstall_dma 0",
  "allocstall_normal 14",
  "allocstall_movable 875",
  "",
].join("\n");

describe("the kernel's reclaim around a build", () => {
  it("reads the pages scanned and the stalls of /proc/vmstat", () => {
    expect(reclaimOfVmstat(VMSTAT)).toEqual({ scannedByKswapd: 830254, scannedDirect: 240827, stalls: 889, kswapdSeconds: 0 });
    expect(reclaimOfVmstat("")).toEqual({ scannedByKswapd: 0, scannedDirect: 0, stalls: 0, kswapdSeconds: 0 });
  });

  it("reads a thread's CPU seconds from its stat line, whatever its name holds", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    expect(cpuSecondsOfStat("48 (kswapd0) S 2 0 0 0 -1 2228288 0 0 0 0 1008042 700 0 0 20 0 1 0")).toBeCloseTo(10087.42, 6);
    expect(cpuSecondsOfStat("7 (a (b) c) R 1 0 0 0 -1 0 0 0 0 0 250 50 0 0")).toBe(3);
  });

  it("gives the reclaim over a span, and says none when nothing was scanned", () => {
    const before = { scannedByKswapd: 100, scannedDirect: 10, stalls: 1, kswapdSeconds: 5 };
    const span = reclaimBetween(before, { scannedByKswapd: 2_500_100, scannedDirect: 1_200_010, stalls: 41, kswapdSeconds: 17.5 });
    expect(span).toEqual({ scannedByKswapd: 2_500_000, scannedDirect: 1_200_000, stalls: 40, kswapdSeconds: 12.5 });
    expect(reclaimText(span)).toBe("3.7 M pages scanned (1.2 M direct, 40 stalls), kswapd 12.5 s");
    expect(reclaimText(reclaimBetween(before, before))).toBe("none");
    expect(reclaimText(undefined)).toBe("–");
  });
});
