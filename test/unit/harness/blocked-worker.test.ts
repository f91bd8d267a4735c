/**
 * The worker's patient task updates (test/helpers/worker-rpc.ts), and a reproduction of vitest 3's "Timeout calling onTaskUpdate" on demand: a test that keeps its worker's event loop
 * busy for longer than the worker's 60 s RPC timeout. Skipped unless VAULT_AGENT_BLOCK_REPRO is set
 * (it costs 70 s of one core): `VAULT_AGENT_BLOCK_REPRO=1 npx vitest run test/unit/harness/blocked-worker.test.ts`.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { patientTaskUpdates } from "../../helpers/worker-rpc";

const BLOCK_MS = Number(process.env.VAULT_AGENT_BLOCK_REPRO_MS) || 70_000;

describe("patient task updates", () => {
  const timeout = (name: string) => new Error(`[vitest-worker]: Timeout calling "${name}"`);
  const stateWith = (calls: Record<string, () => Promise<unknown>>) => ({ rpc: { ...calls } as Record<string | symbol, unknown> });

  it("resolves an onTaskUpdate whose acknowledgement timed out", async () => {
    const state = stateWith({ onTaskUpdate: () => Promise.reject(timeout("onTaskUpdate")) });
    patientTaskUpdates(state);
    await expect((state.rpc.onTaskUpdate as () => Promise<unknown>)()).resolves.toBeUndefined();
  });

  it("keeps every other failure, and every other call, as vitest made them", async () => {
    const state = stateWith({
      onTaskUpdate: () => Promise.reject(new Error("serialize failed")),
      fetch: () => Promise.reject(timeout("fetch")),
      resolveId: () => Promise.resolve("id"),
    });
    patientTaskUpdates(state);
    await expect((state.rpc.onTaskUpdate as () => Promise<unknown>)()).rejects.toThrow("serialize failed");
    await expect((state.rpc.fetch as () => Promise<unknown>)()).rejects.toThrow('Timeout calling "fetch"');
    await expect((state.rpc.resolveId as () => Promise<unknown>)()).resolves.toBe("id");
  });

  it("wraps once however often it is installed", () => {
    const state = stateWith({ onTaskUpdate: () => Promise.resolve() });
    patientTaskUpdates(state);
    const first = state.rpc;
    patientTaskUpdates(state);
    expect(state.rpc).toBe(first);
  });
});

describe.runIf(process.env.VAULT_AGENT_BLOCK_REPRO)("a test worker blocked past vitest's RPC timeout", () => {
  // Finishing this test sends the runner's update at once (over 100 ms since the last one) from an I/O
  // callback, so the next test blocks the loop while the reply is in flight, and after the block Node runs
  // the timers phase (the expired RPC timeout) before it polls for that reply.
  it("lets the runner's update go out", async () => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await readFile(fileURLToPath(import.meta.url), "utf8")).length).toBeGreaterThan(0);
  });

  it("passes, and the run exits 0", { timeout: BLOCK_MS + 60_000 }, () => {
    const until = Date.now() + BLOCK_MS;
    let spins = 0;
    while (Date.now() < until) spins++;
    expect(spins).toBeGreaterThan(0);
  });
});
