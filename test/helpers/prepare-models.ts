/**
 * Vitest global setup: generates the cached test models the suite loads before any test worker starts.
 *
 * Why: generating a family model is one long synchronous computation (72 s for qwen2.5 under a load average
 * of 25 on this 2-core machine). Inside a test worker it blocks the worker's event loop past vitest's 60 s
 * RPC timeout (see worker-rpc.ts), and two workers that need the same model both generate it. Here each
 * missing model is generated once, in its own child process (two at a time), so neither vitest's main
 * process nor a worker is blocked; later runs find every file cached and start at once.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { llamaSourceDir } from "../../src/node/test-model/llama-source";
import { familyModelFile, testModelFile } from "../../src/node/test-model/model-cache";
import { DEFAULT_TEST_SEED, DEFAULT_TEST_VOCAB } from "../../src/node/test-model/test-model";
import { testedFamilies } from "./families";

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, "generate-model.ts");

/** The models the suite asks for: the default test model, the large-vocabulary one, the tested families. */
function wanted(): Array<{ path: string; args: string[] }> {
  return [
    { path: testModelFile(), args: ["test", String(DEFAULT_TEST_VOCAB), String(DEFAULT_TEST_SEED)] },
    { path: testModelFile({ vocab: 32000, seed: 2 }), args: ["test", "32000", "2"] },
    ...testedFamilies().map((family) => ({ path: familyModelFile(family), args: ["family", family] })),
  ];
}

function generate(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`Generating the test model "${args.join(" ")}" failed (exit ${code}).`))));
  });
}

export default async function setup(): Promise<void> {
  const missing = wanted().filter((m) => !existsSync(m.path));
  if (missing.length === 0) return;
  process.stderr.write(`Generating ${missing.length} test model(s) once for this machine: ${missing.map((m) => m.args.slice(1).join(" ")).join(", ")}\n`);
  // The family models read llama.cpp's source: clone it once here rather than race in each child.
  if (missing.some((m) => m.args[0] === "family")) llamaSourceDir();
  const queue = [...missing];
  const lanes = Math.max(1, Math.min(2, availableParallelism()));
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await generate(next.args);
    }),
  );
}
