/**
 * llama-server slots per conversation: a conversation keeps the same slot (`id_slot`) turn after turn, so the
 * server's prompt cache (`cache_prompt`) holds its evaluated prefix; when all slots are taken the least recently
 * used conversation gives its slot up. Without a conversation id the server picks any idle slot.
 */
export class SlotPool {
  private readonly owners: (string | undefined)[];
  private readonly lastUsed: number[];
  private clock = 0;

  constructor(slots: number) {
    const n = Math.max(1, Math.floor(slots));
    this.owners = new Array<string | undefined>(n).fill(undefined);
    this.lastUsed = new Array<number>(n).fill(0);
  }

  /** Slots the server has. */
  get size(): number {
    return this.owners.length;
  }

  /** Conversations that currently hold a slot. */
  get conversations(): number {
    return this.owners.filter((o) => o !== undefined).length;
  }

  /** The slot for this conversation, or -1 (any slot) without one. */
  slotFor(conversationId: string | undefined): number {
    if (conversationId === undefined) return -1;
    let slot = this.owners.indexOf(conversationId);
    if (slot < 0) {
      const free = this.owners.indexOf(undefined);
      slot = free >= 0 ? free : this.lastUsed.indexOf(Math.min(...this.lastUsed));
      this.owners[slot] = conversationId;
    }
    this.lastUsed[slot] = ++this.clock;
    return slot;
  }
}
