/**
 * What `bench index` measures with: the longest block of this process's event loop (the stand-in for Obsidian's
 * main thread), CPU time of this process and of the engine host, this process's memory peaks, and percentiles.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * CPU milliseconds of this process's main thread (the event loop's), from Linux's per-thread schedstat (nanoseconds);
 * elsewhere the whole process's CPU time, which also counts the collector's helper threads.
 */
export function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    const cpu = process.cpuUsage();
    return (cpu.user + cpu.system) / 1000;
  }
}

/** The longest block of one phase: `max` wall, `cpuMax` the same capped by the main thread's CPU use. */
export interface Block {
  max: number;
  cpuMax: number;
}

/**
 * Longest gap between 10 ms ticks, minus the 10 ms: how long the event loop was blocked. On a shared
 * machine a gap can also be the OS running other processes, so each gap is also capped by the CPU time
 * the main thread used in it (`cpuMax`): a gap with little CPU of ours was not our code blocking.
 */
export function blockMeter(): { stop(): Block } {
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  let max = 0;
  let cpuMax = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    const gap = now - last - 10;
    max = Math.max(max, gap);
    cpuMax = Math.max(cpuMax, Math.min(gap, cpu - lastCpu - 10));
    last = now;
    lastCpu = cpu;
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return { max: Math.max(0, Math.round(max)), cpuMax: Math.max(0, Math.round(cpuMax)) };
    },
  };
}

/**
 * Peaks of this process's memory, sampled every 25 ms: `heapMb` the main thread's V8 heap in use (what Obsidian's
 * renderer would hold of ours: the search worker's heap is its own), `rssMb` the whole process (every thread, the
 * worker's included, and the engine host's not).
 */
export function memoryPeaks(): { stop(): { heapMb: number; rssMb: number } } {
  let heap = 0;
  let rss = 0;
  const sample = () => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  };
  sample();
  const timer = setInterval(sample, 25);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { heapMb: Math.round(heap / 1e6), rssMb: Math.round(rss / 1e6) };
    },
  };
}

/**
 * This thread's V8 heap after a full collection, in MB: what it keeps, where a peak also counts garbage not yet
 * collected. The collector is reached by turning on `--expose-gc` for a fresh context (Node has no other way in).
 */
export function liveHeapMb(): number {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
}

/**
 * CPU milliseconds used so far by this process (all its threads, the search worker's included) and the engine host
 * (from /proc, on Linux; elsewhere only ours). On a shared machine wall time mostly measures the other processes; CPU
 * time is what the same work costs on an idle one.
 */
export function cpuMs(hostPid: number | undefined): number {
  const own = process.cpuUsage();
  let host = 0;
  if (hostPid !== undefined) {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): user and system time in clock ticks.
      const fields = readFileSync(`/proc/${hostPid}/stat`, "utf8").split(") ")[1].split(" ");
      host = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      host = 0;
    }
  }
  return (own.user + own.system) / 1000 + host;
}

/** Wall and CPU milliseconds of one step, and the longest main-thread block during it. */
export async function timed<T>(hostPid: number | undefined, step: () => Promise<T>): Promise<{ ms: number; cpuMs: number; block: Block; value: T }> {
  const meter = blockMeter();
  const c0 = cpuMs(hostPid);
  const t0 = performance.now();
  const value = await step();
  return { ms: performance.now() - t0, cpuMs: cpuMs(hostPid) - c0, block: meter.stop(), value };
}

export function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return total;
}

/** A deterministic bag-of-words vector: stands in for a model when only the indexing overhead is measured. */
export function hashVector(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % dim] += 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

export function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] * 10) / 10;
}
