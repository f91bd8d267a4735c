/**
 * The chat pane's saved conversations, headless: where the plugin keeps them in a folder vault (its folder in the
 * config dir, or the vault folder its settings name) and their memory settings, read from the plugin's data.json.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Conversation } from "../core/agent/conversation";
import { readFileOrNull, writeFileAtomic } from "../engine/atomic-file";

/** The plugin's settings that the memory command follows. */
export interface PluginMemorySettings {
  /** The folder holding conversation files (absolute). */
  conversationsDir: string;
  memoryFolder?: string;
  excludedFolders?: string[];
}

/** `<vault>/<configDir>/plugins/vault-agent`. */
export function pluginDir(vaultRoot: string, configDir = ".obsidian"): string {
  return join(vaultRoot, configDir, "plugins", "vault-agent");
}

/** Reads the plugin's data.json (absent or unreadable: the defaults) for where conversations live and the memory folder. */
export function pluginMemorySettings(vaultRoot: string, configDir = ".obsidian"): PluginMemorySettings {
  const dir = pluginDir(vaultRoot, configDir);
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(readFileSync(join(dir, "data.json"), "utf8")) as Record<string, unknown>;
  } catch {
    // No settings saved yet: the plugin's defaults.
  }
  const inVault = data.conversationStorage === "vault" && typeof data.conversationFolder === "string" && data.conversationFolder.trim() !== "";
  return {
    conversationsDir: inVault ? resolve(vaultRoot, String(data.conversationFolder)) : join(dir, "conversations"),
    ...(typeof data.memoryFolder === "string" ? { memoryFolder: data.memoryFolder } : {}),
    ...(Array.isArray(data.excludedFolders) ? { excludedFolders: data.excludedFolders.filter((f): f is string => typeof f === "string") } : {}),
  };
}

/** A conversation file's name for its id (as the pane names it). */
export function conversationFile(dir: string, id: string): string {
  return join(dir, `${id.replace(/[^\w-]/g, "_")}.json`);
}

/** Every readable conversation in the folder, newest first by creation; broken files are skipped, never changed. */
export function listConversations(dir: string): Conversation[] {
  if (!existsSync(dir)) return [];
  const out: Conversation[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    try {
      out.push(Conversation.fromJSON(readFileSync(join(dir, name), "utf8")));
    } catch {
      // Someone else's file, or a half-synced one.
    }
  }
  return out.sort((a, b) => b.createdAt - a.createdAt);
}

/** One conversation by id, or null when there is no such file. */
export async function loadConversation(dir: string, id: string): Promise<Conversation | null> {
  const text = await readFileOrNull(conversationFile(dir, id), "utf8");
  return text === null ? null : Conversation.fromJSON(text);
}

/** Writes the conversation back as the pane does (whole file, atomically). */
export async function saveConversation(dir: string, conversation: Conversation): Promise<void> {
  await writeFileAtomic(conversationFile(dir, conversation.id), JSON.stringify(conversation.toJSON()));
}
