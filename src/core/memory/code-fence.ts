const FENCE = /^\s*(```+|~~~+)/;

/**
 * Follows fenced code blocks line by line, so parsers skip what is code: a fence closes only with the
 * same character repeated at least as often as it opened (CommonMark), so ```` can hold ``` inside.
 */
export class CodeFence {
  /** The opening fence while inside a block. */
  private open: string | null = null;

  /** Whether this line belongs to a fenced block, its opening and closing lines included. Call once per line, in order. */
  covers(line: string): boolean {
    const m = FENCE.exec(line);
    if (this.open) {
      if (m && m[1][0] === this.open[0] && m[1].length >= this.open.length) this.open = null;
      return true;
    }
    if (m) {
      this.open = m[1];
      return true;
    }
    return false;
  }
}
