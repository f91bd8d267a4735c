/**
 * Where the change journal keeps its records: the plugin's data folder (vault adapter) in Obsidian, a folder
 * in the vault's config folder headless. Records are written once and never rewritten, so a store only has
 * to make each single write atomic.
 */
export interface JournalStore {
  /** Every record's key with its size in bytes, in any order. */
  list(): Promise<{ key: string; size: number }[]>;
  /** The record's text, or null when absent. */
  load(key: string): Promise<string | null>;
  /** Writes a new record atomically: after a crash the key holds the whole text or does not exist. */
  save(key: string, text: string): Promise<void>;
  /** Removes a record; absent is not an error. */
  remove(key: string): Promise<void>;
}
