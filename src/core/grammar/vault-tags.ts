/**
 * The vault's tags as one GBNF rule: a prefix tree of every tag and every parent of a nested tag (`work/q3` brings
 * `work`), each with or without its `#`, as JSON string content. Kept by the assembly from the notes' metadata and
 * re-printed only when the set changes; a tool's tag arg (`tags:notes`' tag) then names a tag that exists.
 */
import { EMPTY, lit, opt, seq } from "./gbnf-ast";
import { printExpr } from "./gbnf-printer";
import { literalChoice } from "./literal-choice";
import { jsonContent, utf8Bytes } from "./vault-paths";

/** The tag rule's name (no compiler-made rule starts with `vtg-`). */
export const TAG_RULE = "vtg-0";
/** Tags longer than this (code points) are left out: the tools' tag arg allows at most 100 characters. */
const MAX_TAG_CHARS = 100;

/** A tag as the tools take it: no `#`, trimmed. */
function bare(tag: string): string {
  return tag.trim().replace(/^#+/, "");
}

export class VaultTagSet {
  /** Grows whenever the set changes; part of every grounded grammar's cache key. */
  version = 0;
  private tags: string[] = [];
  private printed: { root: string; text: string; maxBytes: number } | null = null;

  /** Replaces the set (tags with or without `#`); a set equal to the current one changes nothing. */
  set(tags: Iterable<string>): void {
    const all = new Set<string>();
    for (const raw of tags) {
      const tag = bare(raw);
      if (tag === "" || [...tag].length > MAX_TAG_CHARS) continue;
      const parts = tag.split("/");
      for (let i = 1; i <= parts.length; i++) if (parts[i - 1] !== "") all.add(parts.slice(0, i).join("/"));
    }
    const next = [...all].sort();
    if (next.length === this.tags.length && next.every((t, i) => t === this.tags[i])) return;
    this.tags = next;
    this.printed = null;
    this.version++;
  }

  get size(): number {
    return this.tags.length;
  }

  /** Whether a tag (with or without `#`) is in the set. */
  has(tag: string): boolean {
    return this.tags.includes(bare(tag));
  }

  /** The tags (without `#`), sorted. */
  list(): readonly string[] {
    return this.tags;
  }

  /** The rule admitting every tag with or without `#`, and the longest value's bytes; null when the vault has none. */
  rules(): { root: string; text: string; maxBytes: number } | null {
    if (this.tags.length === 0) return null;
    if (!this.printed) {
      const choice = literalChoice(this.tags.map((t) => ({ text: jsonContent(t), then: EMPTY })));
      const maxBytes = 1 + Math.max(...this.tags.map((t) => utf8Bytes(jsonContent(t))));
      this.printed = { root: TAG_RULE, text: `${TAG_RULE} ::= ${printExpr(seq(opt(lit("#")), choice))}\n`, maxBytes };
    }
    return this.printed;
  }
}
