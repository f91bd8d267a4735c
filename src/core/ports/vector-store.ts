/** The semantic index: vectra in the engine host (desktop), or the flat store in the renderer where there is no Node (src/engine/vector/flat-store.ts). */
export interface VectorStore {
  /** Inserts or replaces chunks by id. */
  upsert(items: VectorItem[]): Promise<void>;
  /** Deletes chunks by id. */
  delete(ids: string[]): Promise<void>;
  /** Nearest chunks to the vector, optionally filtered on metadata (vectra's filter syntax: `{path: {$eq: "a.md"}}`). */
  query(vector: number[], topK: number, filter?: Record<string, unknown>): Promise<VectorHit[]>;
  /** Item count and on-disk size. */
  stats(): Promise<{ items: number; bytes: number; dimension?: number }>;
  /** Every stored id with its content hash, so indexing can skip unchanged chunks. */
  listIds(): Promise<{ id: string; hash: string; path: string }[]>;
  /**
   * Writes items without embedding anything: each takes the vector of item `from` (default: its own
   * id) and the given metadata — how a moved note's chunks follow it. Resolves with the ids whose
   * source item does not exist (those still need embedding).
   */
  relabel(items: RelabelItem[]): Promise<string[]>;
}

export interface RelabelItem {
  /** The item to write. */
  id: string;
  /** The item whose vector it takes; default `id`. */
  from?: string;
  metadata: VectorItem["metadata"];
}

export interface VectorItem {
  /** Chunk id: the hash of the embedded text (plus "~k" for the k-th note holding the same text). */
  id: string;
  vector: number[];
  metadata: { path: string; heading: string; hash: string; text: string; [key: string]: string | number | boolean };
}

export interface VectorHit {
  id: string;
  score: number;
  metadata: VectorItem["metadata"];
}

/** How a vector index file is encoded on disk: the compact format, or vectra's protobuf or JSON. */
export type VectorCodec = "compact" | "protobuf" | "json";
