/** The settings' undo and outside-data section: the change journal's bound and the MCP servers trusted with vault text. */
import { TRUSTED_SERVER_KEY } from "./setting-bindings";
import { numberRow, toggleRow, type SettingRow, type SettingSection } from "./setting-rows";
import type { VaultAgentSettings } from "./settings";

export function trustSection(s: VaultAgentSettings): SettingSection {
  const servers = Object.keys(s.mcpConfig.mcpServers).sort();
  const trust: SettingRow[] = servers.length
    ? servers.map((server) =>
        toggleRow(
          `${TRUSTED_SERVER_KEY}${server}`,
          `Trust ${server}`,
          "Its calls no longer ask first. Turn this on only for a server that keeps data on this computer: injected text could send vault notes through it.",
          ["trusted MCP servers", "outbound data"],
        ),
      )
    : [{ name: "Trusted MCP servers", desc: "No MCP servers are set up. Calls to MCP servers ask first, since their arguments leave the vault.", aliases: ["outbound data"] }];
  return {
    type: "group",
    heading: "Undo and outside data",
    items: [
      numberRow("journalMaxMb", "Undo history size", "In megabytes. The oldest turns leave the change journal beyond this.", [1, 1000], ["change journal", "undo"]),
      numberRow("journalMaxDays", "Undo history age", "In days. Turns older than this can no longer be undone.", [1, 365], ["change journal", "undo"]),
      ...trust,
    ],
  };
}
