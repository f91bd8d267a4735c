/** How the core asks and tells the person. Implemented by the chat pane, by the CLI, and by tests. */
export interface UserPort {
  /** Asks to approve a write or destructive tool call. Resolves with the decision. */
  confirm(request: ConfirmRequest): Promise<ConfirmDecision>;
  /** A short message (a Notice in Obsidian, stderr headless). */
  notify(message: string, kind?: "info" | "warning" | "error"): void;
  /** Progress of a long job; `total` unknown is undefined. */
  progress?(job: string, done: number, total?: number): void;
}

export interface ConfirmRequest {
  tool: string;
  /** "outbound": a read that sends data off the machine (the outbound-data policy asks for it). */
  effect: "write" | "destructive" | "outbound";
  /** One line: "Append 2 lines to Projects/Alpha.md". */
  summary: string;
  /** The text to show: a unified diff for edits, the content for new notes. */
  preview: string;
  /** "diff" when `preview` is a unified diff. */
  previewKind: "diff" | "content" | "text";
  args: Record<string, unknown>;
  /** Where the tool runs when it is not built in, as one line ("MCP server “filesystem”, tool write_file"). */
  origin?: string;
  /** Sentences the outbound-data policy adds: where the data goes, where an address came from, why it asks again. */
  notes?: string[];
}

/** "always" means: allow this tool for the rest of the conversation. */
export type ConfirmDecision = "approve" | "deny" | "always";
