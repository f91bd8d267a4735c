/** The "Let thinking models think first" toggle of the model section. */
import { Setting } from "obsidian";
import { THINK_FIRST_TOKENS, type VaultAgentSettings } from "./settings";

export function renderThinkingSetting(containerEl: HTMLElement, s: VaultAgentSettings, save: (patch: Partial<VaultAgentSettings>) => Promise<void>): void {
  new Setting(containerEl)
    .setName("Let thinking models think first")
    .setDesc(
      `Models with a thinking mode (Qwen3, Gemma 4, SmolLM3) may think for up to ${THINK_FIRST_TOKENS} tokens before each reply. Slower; the thoughts are never shown as the answer. Off runs them with thinking off.`,
    )
    .addToggle((t) => t.setValue(s.thinkFirst).onChange(async (v) => save({ thinkFirst: v })));
}
