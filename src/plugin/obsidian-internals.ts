/**
 * The few undocumented parts of Obsidian the plugin touches (opening its own settings tab and the hotkey list),
 * each guarded so a changed API degrades to a Notice instead of an exception.
 */
import { Notice, type App } from "obsidian";

interface SettingWindow {
  open(): void;
  openTabById(id: string): { searchComponent?: { setValue(value: string): void; inputEl?: HTMLInputElement } } | undefined;
}

function settingWindow(app: App): SettingWindow | null {
  const setting = (app as unknown as { setting?: Partial<SettingWindow> }).setting;
  return setting && typeof setting.open === "function" && typeof setting.openTabById === "function" ? (setting as SettingWindow) : null;
}

/** Opens this plugin's settings tab. */
export function openPluginSettings(app: App, pluginId: string): void {
  const setting = settingWindow(app);
  if (!setting) {
    new Notice("Open settings, then community plugins, then Vault Agent.");
    return;
  }
  setting.open();
  setting.openTabById(pluginId);
}

/** Opens the hotkey settings filtered to this plugin's commands. */
export function openHotkeys(app: App, filter: string): void {
  const setting = settingWindow(app);
  if (!setting) {
    new Notice("Open settings, then hotkeys, and search for Vault Agent.");
    return;
  }
  setting.open();
  const tab = setting.openTabById("hotkeys");
  tab?.searchComponent?.setValue(filter);
  tab?.searchComponent?.inputEl?.dispatchEvent(new Event("input"));
}
