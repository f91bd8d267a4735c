/**
 * The loop both evals share (the tool-use suite and BFCL): for each configuration, every case as one timed turn
 * from a fresh engine record, a count of the cases each judged criterion held for, a progress line every 25 cases,
 * and the configuration's metrics logged as one JSON line.
 */
import type { RecordingEngine } from "./recording-engine";

/** Times turns through a recording engine: total wall time and replies generated (recovery adds some). */
export class TurnClock {
  totalMs = 0;
  generations = 0;
  constructor(private readonly engine: RecordingEngine) {}

  async time(turn: () => Promise<unknown>): Promise<void> {
    this.engine.clear();
    const started = performance.now();
    await turn();
    this.totalMs += performance.now() - started;
    this.generations += this.engine.texts.length;
  }

  meanMs(turns: number): number {
    return Math.round(this.totalMs / Math.max(1, turns));
  }
}

/** What one configuration's run needs: how to run and judge a case, and how its counts become metrics. */
export interface ConfigRun<Case, Key extends string, Metrics> {
  /** Runs `item` as one turn timed by `clock` and says which criteria held. */
  judge: (item: Case, clock: TurnClock) => Promise<Record<Key, boolean>>;
  /** The configuration's metrics from the counts over `n` cases. */
  metrics: (counts: Record<Key, number>, n: number, clock: TurnClock) => Metrics;
}

export async function measureConfigs<Config extends { name: string }, Case, Key extends string, Metrics>(options: {
  engine: RecordingEngine;
  configs: Config[];
  cases: Case[];
  /** The criteria counted (each judged case says whether each held). */
  criteria: readonly Key[];
  /** Prepares a configuration (its agent, router, grammars). */
  prepare: (config: Config) => Promise<ConfigRun<Case, Key, Metrics>>;
  log?: (line: string) => void;
}): Promise<Metrics[]> {
  const out: Metrics[] = [];
  for (const config of options.configs) {
    const run = await options.prepare(config);
    const counts = Object.fromEntries(options.criteria.map((k) => [k, 0])) as Record<Key, number>;
    const clock = new TurnClock(options.engine);
    for (const [i, item] of options.cases.entries()) {
      const held = await run.judge(item, clock);
      for (const key of options.criteria) if (held[key]) counts[key]++;
      if ((i + 1) % 25 === 0) options.log?.(`${config.name}: ${i + 1}/${options.cases.length}`);
    }
    const metrics = run.metrics(counts, options.cases.length, clock);
    options.log?.(JSON.stringify(metrics));
    out.push(metrics);
  }
  return out;
}
