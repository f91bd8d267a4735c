import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import LongestFirst from "./test/helpers/sequencer";

export default defineConfig({
  resolve: {
    // Obsidian's module only exists inside the app; tests get a small fake over a temp folder.
    alias: { obsidian: fileURLToPath(new URL("./test/fakes/obsidian.ts", import.meta.url)) },
  },
  test: {
    include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
    // Test models are generated before the workers start, in child processes: see the file.
    globalSetup: ["test/temp-root.ts", "test/helpers/prepare-models.ts"],
    // A worker blocked past vitest's fixed 60 s RPC timeout must not fail a green run: see the file.
    setupFiles: ["test/helpers/worker-rpc.ts"],
    // node-llama-cpp's native addon is safest in forked processes, not worker threads.
    pool: "forks",
    // Longest files first, also on a fresh clone with no cached durations: see the file.
    sequence: { sequencer: LongestFirst },
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
