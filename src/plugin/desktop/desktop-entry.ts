/**
 * The desktop services, reached only through a dynamic import behind Platform.isDesktopApp: this module is the
 * door to everything that needs Node (fs, child processes, the engine host, the runtime installer, the model
 * library, stdio MCP), so main.js's top level requires nothing but `obsidian` and loads on mobile. Node's built-ins
 * are loaded here, behind the desktop check, and handed to the desktop-only code (src/engine/node-builtins.ts).
 */
import { FileSystemAdapter, Platform, type App } from "obsidian";
import { provideNodeBuiltins, type NodeBuiltins } from "../../engine/node-builtins";
import { DesktopServices } from "../services";
import type { PluginServices } from "../services-types";
import type { VaultAgentSettings } from "../settings/settings";

/** Node's built-ins, loaded only on desktop. */
async function loadNodeBuiltins(): Promise<NodeBuiltins> {
  if (!Platform.isDesktop) throw new Error("Vault Agent's desktop services need Obsidian's desktop app.");
  const [fs, fsPromises, path, os, crypto, zlib, http, https, net, url, module, childProcess] = await Promise.all([
    import("fs"),
    import("fs/promises"),
    import("path"),
    import("os"),
    import("crypto"),
    import("zlib"),
    import("http"),
    import("https"),
    import("net"),
    import("url"),
    import("module"),
    import("child_process"),
  ]);
  return { fs, fsPromises, path, os, crypto, zlib, http, https, net, url, module: module.default, childProcess };
}

export async function createDesktopServices(app: App, pluginFolder: string, pluginVersion: string, settings: () => VaultAgentSettings): Promise<PluginServices> {
  const node = await loadNodeBuiltins();
  provideNodeBuiltins(node);
  const adapter = app.vault.adapter;
  const base = adapter instanceof FileSystemAdapter ? adapter.getBasePath() : "";
  return new DesktopServices(node.path.join(base, pluginFolder), undefined, base, { pluginVersion, settings });
}
