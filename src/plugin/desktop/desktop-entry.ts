/**
 * The desktop services, reached only through a dynamic import behind Platform.isDesktopApp: this module is the
 * door to everything that needs Node (fs, child processes, the engine host, the runtime installer, the model
 * library, stdio MCP), so main.js's top level requires nothing but `obsidian` and loads on mobile.
 */
import { FileSystemAdapter, type App } from "obsidian";
import * as path from "path";
import { DesktopServices } from "../services";
import type { PluginServices } from "../services-types";
import type { VaultAgentSettings } from "../settings/settings";

export function createDesktopServices(app: App, pluginFolder: string, pluginVersion: string, settings: () => VaultAgentSettings): PluginServices {
  const adapter = app.vault.adapter;
  const base = adapter instanceof FileSystemAdapter ? adapter.getBasePath() : "";
  return new DesktopServices(path.join(base, pluginFolder), undefined, base, { pluginVersion, settings });
}
