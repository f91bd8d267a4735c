/** What the chat pane's agent gets from the vault and the settings: daily-notes settings and the network transport. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { AgentFactory } from "../../../src/plugin/agent/agent-factory";
import { ChatSession } from "../../../src/plugin/chat/chat-session";
import { ConversationStore } from "../../../src/plugin/chat/conversation-store";
import type { ToolItem } from "../../../src/plugin/chat/transcript";
import { DEFAULT_SETTINGS, type VaultAgentSettings } from "../../../src/plugin/settings/settings";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";

const say = (message: string) => JSON.stringify({ thought: "done", status: "Idle", message_to_user: message, tool_calls: [] });
const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ thought: `calling ${name}`, status: "Task", message_to_user: null, tool_calls: [{ name, args }] });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "factory-wiring-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function session(script: ScriptStep[], patch: Partial<VaultAgentSettings> = {}) {
  const { app } = fakeApp(new FolderBackend(root));
  const settings: VaultAgentSettings = { ...DEFAULT_SETTINGS, ...patch };
  const factory = new AgentFactory({
    engine: new ScriptedEngine(script, { chunkChars: 8 }),
    vault: new ObsidianVault(app),
    workspace: new ObsidianWorkspace(app.workspace),
    settings: () => settings,
    readConfigFile: async (name) => {
      const file = `${app.vault.configDir}/${name}`;
      return (await app.vault.adapter.exists(file)) ? app.vault.adapter.read(file) : null;
    },
  });
  return new ChatSession({
    agentFor: (c, u) => factory.agentFor(c, u),
    store: new ConversationStore(app.vault.adapter, () => ".obsidian/plugins/vault-agent/conversations"),
    vault: new ObsidianVault(app),
    readiness: async () => null,
    explain: (message) => ({ message }),
    notice: () => undefined,
  });
}

const toolItems = (s: ChatSession) => s.transcript.items.filter((i): i is ToolItem => i.kind === "tool");

describe("the chat pane's agent wiring", () => {
  it("reads daily notes from the folder and date format in Obsidian's daily-notes settings", async () => {
    mkdirSync(join(root, ".obsidian"), { recursive: true });
    writeFileSync(join(root, ".obsidian", "daily-notes.json"), JSON.stringify({ folder: "Journal", format: "DD.MM.YYYY" }));
    mkdirSync(join(root, "Journal"));
    writeFileSync(join(root, "Journal", "23.11.2026.md"), "Planted garlic in the north bed.\n");
    const s = session([call("daily:get", { date: "2026-11-23" }), say("You planted garlic.")]);
    await s.send("what did I do on 2026-11-23?");
    const [item] = toolItems(s);
    expect(item.status).toBe("ok");
    expect(item.summary).toContain("Planted garlic in the north bed.");
  });

  describe("web:fetch", () => {
    let server: Server;
    let url: string;
    beforeEach(async () => {
      server = createServer((_req, res) => {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html><body><h1>Seed catalog</h1><p>Tomato seeds are back in stock.</p></body></html>");
      });
      await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/catalog`;
    });
    afterEach(() => new Promise<void>((done) => server.close(() => done())));

    it("fetches a page through Obsidian's request API when network tools are on", async () => {
      const s = session([call("web:fetch", { url }), say("They are back in stock.")], { networkTools: true });
      await s.send(`fetch the page ${url}`);
      const [item] = toolItems(s);
      expect(item.status).toBe("ok");
      expect(item.summary).toContain("Tomato seeds are back in stock.");
    });
  });
});
