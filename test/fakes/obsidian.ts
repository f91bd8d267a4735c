/**
 * A fake `obsidian` module: vitest aliases `obsidian` here, and the e2e harness bundles it for the browser.
 * It implements the parts of the API the plugin uses with the same behaviour, over a vault in memory or in a folder.
 */
import { installDomHelpers } from "./dom";

installDomHelpers();

export { Events, Component, type EventRef } from "./events";
// Obsidian's own YAML functions; the fake uses the `yaml` package as the CLI does.
export { parse as parseYaml, stringify as stringifyYaml } from "yaml";
export {
  normalizePath,
  MemoryBackend,
  TAbstractFile,
  TFile,
  TFolder,
  Vault,
  DataAdapter,
  FileSystemAdapter,
  MetadataCache,
  FileManager,
  type VaultBackend,
  type CachedMetadata,
} from "./vault";
export { View, ItemView, MarkdownView, Editor, WorkspaceLeaf, Workspace } from "./workspace";
export {
  Notice,
  Setting,
  Modal,
  SettingTab,
  PluginSettingTab,
  MarkdownRenderer,
  TextComponent,
  TextAreaComponent,
  ToggleComponent,
  DropdownComponent,
  SliderComponent,
  ButtonComponent,
  ExtraButtonComponent,
  setIcon,
  setTooltip,
  SecretComponent,
} from "./ui";
export { App, Plugin, Commands, AppSetting, type PluginManifest, type Command } from "./app";
export { loadPdfJs } from "./pdfjs";

/** The desktop app: Node and Electron are available. */
export const Platform = {
  isDesktop: true,
  isMobile: false,
  isDesktopApp: true,
  isMobileApp: false,
  isPhone: false,
  isTablet: false,
  isMacOS: false,
  isWin: false,
  isLinux: true,
};

export { apiVersion, requireApiVersion, setFakeApiVersion, SecretStorage } from "./api-version";

export function debounce<T extends unknown[]>(cb: (...args: T) => unknown, timeout = 0, resetTimer = false) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const wrapped = (...args: T) => {
    if (timer && !resetTimer) return wrapped;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void cb(...args);
    }, timeout);
    return wrapped;
  };
  wrapped.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    return wrapped;
  };
  wrapped.run = () => wrapped;
  return wrapped;
}

export function getLanguage(): string {
  return "en";
}

/** Obsidian's HTTP request: the fake uses the runtime's fetch (tests point it at 127.0.0.1 only). */
export async function requestUrl(request: { url: string; method?: string; throw?: boolean }): Promise<{
  status: number;
  text: string;
  headers: Record<string, string>;
}> {
  const response = await fetch(request.url, { method: request.method ?? "GET" });
  const text = await response.text();
  if (request.throw !== false && response.status >= 400) throw new Error(`Request failed, status ${response.status}`);
  return { status: response.status, text, headers: Object.fromEntries(response.headers.entries()) };
}
