/** Lets timers and I/O run between slices of long work, so indexing never freezes the UI. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Runs `work` over items, yielding whenever a slice has taken longer than `budgetMs`. */
export async function forEachSliced<T>(items: readonly T[], work: (item: T, index: number) => void, budgetMs = 8): Promise<void> {
  let sliceStart = Date.now();
  for (let i = 0; i < items.length; i++) {
    work(items[i], i);
    if (Date.now() - sliceStart > budgetMs) {
      await yieldToLoop();
      sliceStart = Date.now();
    }
  }
}
