/** The settings' memory and conversations sections: where indexes, memories and conversations live; rebuild; hotkeys. */
import { Setting, normalizePath } from "obsidian";
import { NO_BATTERY_STATUS } from "../memory/charging-gate";
import type { SectionDeps } from "./setting-inputs";

/** What the sections need from the plugin. */
export interface MemorySectionDeps extends SectionDeps {
  /** One line on the index: notes, passages, semantic or not. */
  memoryStatus: () => string;
  /** Rebuilds the semantic and text indexes. */
  rebuildIndex: () => void;
  /** Whether the device reports its battery; when it does not, the charging option says indexing runs at once. Default true. */
  batteryReported?: boolean;
}

export function renderMemorySection(containerEl: HTMLElement, deps: MemorySectionDeps): void {
  const s = deps.settings();
  new Setting(containerEl).setName("Memory").setHeading();
  new Setting(containerEl)
    .setName("Index folder")
    .setDesc("Vault folder where the search indexes are stored. Empty keeps them in the plugin's folder.")
    .addText((t) =>
      t
        .setPlaceholder("Plugin folder")
        .setValue(s.indexFolder)
        .onChange(async (v) => deps.save({ indexFolder: v.trim() ? normalizePath(v) : "" })),
    );
  new Setting(containerEl)
    .setName("Excluded folders")
    .setDesc("One folder per line. The agent neither reads nor indexes them.")
    .addTextArea((t) =>
      t.setValue(s.excludedFolders.join("\n")).onChange(async (v) =>
        deps.save({
          excludedFolders: v
            .split("\n")
            .map((l) => l.trim())
            .filter(Boolean)
            .map(normalizePath),
        }),
      ),
    );
  new Setting(containerEl)
    .setName("Memory notes folder")
    .setDesc("Where the agent saves facts you ask it to remember.")
    .addText((t) => t.setValue(s.memoryFolder).onChange(async (v) => deps.save({ memoryFolder: normalizePath(v || "Memory") })));
  new Setting(containerEl)
    .setName("Index only while charging")
    .setDesc(`Index vault and Rebuild index wait until the device is plugged in; edits are still indexed as you make them.${deps.batteryReported === false ? ` ${NO_BATTERY_STATUS}` : ""}`)
    .addToggle((t) => t.setValue(s.indexOnlyWhileCharging).onChange(async (on) => deps.save({ indexOnlyWhileCharging: on })));
  new Setting(containerEl)
    .setName("Rebuild index")
    .setDesc(`${deps.memoryStatus()} Rebuilding re-reads every note; progress shows in the status bar.`)
    .addButton((b) => b.setButtonText("Rebuild").onClick(() => deps.rebuildIndex()));
}

/** What the conversations section needs from the plugin. */
export interface ConversationsSectionDeps extends SectionDeps {
  /** Opens Obsidian's hotkey settings filtered to this plugin's commands. */
  openHotkeys: () => void;
  /** Re-renders the whole tab (the folder field shows only for vault storage). */
  redisplay: () => void;
}

export function renderConversationsSection(containerEl: HTMLElement, deps: ConversationsSectionDeps): void {
  const s = deps.settings();
  new Setting(containerEl).setName("Conversations").setHeading();
  new Setting(containerEl)
    .setName("Store conversations in")
    .setDesc("The plugin's folder keeps them out of your notes; a vault folder syncs them with the vault.")
    .addDropdown((d) =>
      d
        .addOptions({ plugin: "The plugin's folder", vault: "A vault folder" })
        .setValue(s.conversationStorage)
        .onChange(async (v) => {
          await deps.save({ conversationStorage: v === "vault" ? "vault" : "plugin" });
          deps.redisplay();
        }),
    );
  if (s.conversationStorage === "vault") {
    new Setting(containerEl)
      .setName("Conversations folder")
      .addText((t) => t.setValue(s.conversationFolder).onChange(async (v) => deps.save({ conversationFolder: normalizePath(v || "Vault agent/Conversations") })));
  }
  new Setting(containerEl)
    .setName("Hotkeys")
    .setDesc("Commands have no default hotkeys; assign your own.")
    .addButton((b) => b.setButtonText("Set hotkeys").onClick(() => deps.openHotkeys()));
}
