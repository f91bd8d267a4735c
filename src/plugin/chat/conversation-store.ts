/**
 * Saved conversations, one JSON file each, in a folder reached through Obsidian's DataAdapter: the plugin folder
 * (default) or a vault folder, by setting. Broken files are skipped in the list, never deleted.
 */
import { normalizePath } from "obsidian";
import { Conversation, type ConversationData } from "../../core/agent/conversation";

/** The DataAdapter methods used (Obsidian's `app.vault.adapter`). */
export interface FolderAdapter {
  exists(path: string): Promise<boolean>;
  read(path: string): Promise<string>;
  write(path: string, data: string): Promise<void>;
  mkdir(path: string): Promise<void>;
  remove(path: string): Promise<void>;
  list(path: string): Promise<{ files: string[]; folders: string[] }>;
}

/** One line of the history list. */
export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  /** Time of the last entry. */
  updatedAt: number;
}

export class ConversationStore {
  constructor(
    private readonly adapter: FolderAdapter,
    /** Folder path as the adapter sees it (vault-relative). */
    private readonly folder: () => string,
  ) {}

  private file(id: string): string {
    return normalizePath(`${this.folder()}/${id.replace(/[^\w-]/g, "_")}.json`);
  }

  async save(conversation: Conversation): Promise<void> {
    if (conversation.entries.length === 0) return;
    const folder = normalizePath(this.folder());
    if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
    await this.adapter.write(this.file(conversation.id), JSON.stringify(conversation.toJSON()));
  }

  async load(id: string): Promise<Conversation> {
    return Conversation.fromJSON(await this.adapter.read(this.file(id)));
  }

  async remove(id: string): Promise<void> {
    if (await this.adapter.exists(this.file(id))) await this.adapter.remove(this.file(id));
  }

  /** Newest first. */
  async list(): Promise<ConversationSummary[]> {
    const folder = normalizePath(this.folder());
    if (!(await this.adapter.exists(folder))) return [];
    const { files } = await this.adapter.list(folder);
    const out: ConversationSummary[] = [];
    for (const file of files.filter((f) => f.endsWith(".json"))) {
      try {
        const data = JSON.parse(await this.adapter.read(file)) as ConversationData;
        if (data.version !== 1 || typeof data.id !== "string") continue;
        const last = data.entries[data.entries.length - 1];
        out.push({ id: data.id, title: data.title || "Untitled conversation", createdAt: data.createdAt, updatedAt: last?.at ?? data.createdAt });
      } catch {
        // A file someone else wrote or a half-synced one: leave it alone and keep listing.
      }
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }
}
