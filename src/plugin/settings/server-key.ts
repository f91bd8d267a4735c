/**
 * The server API key in Obsidian's secret storage (API 1.11.4) where the app has it: the settings keep only the
 * secret's name, the key itself stays in the keychain. On older apps it stays in data.json as before. The plugin's
 * minimum stays 1.8.7, so both are reached only behind `requireApiVersion("1.11.4")` (written out where each is
 * used: the lint rule that checks API versions reads the literal); the picker is drawn in engine-section.ts.
 */
import { requireApiVersion, type App } from "obsidian";
import type { VaultAgentSettings } from "./settings";

/** The secret's name when the plugin moves a key there itself (lowercase, digits and dashes). */
export const SERVER_KEY_SECRET = "vault-agent-server-api-key";

/** The part of Obsidian's SecretStorage the plugin uses. */
export interface PluginSecretStorage {
  getSecret(id: string): string | null;
  setSecret(id: string, secret: string): void;
}

/** The app's secret storage, or null on apps older than 1.11.4. */
export function appSecretStorage(app: App): PluginSecretStorage | null {
  return requireApiVersion("1.11.4") ? app.secretStorage : null;
}

/**
 * Moves a plain key from the settings into secret storage (once: afterwards the settings hold none); returns the
 * settings to save, or null when there was nothing to move.
 */
export function migrateServerKey(settings: VaultAgentSettings, secrets: PluginSecretStorage): VaultAgentSettings | null {
  if (!settings.serverApiKey) return null;
  const name = settings.serverApiKeySecret || SERVER_KEY_SECRET;
  secrets.setSecret(name, settings.serverApiKey);
  return { ...settings, serverApiKey: "", serverApiKeySecret: name };
}

/** The settings with the key filled in from secret storage, for the engine only: never saved, never shown. */
export function withServerKey(settings: VaultAgentSettings, secrets: PluginSecretStorage | null): VaultAgentSettings {
  if (!secrets || !settings.serverApiKeySecret) return settings;
  return { ...settings, serverApiKey: secrets.getSecret(settings.serverApiKeySecret) ?? "" };
}

/** Loads the settings and, where the app has secret storage, moves a plain key there and out of data.json. */
export async function loadPluginSettings(
  plugin: { loadData(): Promise<unknown>; saveData(data: unknown): Promise<void> },
  secrets: PluginSecretStorage | null,
  load: (stored: unknown) => VaultAgentSettings,
): Promise<VaultAgentSettings> {
  const settings = load(await plugin.loadData());
  const migrated = secrets ? migrateServerKey(settings, secrets) : null;
  if (!migrated) return settings;
  await plugin.saveData(migrated);
  return migrated;
}
