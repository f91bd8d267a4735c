/**
 * A promise kept for reuse until it fails: the server's /props answer is asked once per connection, and a server
 * that was down is asked again on the next use instead of failing forever.
 */
export class UntilFailure<T> {
  private value: Promise<T> | null = null;
  constructor(private readonly make: () => Promise<T>) {}
  /** The kept promise, or a new attempt when there is none. */
  get(): Promise<T> {
    if (!this.value) {
      const attempt = this.make();
      this.value = attempt;
      attempt.catch(() => {
        if (this.value === attempt) this.value = null;
      });
    }
    return this.value;
  }
  /** Forgets the kept promise, so the next get() asks again. */
  reset(): void {
    this.value = null;
  }
}
