/**
 * The staging tier of memory: the facts a conversation was asked to remember, kept with that conversation (its saved
 * JSON, never the vault's notes) until the user keeps, edits or drops them at review.
 */
import type { MemoryFact, MemoryStaging, StagedMemory } from "../protocol/staged-memory";

/** The longest fact kept (memory:save's own bound). */
const MAX_CONTENT = 2000;

function normalized(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/** The staged facts of one conversation, oldest first. */
export class StagedMemories implements MemoryStaging {
  private readonly items: StagedMemory[];
  private next: number;

  constructor(items: readonly StagedMemory[] = []) {
    this.items = items.map((m) => ({ ...m }));
    this.next = Math.max(0, ...this.items.map((m) => Number(/^m(\d+)$/.exec(m.id)?.[1] ?? 0))) + 1;
  }

  /** How many facts are staged. */
  get size(): number {
    return this.items.length;
  }

  list(): readonly StagedMemory[] {
    return this.items;
  }

  get(id: string): StagedMemory | undefined {
    return this.items.find((m) => m.id === id);
  }

  /** Stages a fact (no vault write); the same sentence staged twice is kept once. */
  stage(fact: MemoryFact, options: { turnId?: string; at?: number } = {}): { memory: StagedMemory; duplicate: boolean } {
    const content = fact.content.replace(/\s+/g, " ").trim().slice(0, MAX_CONTENT);
    const same = this.items.find((m) => normalized(m.content) === normalized(content));
    if (same) return { memory: same, duplicate: true };
    const tags = (fact.tags ?? []).map((t) => t.replace(/^#/, "").trim()).filter((t) => t && t !== "memory");
    const memory: StagedMemory = {
      id: `m${this.next++}`,
      content,
      ...(fact.title?.trim() ? { title: fact.title.trim() } : {}),
      ...(tags.length ? { tags } : {}),
      at: options.at ?? Date.now(),
      ...(options.turnId ? { turnId: options.turnId } : {}),
    };
    this.items.push(memory);
    return { memory, duplicate: false };
  }

  /** The same list as a tool call of one turn sees it: what it stages carries that turn's id. */
  forTurn(turnId: string): MemoryStaging {
    return { stage: (fact) => this.stage(fact, { turnId }), list: () => this.list() };
  }

  /** Changes a staged fact's text (and title) before it is kept; false when there is no such fact. */
  edit(id: string, change: { content?: string; title?: string }): boolean {
    const memory = this.get(id);
    if (!memory) return false;
    if (change.content !== undefined) {
      const content = change.content.replace(/\s+/g, " ").trim().slice(0, MAX_CONTENT);
      if (!content) return false;
      if (content !== memory.content) memory.original ??= memory.content;
      memory.content = content;
    }
    if (change.title !== undefined) {
      if (change.title.trim()) memory.title = change.title.trim();
      else delete memory.title;
    }
    return true;
  }

  /** Removes facts (kept in the vault or dropped); returns those removed. */
  remove(ids: readonly string[]): StagedMemory[] {
    const wanted = new Set(ids);
    const removed = this.items.filter((m) => wanted.has(m.id));
    for (const m of removed) this.items.splice(this.items.indexOf(m), 1);
    return removed;
  }

  toJSON(): StagedMemory[] {
    return this.items.map((m) => ({ ...m, ...(m.tags ? { tags: [...m.tags] } : {}) }));
  }

  /** Staged facts from a saved conversation; malformed entries are left out. */
  static fromJSON(input: unknown): StagedMemories {
    if (!Array.isArray(input)) return new StagedMemories();
    const items = input.filter(
      (m): m is StagedMemory =>
        !!m && typeof m === "object" && typeof (m as StagedMemory).id === "string" && typeof (m as StagedMemory).content === "string" && typeof (m as StagedMemory).at === "number",
    );
    return new StagedMemories(items);
  }
}
