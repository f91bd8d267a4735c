/** Token counts through the engine, cached by text (bounded), so replaying history costs no repeated counting. */
import type { Engine } from "../ports/engine";

export class TokenCounter {
  private readonly cache = new Map<string, number>();

  constructor(
    private readonly engine: Pick<Engine, "countTokens">,
    /** Texts remembered; the oldest is forgotten first. */
    private readonly capacity = 1024,
  ) {}

  async count(text: string): Promise<number> {
    const hit = this.cache.get(text);
    if (hit !== undefined) {
      this.cache.delete(text);
      this.cache.set(text, hit);
      return hit;
    }
    const n = await this.engine.countTokens(text);
    this.cache.set(text, n);
    if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
    return n;
  }
}
