/**
 * The settings tab on both of Obsidian's paths: from 1.13 the app draws getSettingDefinitions() (and indexes it for its
 * settings search), older apps call display(), which draws the same rows. Drawn with the fake obsidian module over a
 * DOM in Node.
 */
import "../../fakes/node-dom";
import { afterEach, describe, expect, it } from "vitest";
import type { Plugin as RealPlugin } from "obsidian";
import { setFakeApiVersion } from "../../fakes/api-version";
import { Plugin } from "../../fakes/app";
import { fakeApp } from "../../fakes/fake-app";
import { Notice, type SettingTab as FakeSettingTab } from "../../fakes/ui";
import { toolFamilies } from "../../../src/app/assemble-agent";
import type { EngineStatus } from "../../../src/plugin/engine/managed-engine";
import type { InstallController } from "../../../src/plugin/runtime/install-controller";
import type { PluginServices } from "../../../src/plugin/services";
import type { McpSectionDeps } from "../../../src/plugin/settings/mcp-section";
import { TOOL_FAMILY_KEY, TRUSTED_SERVER_KEY } from "../../../src/plugin/settings/setting-bindings";
import { controlRows, isSection, isVisible, type SettingItem, type SettingRow } from "../../../src/plugin/settings/setting-rows";
import { loadSettings, type VaultAgentSettings } from "../../../src/plugin/settings/settings";
import { VaultAgentSettingTab } from "../../../src/plugin/settings/settings-tab";

class TestPlugin extends Plugin {}

const MOVED = { from: "/vault/.obsidian/plugins/vault-agent/models", to: "/home/me/.vault-agent/models" };

/** An MCP hub with no servers that counts who listens to it. */
function quietHub() {
  const listeners = new Set<() => void>();
  return {
    listeners,
    mcp: {
      problems: [],
      reload: () => undefined,
      hub: {
        servers: () => [],
        onChange: (cb: () => void) => {
          listeners.add(cb);
          return () => listeners.delete(cb);
        },
      },
    } as unknown as McpSectionDeps["mcp"],
  };
}

function setup(stored: Partial<VaultAgentSettings> = {}, desktopOnly?: string, mcp?: McpSectionDeps["mcp"]) {
  let settings: VaultAgentSettings = { ...loadSettings(null), ...stored };
  const saved: Partial<VaultAgentSettings>[] = [];
  const { app, fake } = fakeApp();
  const services = {
    desktopOnly,
    listModels: async () => [],
    modelsFolder: () => "/vault/.obsidian/plugins/vault-agent/models",
    userDataFolder: () => "/home/me/.vault-agent",
    moveData: async () => MOVED,
    testServer: async () => {
      throw new Error("No server runs here.");
    },
    checkLlamaServer: async (path: string) => ({ path: path || "/usr/bin/llama-server", version: "b6000" }),
  } as unknown as PluginServices;
  const engineInstall = {
    current: { kind: "idle" },
    onChange: () => () => undefined,
    status: async () => ({ platform: null, needed: "1", current: null, developer: false, ready: false, updateNeeded: false, offer: null, gpuOffers: [], dataFolder: "/d" }),
  } as unknown as InstallController;
  const plugin = new TestPlugin(fake, { id: "vault-agent", name: "Vault Agent", version: "0", minAppVersion: "1.8.7", description: "", author: "" });
  const tab = new VaultAgentSettingTab(app, plugin as unknown as RealPlugin, {
    settings: () => settings,
    engineSettings: () => settings,
    save: async (patch) => {
      saved.push(patch);
      settings = { ...settings, ...patch };
    },
    services,
    engineStatus: (): EngineStatus => ({ state: "idle" }),
    hostStatus: async () => null,
    memoryStatus: () => "12 notes indexed.",
    rebuildIndex: () => undefined,
    openHotkeys: () => undefined,
    engineInstall,
    mcp,
  });
  fake.setting.tabs.push(tab as never);
  return { app, fake, tab, saved, settings: () => settings, items: () => tab.getSettingDefinitions() as SettingItem[] };
}

/** The rows the fake settings window shows now: [section heading or row name], hidden ones left out. */
function shownRows(el: HTMLElement): string[] {
  return [...el.querySelectorAll<HTMLElement>(".setting-item")]
    .filter((row) => !row.hidden && !row.parentElement?.closest(".setting-item"))
    .map((row) => row.querySelector(".setting-item-name")?.textContent ?? "");
}

/** What the definitions say is shown: section headings and the rows whose `visible` holds, in order. */
function definedRows(items: SettingItem[]): string[] {
  return items.flatMap((item) => (isSection(item) ? (isVisible(item) ? [item.heading, ...item.items.filter(isVisible).map((r: SettingRow) => r.name)] : []) : isVisible(item) ? [item.name] : []));
}

function rowNamed(el: HTMLElement, name: string): HTMLElement {
  const row = [...el.querySelectorAll<HTMLElement>(".setting-item")].find((r) => r.querySelector(".setting-item-name")?.textContent === name);
  if (!row) throw new Error(`No row named ${name}.`);
  return row;
}

/** The tab as the fake settings window sees it. */
const fakeTab = (tab: VaultAgentSettingTab) => tab as unknown as FakeSettingTab;

afterEach(() => setFakeApiVersion("1.8.7"));

describe("the settings tab's declarative definitions", () => {
  it("binds every control's key to its settings field through getControlValue and setControlValue", async () => {
    const family = toolFamilies()[0].family;
    const { tab, saved, settings, items } = setup({ mcpConfig: { mcpServers: { weather: { command: "weather-mcp" } } }, excludedFolders: ["Private", "Journal/2024"] });
    // key -> [what the control shows, a value the user sets, the patch saved]
    const expected: Record<string, [unknown, unknown, Partial<VaultAgentSettings>]> = {
      engineKind: ["builtin", "openai", { engineKind: "openai" }],
      serverUrl: ["", " http://10.0.0.2:8080 ", { serverUrl: "http://10.0.0.2:8080" }],
      serverModel: ["", " qwen ", { serverModel: "qwen" }],
      userModelsFolder: ["", " /home/me/models ", { userModelsFolder: "/home/me/models" }],
      contextSize: [0, 8192, { contextSize: 8192 }],
      gpuLayers: ["-1", "0", { gpuLayers: 0 }],
      threads: [0, 4, { threads: 4 }],
      stateCacheMb: [300, 0, { stateCacheMb: 0 }],
      checkpointMb: [512, 256, { checkpointMb: 256 }],
      temperature: [0.7, 0.2, { temperature: 0.2 }],
      thinkFirst: [false, true, { thinkFirst: true }],
      idleUnloadMinutes: [10, 0, { idleUnloadMinutes: 0 }],
      routerTopK: [3, 5, { routerTopK: 5 }],
      routerThreshold: [0.3, 0.45, { routerThreshold: 0.45 }],
      maxToolRounds: [5, 8, { maxToolRounds: 8 }],
      conversationMaxMb: [2, 10, { conversationMaxMb: 10 }],
      writePolicy: ["confirm", "refuse", { writePolicy: "refuse" }],
      networkTools: [false, true, { networkTools: true }],
      indexFolder: ["", "Indexes/", { indexFolder: "Indexes" }],
      excludedFolders: ["Private\nJournal/2024", "Private\n\n Archive/ \n", { excludedFolders: ["Private", "Archive"] }],
      memoryFolder: ["Memory", "", { memoryFolder: "Memory" }],
      indexOnlyWhileCharging: [false, true, { indexOnlyWhileCharging: true }],
      conversationStorage: ["plugin", "vault", { conversationStorage: "vault" }],
      conversationFolder: ["Vault agent/Conversations", "Chats//2025", { conversationFolder: "Chats/2025" }],
      dataLocation: ["plugin", "user", { dataLocation: "user", modelPath: "", embeddingModelPath: "" }],
      runtimeMirror: ["", " https://mirror.example/packs/ ", { runtimeMirror: "https://mirror.example/packs/" }],
      journalMaxMb: [50, 100, { journalMaxMb: 100 }],
      journalMaxDays: [30, 7, { journalMaxDays: 7 }],
      [`${TRUSTED_SERVER_KEY}weather`]: [false, true, { trustedMcpServers: ["weather"] }],
      [`${TOOL_FAMILY_KEY}${family}`]: [true, false, { disabledToolFamilies: [family] }],
    };
    const keys = controlRows(items()).map((row) => row.control.key);
    // Every tool family has its switch; one stands for them all above.
    const families = toolFamilies().map((f) => `${TOOL_FAMILY_KEY}${f.family}`);
    expect(keys.filter((k) => !families.includes(k) || k === `${TOOL_FAMILY_KEY}${family}`).sort()).toEqual(Object.keys(expected).sort());
    expect(keys.filter((k) => k.startsWith(TOOL_FAMILY_KEY)).sort()).toEqual(families.sort());
    for (const [key, [shown, set, patch]] of Object.entries(expected)) {
      expect(tab.getControlValue(key), key).toEqual(shown);
      saved.length = 0;
      await tab.setControlValue(key, set);
      expect(saved, key).toEqual([patch]);
      for (const [field, value] of Object.entries(patch)) expect(settings()[field as keyof VaultAgentSettings], key).toEqual(value);
    }
  });

  it("gives every row a name, and every control search aliases", () => {
    const { items } = setup();
    for (const row of controlRows(items())) expect(row.aliases?.length, row.name).toBeGreaterThan(0);
    const names = items().flatMap((item) => (isSection(item) ? item.items.map((r) => r.name) : [item.name]));
    expect(names.every((n) => n.trim().length > 0)).toBe(true);
  });

  it("refuses a number out of range or not whole, and a server address that is not http", async () => {
    const { items } = setup();
    const rows = controlRows(items());
    const rounds = rows.find((r) => r.control.key === "maxToolRounds")!.control;
    const url = rows.find((r) => r.control.key === "serverUrl")!.control;
    if (rounds.type !== "number" || url.type !== "text") throw new Error("unexpected control types");
    expect(rounds.validate?.(0)).toBe("Enter a whole number from 1 to 20.");
    expect(rounds.validate?.(2.5)).toBe("Enter a whole number from 1 to 20.");
    expect(rounds.validate?.(20)).toBeUndefined();
    expect(url.validate?.("ftp://h")).toMatch(/not an http or https address/);
    expect(url.validate?.("")).toBeUndefined();
  });

  it("on 1.13 draws the API key as Obsidian's SecretComponent, which saves the secret's name", async () => {
    setFakeApiVersion("1.13.1");
    const { fake, tab, saved } = setup({ engineKind: "openai", serverApiKeySecret: "my-key" });
    fake.setting.open();
    fake.setting.openTabById("vault-agent");
    expect(fakeTab(tab).shownDefinitions).not.toBeNull();
    const key = rowNamed(tab.containerEl, "API key");
    const picker = key.querySelector<HTMLInputElement>(".setting-item-control input.vault-agent-fake-secret");
    expect(picker?.value).toBe("my-key");
    expect(key.querySelector('input[type="password"]') ?? null).toBeNull();
    expect(key.querySelector(".setting-item-description")?.textContent).toMatch(/Obsidian's keychain/);
    picker!.value = "other-key ";
    picker!.dispatchEvent(new Event("input"));
    await Promise.resolve();
    expect(saved).toEqual([{ serverApiKeySecret: "other-key" }]);
  });

  it("before 1.11.4 the API key is a password field saved in data.json", async () => {
    const { fake, tab, saved } = setup({ engineKind: "openai", serverApiKey: "sk-1" });
    fake.setting.open();
    fake.setting.openTabById("vault-agent");
    const field = rowNamed(tab.containerEl, "API key").querySelector<HTMLInputElement>('input[type="password"]');
    expect(field?.value).toBe("sk-1");
    field!.value = "sk-2";
    field!.dispatchEvent(new Event("change"));
    await Promise.resolve();
    expect(saved).toEqual([{ serverApiKey: "sk-2" }]);
  });

  it("shows a row hidden by its visible() predicate once the setting it depends on changes", async () => {
    setFakeApiVersion("1.13.1");
    const { fake, tab, items } = setup();
    fake.setting.open();
    fake.setting.openTabById("vault-agent");
    const folderRow = () => rowNamed(tab.containerEl, "Conversations folder");
    const folderDef = items()
      .flatMap((i) => (isSection(i) ? i.items : [i]))
      .find((r) => r.name === "Conversations folder")!;
    expect(isVisible(folderDef)).toBe(false);
    expect(folderRow().hidden).toBe(true);
    const storage = rowNamed(tab.containerEl, "Store conversations in").querySelector("select")!;
    storage.value = "vault";
    storage.dispatchEvent(new Event("change"));
    await new Promise((r) => setTimeout(r, 0));
    expect(isVisible(folderDef)).toBe(true);
    expect(folderRow().hidden).toBe(false);

    // The server's rows follow the engine choice.
    expect(rowNamed(tab.containerEl, "Server URL").hidden).toBe(true);
    await tab.setControlValue("engineKind", "llama-server");
    expect(rowNamed(tab.containerEl, "Server URL").hidden).toBe(false);
    expect(rowNamed(tab.containerEl, "Server URL").querySelector(".setting-item-description")?.textContent).toMatch(/llama-server listens on/);
  });

  for (const version of ["1.8.7", "1.13.1"]) {
    it(`stops the live rows' updates when the tab hides, and a redraw does not leave the old ones listening (${version})`, async () => {
      setFakeApiVersion(version);
      const { listeners, mcp } = quietHub();
      const { fake, tab } = setup({}, undefined, mcp);
      fake.setting.open();
      fake.setting.openTabById("vault-agent");
      expect(rowNamed(tab.containerEl, "Servers").querySelector(".vault-agent-mcp-empty")?.textContent).toBe("No servers yet. Import a configuration below.");
      expect(listeners.size).toBe(1);
      await tab.setControlValue("engineKind", "openai");
      expect(listeners.size).toBe(1);
      fake.setting.close();
      expect(listeners.size).toBe(0);
    });
  }

  it("a failed move of models and engine saves nothing and says why", async () => {
    const { tab, saved } = setup();
    const services = (tab as unknown as { deps: { services: { moveData: () => Promise<unknown> } } }).deps.services;
    services.moveData = async () => {
      throw new Error("The folder for all vaults is not writable.");
    };
    const before = Notice.shown.length;
    await tab.setControlValue("dataLocation", "user");
    expect(saved).toEqual([]);
    expect(Notice.shown.slice(before)).toContain("The folder for all vaults is not writable.");
  });
});

describe("display() on apps before 1.13", () => {
  for (const [label, stored, desktopOnly] of [
    ["this computer", {}, undefined],
    ["a server, conversations in the vault", { engineKind: "openai", conversationStorage: "vault", mcpConfig: { mcpServers: { files: {} } } }, undefined],
    ["llama.cpp on this computer", { engineKind: "llama-cpp" }, undefined],
    ["a phone", { engineKind: "llama-server" }, "Needs the desktop app."],
  ] as [string, Partial<VaultAgentSettings>, string | undefined][]) {
    it(`draws the same rows as the definitions (${label})`, () => {
      const { fake, tab, items } = setup(stored, desktopOnly);
      fake.setting.open();
      fake.setting.openTabById("vault-agent");
      expect(fakeTab(tab).shownDefinitions).toBeNull();
      const drawn = shownRows(tab.containerEl);
      expect(drawn).toEqual(definedRows(items()));
      // And the app of 1.13 draws the same from the definitions.
      setFakeApiVersion("1.13.1");
      const newer = setup(stored, desktopOnly);
      newer.fake.setting.open();
      newer.fake.setting.openTabById("vault-agent");
      expect(fakeTab(newer.tab).shownDefinitions).not.toBeNull();
      expect(shownRows(newer.tab.containerEl)).toEqual(drawn);
    });
  }

  it("saves what the user sets through the same bindings, and refuses a bad number", async () => {
    const { fake, tab, saved } = setup();
    fake.setting.open();
    fake.setting.openTabById("vault-agent");
    rowNamed(tab.containerEl, "Network tools").querySelector<HTMLElement>(".checkbox-container")!.click();
    const folders = rowNamed(tab.containerEl, "Excluded folders").querySelector("textarea")!;
    folders.value = "Private/\nArchive";
    folders.dispatchEvent(new Event("change"));
    const rounds = rowNamed(tab.containerEl, "Tool rounds per message").querySelector("input")!;
    rounds.value = "50";
    rounds.dispatchEvent(new Event("change"));
    await new Promise((r) => setTimeout(r, 0));
    expect(saved).toEqual([{ networkTools: true }, { excludedFolders: ["Private", "Archive"] }]);
    expect(rounds.classList.contains("is-invalid")).toBe(true);
    expect(Notice.shown.at(-1)).toBe("Enter a whole number from 1 to 20.");
  });

  it("leaves hidden rows out, and draws them when the setting they follow changes", async () => {
    const { fake, tab } = setup();
    fake.setting.open();
    fake.setting.openTabById("vault-agent");
    expect(shownRows(tab.containerEl)).not.toContain("Server URL");
    expect(shownRows(tab.containerEl)).not.toContain("Conversations folder");
    const storage = rowNamed(tab.containerEl, "Store conversations in").querySelector("select")!;
    storage.value = "vault";
    storage.dispatchEvent(new Event("change"));
    await new Promise((r) => setTimeout(r, 0));
    expect(shownRows(tab.containerEl)).toContain("Conversations folder");
    const engine = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")].find(
      (r) => !r.classList.contains("setting-item-heading") && r.querySelector(".setting-item-name")?.textContent === "Engine",
    )!;
    const select = engine.querySelector("select")!;
    select.value = "openai";
    select.dispatchEvent(new Event("change"));
    await new Promise((r) => setTimeout(r, 0));
    expect(rowNamed(tab.containerEl, "Server URL").hidden).toBe(false);
    expect(rowNamed(tab.containerEl, "Server URL").querySelector(".setting-item-description")?.textContent).toMatch(/localhost:1234/);
  });
});
