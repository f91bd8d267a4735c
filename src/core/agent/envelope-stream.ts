/**
 * Incremental envelope parser: fed the model's text chunk by chunk, it reports the decoded characters of
 * `thought` and `message_to_user` as they arrive and each tool call as soon as its object closes.
 * It tracks only JSON structure (strings, escapes, nesting), so it costs O(1) per character.
 */
import type { EnvelopeToolCall } from "../protocol/envelope";

export interface EnvelopeStreamSink {
  thought?(delta: string): void;
  message?(delta: string): void;
  toolCall?(call: EnvelopeToolCall, index: number): void;
}

type Target = "thought" | "message" | null;

export class EnvelopeStream {
  /** Everything pushed so far. */
  private text = "";
  /** Open containers, innermost last. */
  private readonly stack: ("{" | "[")[] = [];
  private inString = false;
  private escape = false;
  /** Hex digits of a `\u` escape being read, or null. */
  private unicode: string | null = null;
  private stringIsKey = false;
  private expectKey = false;
  private keyBuf = "";
  /** The current key of the top-level object. */
  private topKey = "";
  private target: Target = null;
  /** Offset where the tool call object being read starts, or -1. */
  private callStart = -1;
  private calls = 0;
  private pendingThought = "";
  private pendingMessage = "";

  constructor(private readonly sink: EnvelopeStreamSink) {}

  /** Number of tool calls reported so far. */
  get callsReported(): number {
    return this.calls;
  }

  push(chunk: string): void {
    const base = this.text.length;
    this.text += chunk;
    for (let i = 0; i < chunk.length; i++) this.step(chunk[i], base + i);
    this.flush();
  }

  private flush(): void {
    // Hold a trailing high surrogate until its pair arrives, so a delta is always valid text.
    const emit = (s: string, fn: ((d: string) => void) | undefined): string => {
      if (!s) return "";
      const last = s.charCodeAt(s.length - 1);
      const keep = last >= 0xd800 && last <= 0xdbff ? 1 : 0;
      const out = s.slice(0, s.length - keep);
      if (out && fn) fn(out);
      return s.slice(s.length - keep);
    };
    this.pendingThought = emit(this.pendingThought, this.sink.thought?.bind(this.sink));
    this.pendingMessage = emit(this.pendingMessage, this.sink.message?.bind(this.sink));
  }

  private char(c: string): void {
    if (this.stringIsKey) {
      if (this.stack.length === 1) this.keyBuf += c;
    } else if (this.target === "thought") this.pendingThought += c;
    else if (this.target === "message") this.pendingMessage += c;
  }

  private step(ch: string, offset: number): void {
    if (this.inString) {
      if (this.unicode !== null) {
        this.unicode += ch;
        if (this.unicode.length === 4) {
          const code = parseInt(this.unicode, 16);
          if (!Number.isNaN(code)) this.char(String.fromCharCode(code));
          this.unicode = null;
        }
        return;
      }
      if (this.escape) {
        this.escape = false;
        if (ch === "u") {
          this.unicode = "";
          return;
        }
        const map: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };
        this.char(map[ch] ?? ch);
        return;
      }
      if (ch === "\\") {
        this.escape = true;
        return;
      }
      if (ch === '"') {
        this.inString = false;
        if (this.stringIsKey) {
          if (this.stack.length === 1) this.topKey = this.keyBuf;
          this.expectKey = false;
        }
        this.stringIsKey = false;
        this.target = null;
        return;
      }
      this.char(ch);
      return;
    }
    switch (ch) {
      case '"': {
        this.inString = true;
        const top = this.stack[this.stack.length - 1];
        this.stringIsKey = top === "{" && this.expectKey;
        if (this.stringIsKey) this.keyBuf = "";
        else if (this.stack.length === 1) {
          this.target = this.topKey === "thought" ? "thought" : this.topKey === "message_to_user" ? "message" : null;
        }
        return;
      }
      case "{":
      case "[":
        this.stack.push(ch);
        this.expectKey = ch === "{";
        if (ch === "{" && this.stack.length === 3 && this.stack[1] === "[" && this.topKey === "tool_calls") this.callStart = offset;
        return;
      case "}":
      case "]": {
        this.stack.pop();
        this.expectKey = false;
        if (ch === "}" && this.callStart >= 0 && this.stack.length === 2) {
          const slice = this.text.slice(this.callStart, offset + 1);
          this.callStart = -1;
          try {
            const call = JSON.parse(slice) as EnvelopeToolCall;
            this.sink.toolCall?.(call, this.calls);
          } catch {
            // A malformed call is reported by the full parse afterwards.
          }
          this.calls++;
        }
        return;
      }
      case ",":
        if (this.stack[this.stack.length - 1] === "{") this.expectKey = true;
        return;
      default:
        return;
    }
  }
}
