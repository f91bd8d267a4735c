/**
 * The plugin and the CLI build their agents through one assembly (src/app): over the same vault, with the same
 * choices, the chat pane's agent and the headless agent must offer the same tools, send the same system prompt and
 * constrain the reply with the same grammar. This is the check that would have caught the two copies drifting.
 */
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { Conversation } from "../../../src/core/agent/conversation";
import type { AgentEvent } from "../../../src/core/agent/events";
import type { GenerateRequest } from "../../../src/core/ports/engine";
import type { UserPort } from "../../../src/core/ports/user";
import { ScriptedEngine } from "../../../src/engine/scripted";
import { composeHeadless } from "../../../src/node/compose";
import { AgentFactory } from "../../../src/plugin/agent/agent-factory";
import { DEFAULT_SETTINGS, type VaultAgentSettings } from "../../../src/plugin/settings/settings";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";
import { copyVault, envelope } from "../agent/scripted-helpers";

const MESSAGES = ["What did I write about the garden in my daily notes?", "Add milk to my shopping list", "hi there, how are you?"];
const approve: UserPort = { confirm: async () => "approve", notify: () => undefined };

interface TurnSeen {
  offered: string[];
  chatOnly: boolean;
  system: string;
  /** Every message sent, the turn block with the offered tools included. */
  prompt: string;
  grammarSha: string;
}

function seen(request: GenerateRequest, events: AgentEvent[]): TurnSeen {
  const routed = events.find((e) => e.type === "routed");
  if (routed?.type !== "routed") throw new Error("the turn was not routed");
  return {
    offered: routed.tools.map((t) => t.name),
    chatOnly: routed.chatOnly,
    system: request.messages[0].content,
    prompt: JSON.stringify(request.messages),
    grammarSha: createHash("sha256").update(request.grammar ?? "").digest("hex"),
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function pluginTurns(vault: string, settings: VaultAgentSettings): Promise<TurnSeen[]> {
  const { app } = fakeApp(new FolderBackend(vault));
  const engine = new ScriptedEngine([envelope([], "ok.")], { loop: true });
  const factory = new AgentFactory({ engine, vault: new ObsidianVault(app), workspace: new ObsidianWorkspace(app.workspace), settings: () => settings });
  const out: TurnSeen[] = [];
  try {
    for (const message of MESSAGES) {
      const agent = factory.agentFor(new Conversation(), approve);
      const events: AgentEvent[] = [];
      await agent.runTurn(message, { onEvent: (e) => void events.push(e) });
      out.push(seen(engine.requests[engine.requests.length - 1], events));
    }
  } finally {
    factory.dispose();
  }
  return out;
}

async function headlessTurns(vault: string, settings: VaultAgentSettings): Promise<TurnSeen[]> {
  const engine = new ScriptedEngine([envelope([], "ok.")], { loop: true });
  const headless = await composeHeadless({
    vault,
    engine,
    user: approve,
    allowWrites: settings.writePolicy === "confirm",
    memory: false,
    routerOptions: { topK: settings.routerTopK, threshold: settings.routerThreshold },
    settings: { memoryFolder: settings.memoryFolder, excludedFolders: settings.excludedFolders },
    agentOptions: { maxRounds: settings.maxToolRounds, temperature: settings.temperature, writesOffHint: "turn on write confirmations in the Vault Agent settings to let the agent edit notes." },
    catalog: { semantic: false, network: settings.networkTools },
  });
  const out: TurnSeen[] = [];
  try {
    for (const message of MESSAGES) {
      headless.agent.conversation = new Conversation();
      const events: AgentEvent[] = [];
      await headless.agent.runTurn(message, { onEvent: (e) => void events.push(e) });
      out.push(seen(engine.requests[engine.requests.length - 1], events));
    }
  } finally {
    await headless.close();
  }
  return out;
}

describe("one assembly for the plugin and the CLI", () => {
  it("routes, prompts and constrains a turn identically in both hosts over the same vault", async () => {
    const vault = copyVault();
    dirs.push(vault);
    const settings: VaultAgentSettings = { ...DEFAULT_SETTINGS };
    const [plugin, headless] = [await pluginTurns(vault, settings), await headlessTurns(vault, settings)];
    expect(plugin.map((t) => t.offered)).toEqual(headless.map((t) => t.offered));
    expect(plugin.map((t) => t.grammarSha)).toEqual(headless.map((t) => t.grammarSha));
    expect(plugin.map((t) => t.system)).toEqual(headless.map((t) => t.system));
    expect(plugin.map((t) => t.prompt)).toEqual(headless.map((t) => t.prompt));
    // The messages differ in kind, so the comparison is not of three empty turns.
    expect(plugin[0].offered.length).toBeGreaterThan(0);
    expect(plugin[2].chatOnly).toBe(true);
    expect(new Set(plugin.map((t) => t.grammarSha)).size).toBe(3);
  });

  it("gives the router its embedding scorer in the plugin when an embedding model is set", async () => {
    const vault = copyVault();
    dirs.push(vault);
    const { app } = fakeApp(new FolderBackend(vault));
    let embedded = 0;
    const engine = new ScriptedEngine([envelope([], "ok.")], { loop: true });
    const embed = engine.embed.bind(engine);
    engine.embed = async (texts) => {
      embedded += texts.length;
      return embed(texts);
    };
    const settings: VaultAgentSettings = { ...DEFAULT_SETTINGS, embeddingModelPath: "/models/embed.gguf" };
    const factory = new AgentFactory({ engine, vault: new ObsidianVault(app), workspace: new ObsidianWorkspace(app.workspace), settings: () => settings });
    try {
      await factory.agentFor(new Conversation(), approve).runTurn(MESSAGES[0]);
      // The tool cards and the message were embedded: the router fused meaning with words.
      expect(embedded).toBeGreaterThan(1);
    } finally {
      factory.dispose();
    }
  });
});
