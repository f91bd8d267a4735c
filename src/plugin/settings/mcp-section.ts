/**
 * The settings' MCP section: each configured server with an on/off switch, its state (starting, ready, failed with the
 * reason), a retry, and its tools (each on/off, with its effect and how its schema compiled); and an import of a
 * Claude-Desktop `{"mcpServers": {...}}` JSON. Live: it redraws when a server's state or tool list changes.
 */
import { Setting } from "obsidian";
import { McpConfigError, parseMcpConfig } from "../../engine/mcp/mcp-config";
import type { McpHub } from "../../engine/mcp/mcp-hub";
import type { McpServerView } from "../../core/ports/mcp";
import { mcpToolDefinitions, type McpToolReport } from "../../tools/mcp/mcp-tools";
import { uniqueParts } from "../../tools/mcp/mcp-tool-name";
import { destructive } from "./legacy-api";
import type { SettingSection } from "./setting-rows";
import type { VaultAgentSettings } from "./settings";

/** What the section needs from the plugin. */
export interface McpSectionDeps {
  settings: () => VaultAgentSettings;
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
  mcp: { hub: McpHub; problems: string[]; reload(): void };
  /** Set where child processes cannot run (mobile): why; stdio servers are then hidden and counted. */
  stdioHidden?: string | null;
}

/** Names of the configured servers that run as a local command (stdio). */
function stdioNames(settings: VaultAgentSettings): Set<string> {
  try {
    return new Set(parseMcpConfig(JSON.stringify(settings.mcpConfig)).filter((s) => s.transport === "stdio").map((s) => s.name));
  } catch {
    return new Set();
  }
}

const STATE_TEXT: Record<McpServerView["state"], string> = { stopped: "Not started", starting: "Starting…", ready: "Ready", failed: "Failed" };

/** How each tool of a ready server compiled, by its name on the server. */
function reportsFor(view: McpServerView, part: string, hub: McpHub): Map<string, McpToolReport> {
  const { reports } = mcpToolDefinitions({ server: view.name, serverPart: part, tools: view.tools, host: hub });
  return new Map(reports.map((r) => [r.tool, r]));
}

const INTRO =
  "Tools from Model Context Protocol servers join the agent's tools. Servers start when a message first needs them; tools that can change things ask before they run.";

/** The section: one live row that lists the servers (their state changes while the tab is open) and imports more. */
export function mcpSection(deps: McpSectionDeps): SettingSection {
  return {
    type: "group",
    heading: "MCP servers",
    items: [
      {
        name: "Servers",
        desc: INTRO,
        aliases: ["MCP", "Model Context Protocol", "import servers", "Claude Desktop", "tools"],
        render: (setting) => renderMcpSection(setting.infoEl, deps),
      },
    ],
  };
}

/** Renders the servers and the import into `el`; returns the function that stops its live updates. */
export function renderMcpSection(el: HTMLElement, deps: McpSectionDeps): () => void {
  const section = el.createDiv({ cls: "vault-agent-mcp" });
  let importError = "";
  let importText = "";
  const patchServer = async (name: string, change: (entry: Record<string, unknown>) => void): Promise<void> => {
    const servers = { ...deps.settings().mcpConfig.mcpServers };
    const entry = { ...((servers[name] ?? {}) as Record<string, unknown>) };
    change(entry);
    servers[name] = entry;
    await deps.save({ mcpConfig: { mcpServers: servers } });
    deps.mcp.reload();
  };

  const draw = (): void => {
    section.empty();
    for (const problem of deps.mcp.problems) section.createDiv({ cls: "vault-agent-error-text", text: problem });
    const all = deps.mcp.hub.servers();
    const parts = uniqueParts(all.map((v) => v.name));
    const hidden = deps.stdioHidden ? stdioNames(deps.settings()) : new Set<string>();
    const views = all.filter((v) => !hidden.has(v.name));
    if (hidden.size) section.createDiv({ cls: "vault-agent-muted vault-agent-mcp-hidden", text: `${hidden.size} local (stdio) ${hidden.size === 1 ? "server is" : "servers are"} hidden. ${deps.stdioHidden}` });
    if (views.length === 0) section.createDiv({ cls: "vault-agent-mcp-empty", text: "No servers yet. Import a configuration below." });
    for (const view of views) {
      const box = section.createDiv({ cls: `vault-agent-mcp-server mod-${view.enabled ? view.state : "off"}` });
      box.dataset.server = view.name;
      const state = view.enabled ? STATE_TEXT[view.state] : "Off";
      const toolCount = view.state === "ready" ? ` · ${view.tools.length} tools` : "";
      const row = new Setting(box)
        .setName(view.name)
        .setDesc(`${state}${toolCount}`)
        .addToggle((t) =>
          t
            .setValue(view.enabled)
            .setTooltip(view.enabled ? "Turn this server off" : "Turn this server on")
            .onChange(async (on) => patchServer(view.name, (entry) => (on ? delete entry.disabled : (entry.disabled = true)))),
        );
      if (view.enabled && view.state !== "starting") {
        row.addButton((b) => b.setButtonText(view.state === "ready" ? "Restart" : "Start").onClick(() => void deps.mcp.hub.restart(view.name)));
      }
      row.addButton((b) =>
        destructive(b.setButtonText("Remove")).onClick(async () => {
            const servers = { ...deps.settings().mcpConfig.mcpServers };
            delete servers[view.name];
            await deps.save({ mcpConfig: { mcpServers: servers } });
            deps.mcp.reload();
          }),
      );
      row.settingEl.addClass("vault-agent-mcp-server-row");
      if (view.reason && view.state === "failed") box.createDiv({ cls: "vault-agent-error-text vault-agent-mcp-reason", text: view.reason });
      if (view.state !== "ready" || !view.enabled) continue;
      const reports = reportsFor(view, parts.get(view.name) ?? view.name, deps.mcp.hub);
      const list = box.createDiv({ cls: "vault-agent-mcp-tools" });
      for (const tool of view.tools) {
        const report = reports.get(tool.name);
        const on = !view.disabledTools.includes(tool.name);
        const marks = [report?.effect === "read" ? "read-only" : report?.effect === "destructive" ? "destructive" : "changes things", report ? report.status : ""].filter(Boolean);
        const setting = new Setting(list)
          .setName(tool.name)
          .setDesc(`${marks.join(" · ")}${report?.status === "refused" || report?.status === "relaxed" ? `: ${report.details.join("; ")}` : ""}`)
          .addToggle((t) =>
            t.setValue(on).onChange(async (enabled) =>
              patchServer(view.name, (entry) => {
                const off = new Set(Array.isArray(entry.disabledTools) ? (entry.disabledTools as string[]) : []);
                if (enabled) off.delete(tool.name);
                else off.add(tool.name);
                if (off.size) entry.disabledTools = [...off];
                else delete entry.disabledTools;
              }),
            ),
          );
        setting.settingEl.addClass("vault-agent-mcp-tool");
        setting.settingEl.dataset.effect = report?.effect ?? "";
      }
    }

    new Setting(section)
      .setName("Import servers")
      .setDesc('Paste a Claude Desktop configuration: {"mcpServers": {"name": {"command": "…", "args": […]}}}. Servers with the same name are replaced.')
      .addTextArea((t) => {
        t.setPlaceholder('{"mcpServers": {}}').setValue(importText);
        t.inputEl.addClass("vault-agent-mcp-import");
        t.inputEl.rows = 4;
        t.onChange((v) => {
          importText = v;
        });
      })
      .addButton((b) =>
        b
          .setButtonText("Import")
          .setCta()
          .onClick(async () => {
            try {
              const servers = parseMcpConfig(importText, "The pasted configuration");
              const json = JSON.parse(importText) as { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> };
              const incoming = json.mcpServers ?? json.servers ?? {};
              await deps.save({ mcpConfig: { mcpServers: { ...deps.settings().mcpConfig.mcpServers, ...incoming } } });
              importError = "";
              importText = "";
              deps.mcp.reload();
              if (servers.length === 0) importError = "The pasted configuration has no servers.";
            } catch (err) {
              importError = err instanceof McpConfigError ? err.message : String(err);
            }
            draw();
          }),
      );
    if (importError) section.createDiv({ cls: "vault-agent-error-text vault-agent-mcp-import-error", text: importError });
  };

  draw();
  return deps.mcp.hub.onChange(() => draw());
}
