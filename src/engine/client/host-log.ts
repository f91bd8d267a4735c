import { nodeModule } from "../node-builtins";

const nodeFs = nodeModule("fs");
/** The host's stderr, kept as the last N lines in memory and, optionally, appended to a log file. */

export class HostLog {
  private readonly kept: string[] = [];
  private partial = "";
  /** Complete lines written so far (kept or dropped), so callers can ask what came after a point. */
  private written = 0;

  constructor(
    /** Lines kept in memory. */
    private readonly maxLines = 500,
    /** Also append everything to this file, when set. */
    private readonly file?: string,
  ) {}

  /** Appends a chunk of stderr output. */
  write(chunk: string): void {
    if (this.file) nodeFs.appendFile(this.file, chunk, () => undefined);
    const parts = (this.partial + chunk).split("\n");
    this.partial = parts.pop() ?? "";
    for (const line of parts) this.push(line);
  }

  /** Records a line from the client itself (starts, exits), marked so it stands out from host output. */
  note(line: string): void {
    this.write(`[engine-client] ${line}\n`);
  }

  private push(line: string): void {
    this.written++;
    this.kept.push(line);
    if (this.kept.length > this.maxLines) this.kept.splice(0, this.kept.length - this.maxLines);
  }

  /** The kept lines, oldest first (including an unfinished last line). */
  lines(): string[] {
    return this.partial ? [...this.kept, this.partial] : [...this.kept];
  }

  /** A position in the log, for `linesSince`. */
  mark(): number {
    return this.written;
  }

  /** Complete lines written after `mark` that are still kept. */
  linesSince(mark: number): string[] {
    const count = Math.min(this.written - mark, this.kept.length);
    return count > 0 ? this.kept.slice(this.kept.length - count) : [];
  }

  /** The last non-empty line written by the host, for error messages. */
  lastHostLine(): string | undefined {
    return this.lines()
      .filter((l) => l.trim() !== "" && !l.startsWith("[engine-client]"))
      .pop();
  }
}
