/** The semantic index. Implemented in the engine host over vectra (it never runs in Obsidian's renderer). */
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
}

export interface VectorItem {
  /** Stable chunk id. */
  id: string;
  vector: number[];
  metadata: { path: string; heading: string; hash: string; text: string; [key: string]: string | number | boolean };
}

export interface VectorHit {
  id: string;
  score: number;
  metadata: VectorItem["metadata"];
}
