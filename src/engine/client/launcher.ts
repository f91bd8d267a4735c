/** How the client starts the engine host; each environment (Obsidian, headless Node) supplies its own. */

/** The parts of a Node `ChildProcess` the client uses; `child_process.spawn(...)` returns one. */
export interface ChildProcessLike {
  /** Requests go here, one JSON line each. */
  readonly stdin: NodeJS.WritableStream | null;
  /** Replies come from here, one JSON line each. */
  readonly stdout: NodeJS.ReadableStream | null;
  /** The host's log (llama.cpp and host messages). */
  readonly stderr: NodeJS.ReadableStream | null;
  /** Process id, when the spawn succeeded. */
  readonly pid?: number;
  kill(signal?: NodeJS.Signals | number): boolean;
  on(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: "error", listener: (err: Error) => void): this;
}

/** Starts a fresh host process. Called lazily by the client, and again after the host dies. */
export type HostLauncher = () => ChildProcessLike;
