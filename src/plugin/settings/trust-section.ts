/** The settings' undo and outside-data section: the change journal's bound and the MCP servers trusted with vault text. */
import { Setting } from "obsidian";
import { numberSetting, type SectionDeps } from "./setting-inputs";

/** What the section needs from the plugin. */
export type TrustSectionDeps = SectionDeps;

export function renderTrustSection(containerEl: HTMLElement, deps: TrustSectionDeps): void {
  const s = deps.settings();
  new Setting(containerEl).setName("Undo and outside data").setHeading();
  numberSetting(containerEl, "Undo history size", "In megabytes. The oldest turns leave the change journal beyond this.", s.journalMaxMb, [1, 1000], (v) => deps.save({ journalMaxMb: v }));
  numberSetting(containerEl, "Undo history age", "In days. Turns older than this can no longer be undone.", s.journalMaxDays, [1, 365], (v) => deps.save({ journalMaxDays: v }));
  const servers = Object.keys(s.mcpConfig.mcpServers).sort();
  if (servers.length === 0) {
    new Setting(containerEl).setName("Trusted MCP servers").setDesc("No MCP servers are set up. Calls to MCP servers ask first, since their arguments leave the vault.");
    return;
  }
  for (const server of servers) {
    new Setting(containerEl)
      .setName(`Trust ${server}`)
      .setDesc("Its calls no longer ask first. Turn this on only for a server that keeps data on this computer: injected text could send vault notes through it.")
      .addToggle((t) =>
        t.setValue(s.trustedMcpServers.includes(server)).onChange(async (on) => {
          const trusted = new Set(deps.settings().trustedMcpServers);
          if (on) trusted.add(server);
          else trusted.delete(server);
          await deps.save({ trustedMcpServers: [...trusted].sort() });
        }),
      );
  }
}
