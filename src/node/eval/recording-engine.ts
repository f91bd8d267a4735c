/**
 * What every eval judges replies with: an engine wrapper that records each reply as the model produced it, the
 * envelope check that also counts broken UTF-8 bytes as invalid, and the shared number and table formatting.
 */
import { parseEnvelope, type EnvelopeParse } from "../../core/agent/envelope-parse";
import type { Engine, GenerateRequest, GenerateResult } from "../../core/ports/engine";

/** Records each reply's text so validity is judged on what the model actually produced. */
export class RecordingEngine implements Engine {
  texts: string[] = [];
  /** Per reply: whether its bytes were valid UTF-8 (false only when the engine says so). */
  utf8: boolean[] = [];
  constructor(private readonly inner: Engine) {}
  /** Forgets the replies recorded so far (before each case). */
  clear(): void {
    this.texts = [];
    this.utf8 = [];
  }
  /**
   * Every recorded reply parsed as an envelope. JSON.parse accepts U+FFFD decoded from broken bytes, so a reply
   * whose bytes were not valid UTF-8 never counts as an envelope.
   */
  envelopes(): EnvelopeParse[] {
    return this.texts.map((text, i) => (this.utf8[i] === false ? { ok: false, reason: "The reply's bytes were not valid UTF-8." } : parseEnvelope(text)));
  }
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const result = await this.inner.generate(request);
    this.texts.push(result.text);
    this.utf8.push(result.utf8Valid !== false);
    return result;
  }
  embed(texts: string[], options?: { signal?: AbortSignal }) {
    return this.inner.embed(texts, options);
  }
  countTokens(text: string) {
    return this.inner.countTokens(text);
  }
  modelInfo() {
    return this.inner.modelInfo();
  }
}

/** A percentage with one decimal. */
export const pct = (n: number, d: number): number => (d ? Math.round((1000 * n) / d) / 10 : 0);

/** Rows as an aligned text table: the first column left-aligned, the others right-aligned. */
export function alignedTable(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
