/**
 * The change journal's store headless: one file per record in a folder (by default the plugin's folder in the
 * vault's config folder, where the plugin keeps its journal too, so either can undo the other's turns). Each
 * record is written to a temp file and renamed into place, so a crash leaves it whole or absent.
 */
import { readFileOrNull, writeFileAtomic } from "../engine/atomic-file";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { JournalStore } from "../core/ports/journal-store";

/** `<vault>/<configDir>/plugins/vault-agent/journal`. */
export function defaultJournalDir(vaultRoot: string, configDir = ".obsidian"): string {
  return join(vaultRoot, configDir, "plugins", "vault-agent", "journal");
}

export class FolderJournalStore implements JournalStore {
  constructor(private readonly dir: string) {}

  async list(): Promise<{ key: string; size: number }[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const out: { key: string; size: number }[] = [];
    for (const name of names) {
      if (!name.endsWith(".json")) continue;
      try {
        out.push({ key: name, size: (await fs.stat(join(this.dir, name))).size });
      } catch {
        // Removed meanwhile.
      }
    }
    return out;
  }

  async load(key: string): Promise<string | null> {
    return await readFileOrNull(join(this.dir, key), "utf8");
  }

  async save(key: string, text: string): Promise<void> {
    // On disk before the rename makes it visible: the journal must outlive a crash of the turn it records.
    await writeFileAtomic(join(this.dir, key), text, { durable: true });
  }

  async remove(key: string): Promise<void> {
    await fs.rm(join(this.dir, key), { force: true });
  }
}
