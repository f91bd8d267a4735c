/**
 * Where the flat vector index keeps its file: the vault adapter in the plugin (desktop and mobile), a
 * folder headless. Names are plain file names inside the index folder.
 */
export interface VectorFiles {
  /** The file's bytes, or null when it does not exist. */
  read(name: string): Promise<Uint8Array | null>;
  /** Replaces the file with these bytes (atomically where the platform allows). */
  write(name: string, bytes: Uint8Array): Promise<void>;
  /** Moves a file aside (an unreadable index is kept for inspection, not deleted). */
  rename(from: string, to: string): Promise<void>;
}
