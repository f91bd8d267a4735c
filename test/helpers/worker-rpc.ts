/**
 * Vitest setup file (runs in every test worker): a late acknowledgement of a task update no longer fails a
 * green run.
 *
 * Why: vitest 3.2.7's worker reports progress to the main process with birpc calls that time out after
 * birpc's fixed DEFAULT_TIMEOUT of 60 s (`createRuntimeRpc` in vitest/dist/chunks/rpc.*.js passes no
 * `timeout`, and no config or pool option reaches it; vitest-dev/vitest#6479, #8164). When a test keeps the
 * worker's event loop busy for longer than that (a model generated or a large grammar compiled on a loaded
 * 2-core machine), Node runs the timers phase, where the expired timeout fires, before the poll phase that
 * would read the reply that has long arrived — so the run reports `Timeout calling "onTaskUpdate"` and
 * exits 1 with every test passed. The update itself was sent before the block (process.send), and the
 * reply carries nothing (the main process acknowledges), so this wrapper drops exactly that timeout and
 * says so on the console; every other RPC and every other error keep vitest's behaviour.
 * Reproduce: `VAULT_AGENT_BLOCK_REPRO=1 npx vitest run test/unit/harness/blocked-worker.test.ts`.
 */
type RpcCall = ((...args: unknown[]) => Promise<unknown>) & { asEvent?: unknown };
interface WorkerState {
  rpc: Record<string | symbol, unknown>;
}

/** The wrappers made here (a birpc proxy answers every property name, so a marker property cannot tell). */
const patched = new WeakSet<object>();
const TIMEOUT = 'Timeout calling "onTaskUpdate"';

/** Wraps the worker's RPC so that a timed-out onTaskUpdate acknowledgement resolves instead of rejecting. */
export function patientTaskUpdates(state: WorkerState): void {
  if (patched.has(state.rpc)) return;
  const wrapper = new Proxy(state.rpc, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop !== "onTaskUpdate" || typeof value !== "function") return value;
      const send = value as RpcCall;
      const patient: RpcCall = (...args) =>
        send(...args).catch((err: unknown) => {
          if (!(err instanceof Error) || !err.message.includes(TIMEOUT)) throw err;
          console.warn(`vitest: the worker's event loop was blocked for over 60 s, so the main process's acknowledgement of a task update was read late; the update itself was delivered (see test/helpers/worker-rpc.ts).`);
        });
      patient.asEvent = send.asEvent;
      return patient;
    },
  });
  patched.add(wrapper);
  state.rpc = wrapper;
}

const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
// Written against vitest 3.2.7's worker state (package.json pins it): a vitest upgrade must look at this file again.
if (!state?.rpc) throw new Error("test/helpers/worker-rpc.ts found no vitest worker state (__vitest_worker__.rpc); review it for this vitest version.");
patientTaskUpdates(state);
