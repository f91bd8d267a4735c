/** The settings' memory and conversations sections: where indexes, memories and conversations live; rebuild; hotkeys. */
import { NO_BATTERY_STATUS } from "../memory/charging-gate";
import { toggleRow, type SettingSection } from "./setting-rows";
import type { VaultAgentSettings } from "./settings";

/** What the sections need from the plugin. */
export interface MemorySectionDeps {
  settings: () => VaultAgentSettings;
  /** One line on the index: notes, passages, semantic or not. */
  memoryStatus: () => string;
  /** Rebuilds the semantic and text indexes. */
  rebuildIndex: () => void;
  /** Whether the device reports its battery; when it does not, the charging option says indexing runs at once. Default true. */
  batteryReported?: boolean;
}

const REBUILD_NOTE = "Rebuilding re-reads every note; progress shows in the status bar.";

export function memorySection(deps: MemorySectionDeps): SettingSection {
  return {
    type: "group",
    heading: "Memory",
    items: [
      {
        name: "Index folder",
        desc: "Vault folder where the search indexes are stored. Empty keeps them in the plugin's folder.",
        aliases: ["search index", "vectra"],
        control: { type: "folder", key: "indexFolder", placeholder: "Plugin folder" },
      },
      {
        name: "Excluded folders",
        desc: "One folder per line. The agent neither reads nor indexes them.",
        aliases: ["ignore", "private folders"],
        control: { type: "textarea", key: "excludedFolders", rows: 3 },
      },
      {
        name: "Memory notes folder",
        desc: "Where the agent saves facts you ask it to remember.",
        aliases: ["memories", "remember"],
        control: { type: "folder", key: "memoryFolder", placeholder: "Memory" },
      },
      toggleRow(
        "indexOnlyWhileCharging",
        "Index only while charging",
        `Index vault and Rebuild index wait until the device is plugged in; edits are still indexed as you make them.${deps.batteryReported === false ? ` ${NO_BATTERY_STATUS}` : ""}`,
        ["battery", "power"],
      ),
      {
        // Live: the index's state when the row is drawn.
        name: "Rebuild index",
        desc: REBUILD_NOTE,
        aliases: ["reindex", "search index", "memory status"],
        render: (setting) => {
          setting.setDesc(`${deps.memoryStatus()} ${REBUILD_NOTE}`).addButton((b) => b.setButtonText("Rebuild").onClick(() => deps.rebuildIndex()));
        },
      },
    ],
  };
}

/** What the conversations section needs from the plugin. */
export interface ConversationsSectionDeps {
  settings: () => VaultAgentSettings;
  /** Opens Obsidian's hotkey settings filtered to this plugin's commands. */
  openHotkeys: () => void;
}

export function conversationsSection(deps: ConversationsSectionDeps): SettingSection {
  return {
    type: "group",
    heading: "Conversations",
    items: [
      {
        name: "Store conversations in",
        desc: "The plugin's folder keeps them out of your notes; a vault folder syncs them with the vault.",
        aliases: ["conversation storage", "chat history", "sync"],
        control: { type: "dropdown", key: "conversationStorage", options: { plugin: "The plugin's folder", vault: "A vault folder" } },
      },
      {
        name: "Conversations folder",
        desc: "The vault folder that holds the conversations.",
        aliases: ["chat history"],
        // Only for conversations stored in the vault.
        visible: () => deps.settings().conversationStorage === "vault",
        control: { type: "folder", key: "conversationFolder", placeholder: "Vault agent/Conversations" },
      },
      {
        name: "Hotkeys",
        desc: "Commands have no default hotkeys; assign your own.",
        aliases: ["keyboard shortcuts", "commands"],
        render: (setting) => {
          setting.addButton((b) => b.setButtonText("Set hotkeys").onClick(() => deps.openHotkeys()));
        },
      },
    ],
  };
}
