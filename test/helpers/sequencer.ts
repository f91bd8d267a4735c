/**
 * Test files in the order that finishes soonest on a 2-core machine: the longest first, so the two workers never end
 * on one long file while the other idles. Vitest orders by the durations it cached on this machine; a fresh clone
 * has none and would order by file size, so files it has no duration for take theirs from test/durations.json (seconds
 * per file from one full run, refreshed with `node scripts/test-durations.mjs REPORT.json`).
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const KNOWN: Record<string, number> = JSON.parse(readFileSync(new URL("../durations.json", import.meta.url), "utf8")) as Record<string, number>;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const key = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${key}`);
      return cached ? cached.duration / 1000 : (KNOWN[key] ?? 0);
    };
    const sizes = await super.sort(files);
    const rank = new Map(sizes.map((spec, i) => [spec, i]));
    return [...files].sort((a, b) => seconds(b) - seconds(a) || rank.get(a)! - rank.get(b)!);
  }
}
