/**
 * The search worker's wire: the renderer's main thread and the worker that holds the full-text index and the flat
 * vector index exchange plain messages. The main thread asks ops ("text.search", "vector.query", … the same names
 * and parameters as the engine host serves, so RemoteTextStore and RemoteVectorStore work over either); the worker
 * has no file system, so it asks the main thread for the index files' bytes, which cross as transferred
 * ArrayBuffers (moved, not copied) both ways.
 */

/** A request for an op, main thread -> worker. */
export interface OpRequest {
  kind: "op";
  id: number;
  op: string;
  params: unknown;
}

/** The answer to an op, worker -> main thread. */
export interface OpReply {
  kind: "reply";
  id: number;
  /** The op's value when it succeeded. */
  value?: unknown;
  /** The op's error message when it failed. */
  error?: string;
}

/** What the worker may ask of the index files (always inside one index folder). */
export type FileOp = "read" | "write" | "remove" | "rename";

/** A file request, worker -> main thread. */
export interface FileRequest {
  kind: "file";
  id: number;
  op: FileOp;
  /** The index folder, as the op that needs the file named it. */
  folder: string;
  /** A plain file name inside the folder. */
  name: string;
  /** "rename": the new name. */
  to?: string;
  /** "write": the file's bytes (transferred). */
  bytes?: Uint8Array;
}

/** The answer to a file request, main thread -> worker. */
export interface FileReply {
  kind: "file-reply";
  id: number;
  /** "read": the bytes (transferred), or null when the file does not exist. */
  bytes?: Uint8Array | null;
  error?: string;
}

export type ToWorker = OpRequest | FileReply;
export type FromWorker = OpReply | FileRequest;

/** One side of a message channel: a Web Worker, the worker's own scope, or a Node worker thread behind an adapter. */
export interface MessageEndpoint<In, Out> {
  /** Sends a message; the buffers listed in `transfer` move to the other side and are unusable here afterwards. */
  post(message: Out, transfer?: ArrayBuffer[]): void;
  /** Calls `handler` with every message received. */
  listen(handler: (message: In) => void): void;
}

/** The buffer of a byte array, for the transfer list: a view over part of a larger buffer is copied into its own first. */
export function transferable(bytes: Uint8Array): { bytes: Uint8Array; buffer: ArrayBuffer } {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return { bytes, buffer: bytes.buffer };
  const own = bytes.slice();
  return { bytes: own, buffer: own.buffer };
}
