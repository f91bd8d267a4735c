/** The instructions given lately, newest first, without repeats: what the edit prompt offers. */
export class RecentInstructions {
  private items: string[];

  constructor(
    saved: readonly string[] = [],
    /** How many are kept; default 8. */
    private readonly limit = 8,
  ) {
    this.items = saved.filter((s) => typeof s === "string" && s.trim() !== "").slice(0, limit);
  }

  /** Newest first. */
  list(): string[] {
    return [...this.items];
  }

  /** Puts an instruction first (moving it up when it was there already); returns the list to save. */
  add(instruction: string): string[] {
    const text = instruction.trim();
    if (!text) return this.list();
    this.items = [text, ...this.items.filter((s) => s !== text)].slice(0, this.limit);
    return this.list();
  }
}
