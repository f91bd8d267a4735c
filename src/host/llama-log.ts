/**
 * llama.cpp's log, routed to the host's stderr (stdout carries the protocol) with the last lines kept,
 * so an error can quote the reason llama.cpp gave ("Undefined rule identifier 'foo'") instead of a
 * generic "Failed to parse grammar".
 */
import type { LlamaLogLevel } from "node-llama-cpp";

interface Entry {
  /** Sequence number, for "errors since" queries. */
  n: number;
  level: LlamaLogLevel;
  message: string;
}

// String values of LlamaLogLevel: importing the enum would load node-llama-cpp with the host.
const ERROR_LEVELS = new Set<string>(["error", "fatal", "warn"]);

export class LlamaLogTail {
  private readonly entries: Entry[] = [];
  private counter = 0;

  constructor(private readonly keep = 50) {}

  /** The logger to hand to `getLlama`. */
  readonly logger = (level: LlamaLogLevel, message: string): void => {
    const text = message.trim();
    if (!text) return;
    process.stderr.write(`[llama.cpp ${level}] ${text}\n`);
    this.entries.push({ n: ++this.counter, level, message: text });
    if (this.entries.length > this.keep) this.entries.shift();
  };

  /** A position in the log, to ask later what came after it. */
  mark(): number {
    return this.counter;
  }

  /** Warning and error messages logged after `mark`, oldest first, without node-llama-cpp's generic echoes. */
  errorsSince(mark: number): string[] {
    return this.entries
      .filter((e) => e.n > mark && ERROR_LEVELS.has(e.level) && !e.message.startsWith("[node-llama-cpp]"))
      .map((e) => e.message.replace(/\s+/g, " "));
  }
}
