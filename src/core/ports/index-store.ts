/** Where small persistent data lives (text index, conversations, caches): the vault adapter or a folder. */
export interface IndexStore {
  /** The stored text, or null when absent. */
  load(key: string): Promise<string | null>;
  save(key: string, text: string): Promise<void>;
  remove(key: string): Promise<void>;
}
