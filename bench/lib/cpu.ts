import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

// How busy the rest of the machine was during a measured run: machine-wide busy CPU time minus the
// time used by this process (the load generator), by the benchmark's server process groups and by every
// other descendant of this process — the embedded PostgreSQL (postmaster and backends) among them, whose
// work is part of what /v1/customers and /v1/simulations cost. A server named by DATABASE_URL is not our
// descendant: its CPU time counts as "other".
// A process of ours that ends between two snapshots takes its CPU time out of the sum (a pool's idle PostgreSQL
// backend, closed after its idle timeout while the slices that query nothing run, took seconds of seeding CPU with it,
// and the run reported up to 181% "other" CPU while the static route was measured): so each process counts its reaped
// children's time too (cutime + cstime, what its parent collects when it waits for them), and this process its own.
// Linux only (/proc); elsewhere the figure is NaN. The benchmark shares 2 cores with whatever else
// runs, so this is what tells a real regression from a noisy neighbour.

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every mainstream Linux

function machineBusyMs(): number {
  return os.cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
}

/** CPU time of the processes in `pgids` and of this process's descendants (this process excluded). */
function ownChildrenCpuMs(pgids: number[]): number {
  const procs = new Map<number, { ppid: number; pgrp: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from `state` on
      procs.set(Number(entry), { ppid: Number(fields[1]), pgrp: Number(fields[2]), ticks: ownAndReapedTicks(fields) });
    } catch {
      // the process ended while we looked
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = procs.get(pid)?.ppid, hops = 0; p !== undefined && p > 1 && hops < 64; p = procs.get(p)?.ppid, hops++) {
      if (p === process.pid) return true;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (pid !== process.pid && (pgids.includes(p.pgrp) || descends(pid))) ticks += p.ticks;
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** utime + stime + cutime + cstime, from /proc/<pid>/stat's fields after the command name (`state` first). */
function ownAndReapedTicks(fields: string[]): number {
  return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
}

/** This process's own CPU and that of its children it has reaped (a finished `npm start`, the seed's child). */
function selfCpuMs(): number {
  const u = process.cpuUsage();
  let reaped = 0;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    reaped = ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
  } catch {
    // not Linux
  }
  return (u.user + u.system) / 1000 + reaped;
}

export type CpuSnapshot = { at: number; machine: number; ours: number };

export function cpuSnapshot(pgids: number[]): CpuSnapshot {
  if (process.platform !== "linux") return { at: Date.now(), machine: Number.NaN, ours: Number.NaN };
  return { at: Date.now(), machine: machineBusyMs(), ours: selfCpuMs() + ownChildrenCpuMs(pgids) };
}

export type OtherCpu = { otherMs: number; capacityMs: number };

/** CPU time other processes used between two snapshots, and the machine's capacity over that time. */
export function otherCpu(before: CpuSnapshot, after: CpuSnapshot): OtherCpu {
  return {
    otherMs: after.machine - before.machine - (after.ours - before.ours),
    capacityMs: (after.at - before.at) * os.cpus().length,
  };
}
