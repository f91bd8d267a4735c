// Rewrites test/durations.json (seconds per test file, the slow ones) from a vitest JSON report, for the sequencer in
// test/helpers/sequencer.ts: `npx vitest run --reporter=json --outputFile=/tmp/report.json`, then
// `node scripts/test-durations.mjs /tmp/report.json`.
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

const report = process.argv[2];
if (!report) {
  console.error("Give the vitest JSON report: node scripts/test-durations.mjs REPORT.json");
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(report, "utf8"));
const rows = testResults
  .map((r) => [relative(process.cwd(), r.name), Math.round((r.endTime - r.startTime) / 100) / 10])
  .filter(([, s]) => s >= 2)
  .sort((a, b) => b[1] - a[1]);
writeFileSync("test/durations.json", JSON.stringify(Object.fromEntries(rows), null, 1) + "\n");
console.log(`test/durations.json: ${rows.length} files of 2 s or more`);
