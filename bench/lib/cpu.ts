import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

// How busy the rest of the machine was during a measured run: machine-wide busy CPU time minus the
// time used by this process (the load generator) and by the benchmark's server process groups.
// Linux only (/proc); elsewhere the figure is NaN. The benchmark shares 2 cores with whatever else
// runs, so this is what tells a real regression from a noisy neighbour.

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every mainstream Linux

function machineBusyMs(): number {
  return os.cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
}

function groupCpuMs(pgids: number[]): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from `state` on
      if (pgids.includes(Number(fields[2]))) ticks += Number(fields[11]) + Number(fields[12]); // utime + stime
    } catch {
      // the process ended while we looked
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export type CpuSnapshot = { at: number; machine: number; ours: number };

export function cpuSnapshot(pgids: number[]): CpuSnapshot {
  if (process.platform !== "linux") return { at: Date.now(), machine: Number.NaN, ours: Number.NaN };
  return { at: Date.now(), machine: machineBusyMs(), ours: selfCpuMs() + groupCpuMs(pgids) };
}

export type OtherCpu = { otherMs: number; capacityMs: number };

/** CPU time other processes used between two snapshots, and the machine's capacity over that time. */
export function otherCpu(before: CpuSnapshot, after: CpuSnapshot): OtherCpu {
  return {
    otherMs: after.machine - before.machine - (after.ours - before.ours),
    capacityMs: (after.at - before.at) * os.cpus().length,
  };
}
