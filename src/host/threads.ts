/**
 * How many CPU threads to run a model with. Never node-llama-cpp's default: on these machines it made
 * a tiny model ~300x slower (thread hand-off costs more than a tiny matrix product). Per-token work
 * grows with the model's size, so small models get few threads and large ones all cores.
 */

/** Models below this size run fastest on one thread (per-token work is microseconds). */
const SINGLE_THREAD_BELOW_BYTES = 256 * 1024 * 1024;
/** Models below this size gain little past two threads. */
const TWO_THREADS_BELOW_BYTES = 1024 * 1024 * 1024;

/** Threads for a model of `modelBytes` on a machine with `cores` logical cores (≥ 1, ≤ cores). */
export function chooseThreads(modelBytes: number, cores: number): number {
  const available = Math.max(1, Math.floor(cores));
  if (modelBytes < SINGLE_THREAD_BELOW_BYTES) return 1;
  if (modelBytes < TWO_THREADS_BELOW_BYTES) return Math.min(2, available);
  // Leave one core to the app's UI on machines that have cores to spare.
  return available > 4 ? available - 1 : available;
}
