/** Lets timers and I/O run between slices of long work, so indexing never freezes the UI. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

