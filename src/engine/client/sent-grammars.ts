/**
 * The grammar texts this client has sent to the running host, by the key it gave each: a turn whose grammar the host
 * already holds sends the key alone (received-grammars.ts on the host's side). Kept per host process — cleared when a
 * host starts — and bounded by bytes, least recently used first.
 */

/** Default bound on the texts remembered, all together (UTF-16 length × 2); the host keeps as much. */
export const DEFAULT_SENT_GRAMMAR_BYTES = 32 * 1024 * 1024;

export class SentGrammars {
  /**
   * Key by text. Keyed by the text itself: V8 hashes a long string by its length, and the grammar source hands the
   * same string object each turn, so a lookup is a pointer comparison, never a hash of 1.5 MB.
   */
  private readonly keys = new Map<string, string>();
  private heldBytes = 0;
  private nextKey = 1;

  constructor(
    /** Bound on the texts remembered; the least recently used is forgotten first (and sent again when next used). */
    private readonly maxBytes = DEFAULT_SENT_GRAMMAR_BYTES,
  ) {}

  /** The key the host holds `text` under, as far as this client knows (now the most recently used). */
  keyOf(text: string): string | undefined {
    const key = this.keys.get(text);
    if (key === undefined) return undefined;
    this.keys.delete(text);
    this.keys.set(text, key);
    return key;
  }

  /** A fresh key for `text`, about to be sent with it. */
  add(text: string): string {
    this.forget(text);
    const key = `g${this.nextKey++}`;
    this.keys.set(text, key);
    this.heldBytes += text.length * 2;
    for (const old of this.keys.keys()) {
      if (this.heldBytes <= this.maxBytes || old === text) break;
      this.keys.delete(old);
      this.heldBytes -= old.length * 2;
    }
    return key;
  }

  /** Forgets `text` (the host said it does not hold it). */
  forget(text: string): void {
    if (!this.keys.delete(text)) return;
    this.heldBytes -= text.length * 2;
  }

  /** Forgets everything (a new host process holds nothing). */
  clear(): void {
    this.keys.clear();
    this.heldBytes = 0;
  }
}
