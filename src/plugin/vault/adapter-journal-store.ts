/**
 * The change journal's store in Obsidian: one file per record in the plugin's data folder, through the vault adapter
 * (so it works on mobile too). Same layout as the headless FolderJournalStore, so either can undo the other's turns.
 * Each record is written to a temp file and renamed into place, so a crash leaves it whole or absent.
 */
import { normalizePath, type DataAdapter } from "obsidian";
import type { JournalStore } from "../../core/ports/journal-store";

/** `<configDir>/plugins/vault-agent/journal` for a plugin folder `<configDir>/plugins/vault-agent`. */
export function pluginJournalFolder(pluginFolder: string): string {
  return normalizePath(`${pluginFolder}/journal`);
}

export class AdapterJournalStore implements JournalStore {
  private readonly folder: string;

  constructor(
    private readonly adapter: Pick<DataAdapter, "exists" | "list" | "stat" | "read" | "write" | "rename" | "remove" | "mkdir">,
    folder: string,
  ) {
    this.folder = normalizePath(folder);
  }

  private path(key: string): string {
    return normalizePath(`${this.folder}/${key}`);
  }

  async list(): Promise<{ key: string; size: number }[]> {
    if (!(await this.adapter.exists(this.folder))) return [];
    const { files } = await this.adapter.list(this.folder);
    const out: { key: string; size: number }[] = [];
    for (const file of files) {
      const key = file.split("/").pop() ?? "";
      // Temp files of an interrupted write start with a dot and are not records.
      if (!key.endsWith(".json") || key.startsWith(".")) continue;
      const stat = await this.adapter.stat(file);
      if (stat) out.push({ key, size: stat.size });
    }
    return out;
  }

  async load(key: string): Promise<string | null> {
    const path = this.path(key);
    if (!(await this.adapter.exists(path))) return null;
    return this.adapter.read(path);
  }

  async save(key: string, text: string): Promise<void> {
    if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
    const tmp = this.path(`.${key}.tmp`);
    await this.adapter.write(tmp, text);
    // Keys are written once, so the destination never exists: the rename cannot meet an older record.
    await this.adapter.rename(tmp, this.path(key));
  }

  async remove(key: string): Promise<void> {
    const path = this.path(key);
    if (await this.adapter.exists(path)) await this.adapter.remove(path);
  }
}
