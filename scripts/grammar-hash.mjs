/**
 * `npx tsx scripts/grammar-hash.mjs [DIR]`: a sha256 of the GBNF of every schema in the JSONSchemaBench
 * sample (default ../shared/benchmarks/jsonschemabench), files in name order and records in file order,
 * each grammar followed by a newline (a refused schema by "REFUSED <message>"). Equal hashes before and
 * after a refactor mean the compiler's output is byte-for-byte unchanged. Run with tsx: it imports the
 * compiler's TypeScript sources.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { compileSchema } from "../src/core/grammar/index.ts";

const dir = process.argv[2] ?? join("..", "shared", "benchmarks", "jsonschemabench");
const hash = createHash("sha256");
let schemas = 0;
let refused = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()) {
  for (const line of readFileSync(join(dir, file), "utf8").split("\n").filter((l) => l.trim() !== "")) {
    const result = compileSchema(JSON.parse(line).schema);
    schemas++;
    if (result.ok) hash.update(result.grammar.gbnf + "\n");
    else {
      refused++;
      hash.update(`REFUSED ${result.refusal.message}\n`);
    }
  }
}
process.stdout.write(`${hash.digest("hex")}  ${schemas} schemas, ${refused} refused\n`);
