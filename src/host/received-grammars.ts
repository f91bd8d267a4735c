/**
 * Grammar texts the client has sent, by the key it names them with: the client sends a grammar's text once and
 * afterwards only its key, so a 1.5 MB grammar (a 50,000-note vault's paths) is not serialised, piped and parsed
 * again on every turn. Bounded by bytes, least recently used first; a key the host no longer holds (evicted, or a
 * host started since) is answered with "grammar_unknown" and the client sends the text again.
 */

/** Default bound on the texts kept, all together (UTF-16 length × 2, about what V8 holds). */
export const DEFAULT_GRAMMAR_TEXT_BYTES = 32 * 1024 * 1024;

export class ReceivedGrammars {
  private readonly entries = new Map<string, string>();
  private heldBytes = 0;

  constructor(
    /** Bound on the texts kept, all together; the least recently used goes first. The newest is kept even when larger. */
    private readonly maxBytes = DEFAULT_GRAMMAR_TEXT_BYTES,
  ) {}

  /** Bytes the kept texts take now. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Keeps `text` under `key` (replacing what the key named before). */
  put(key: string, text: string): void {
    this.forget(key);
    this.entries.set(key, text);
    this.heldBytes += text.length * 2;
    for (const [old, kept] of this.entries) {
      if (this.heldBytes <= this.maxBytes || old === key) break;
      this.entries.delete(old);
      this.heldBytes -= kept.length * 2;
    }
  }

  /** The text kept under `key` (now the most recently used), or undefined when the host does not hold it. */
  get(key: string): string | undefined {
    const text = this.entries.get(key);
    if (text === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, text);
    return text;
  }

  private forget(key: string): void {
    const text = this.entries.get(key);
    if (text === undefined) return;
    this.entries.delete(key);
    this.heldBytes -= text.length * 2;
  }
}
