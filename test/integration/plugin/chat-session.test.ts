import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { AgentFactory } from "../../../src/plugin/agent/agent-factory";
import { ChatSession, type ChatProblem } from "../../../src/plugin/chat/chat-session";
import { ConversationStore } from "../../../src/plugin/chat/conversation-store";
import { DEFAULT_SETTINGS, type VaultAgentSettings } from "../../../src/plugin/settings/settings";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { ObsidianWorkspace } from "../../../src/plugin/vault/obsidian-workspace";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";

const say = (message: string, thought = "answering") => JSON.stringify({ thought, status: "Idle", message_to_user: message, tool_calls: [] });
const call = (name: string, args: Record<string, unknown>, message: string | null = null) =>
  JSON.stringify({ thought: `calling ${name}`, status: "Task", message_to_user: message, tool_calls: [{ name, args }] });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "chat-session-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setup(script: ScriptStep[], opts: { chunkDelayMs?: number; ready?: ChatProblem | null; settings?: Partial<VaultAgentSettings> } = {}) {
  const { app, fake } = fakeApp(new FolderBackend(root));
  const vault = new ObsidianVault(app);
  const engine = new ScriptedEngine(script, { chunkChars: 4, chunkDelayMs: opts.chunkDelayMs ?? 0 });
  const settings: VaultAgentSettings = { ...DEFAULT_SETTINGS, ...opts.settings };
  const factory = new AgentFactory({ engine, vault, workspace: new ObsidianWorkspace(app.workspace), settings: () => settings });
  const notices: string[] = [];
  const store = new ConversationStore(app.vault.adapter, () => ".obsidian/plugins/vault-agent/conversations");
  const session = new ChatSession({
    agentFor: (c, u) => factory.agentFor(c, u),
    store,
    vault,
    readiness: async () => opts.ready ?? null,
    explain: (message) => ({ message, action: /model/i.test(message) ? { label: "Open settings", run: () => undefined } : undefined }),
    notice: (m) => notices.push(m),
  });
  return { app, fake, vault, engine, session, store, notices };
}

describe("chat session over the real agent, a scripted engine and ObsidianVault", () => {
  it("streams the answer into the transcript and saves the conversation", async () => {
    const { session, store } = setup([say("Hello from your vault.")]);
    const snapshots: string[] = [];
    session.subscribe(() => {
      const last = session.transcript.items[session.transcript.items.length - 1];
      if (last?.kind === "assistant") snapshots.push(last.text);
    });
    await session.send("hi there");
    const kinds = session.transcript.items.map((i) => i.kind);
    expect(kinds).toEqual(["user", "assistant"]);
    const answer = session.transcript.items[1];
    expect(answer.kind === "assistant" && answer.text).toBe("Hello from your vault.");
    expect(answer.kind === "assistant" && answer.streaming).toBe(false);
    // The pane saw the message grow in several steps before it was complete.
    const partials = snapshots.filter((s) => s.length > 0 && s !== "Hello from your vault.");
    expect(partials.length).toBeGreaterThan(1);
    const saved = await store.list();
    expect(saved.map((s) => s.title)).toEqual(["hi there"]);
  });

  it("asks before a write, shows the preview, and writes the note once approved", async () => {
    const { session, vault } = setup([call("vault:write", { path: "Ideas.md", content: "# Ideas\n- grow tomatoes\n" }), say("Created Ideas.md.")]);
    session.subscribe(() => {
      const waiting = session.transcript.awaiting;
      if (waiting) {
        expect(waiting.confirm?.preview).toContain("grow tomatoes");
        session.answer("approve");
      }
    });
    await session.send("create a note called Ideas with a list");
    expect(await vault.read("Ideas.md")).toBe("# Ideas\n- grow tomatoes\n");
    const card = session.transcript.items.find((i) => i.kind === "tool");
    expect(card).toMatchObject({ name: "vault:write", status: "ok", decision: "approve" });
  });

  it("a denied write leaves the vault untouched", async () => {
    const { session, vault } = setup([call("vault:write", { path: "Ideas.md", content: "x" }), say("Okay, I did not write it.")]);
    session.subscribe(() => session.transcript.awaiting && session.answer("deny"));
    await session.send("create a note called Ideas");
    expect(await vault.exists("Ideas.md")).toBe(false);
    expect(session.transcript.items.find((i) => i.kind === "tool")).toMatchObject({ status: "denied" });
  });

  it("Allow for this conversation lets later writes of that tool run without asking again", async () => {
    const { session, vault } = setup([
      call("vault:write", { path: "A.md", content: "one" }),
      say("Wrote A."),
      call("vault:write", { path: "B.md", content: "two" }),
      say("Wrote B."),
    ]);
    let asked = 0;
    session.subscribe(() => {
      if (session.transcript.awaiting) {
        asked++;
        session.answer("always");
      }
    });
    await session.send("create a note called A");
    await session.send("create a note called B");
    expect(await vault.read("A.md")).toBe("one");
    expect(await vault.read("B.md")).toBe("two");
    expect(asked).toBe(1);
  });

  it("Stop aborts a streaming answer and marks the turn stopped", async () => {
    const long = say("word ".repeat(200));
    const { session } = setup([long], { chunkDelayMs: 2 });
    let stopped = false;
    session.subscribe(() => {
      const last = session.transcript.items[session.transcript.items.length - 1];
      if (!stopped && last?.kind === "assistant" && last.text.length > 20) {
        stopped = true;
        session.stop();
      }
    });
    await session.send("tell me a long story");
    expect(session.running).toBe(false);
    const kinds = session.transcript.items.map((i) => i.kind);
    expect(kinds[kinds.length - 1]).toBe("notice");
    const answer = session.transcript.items.find((i) => i.kind === "assistant");
    expect(answer?.kind).toBe("assistant");
    if (answer?.kind === "assistant") expect(answer.text.length).toBeLessThan(1000);
  });

  it("shows the readiness problem instead of running a turn", async () => {
    const { session, engine } = setup([say("never")], { ready: { message: "No model selected." } });
    await session.send("hello");
    expect(session.problem?.message).toBe("No model selected.");
    expect(session.draft).toBe("hello");
    expect(engine.served).toBe(0);
    expect(session.transcript.items).toEqual([]);
  });

  it("sends attached notes with the message and reopens a saved conversation", async () => {
    const { session, vault, engine } = setup([say("It is about tomatoes.")]);
    await vault.create("Garden.md", "Tomatoes need sun.");
    session.attach({ path: "Garden.md", label: "Garden.md" });
    await session.send("what is this note about?");
    const prompt = engine.requests[0].messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("Tomatoes need sun.");
    expect(session.attachments).toEqual([]);
    const id = session.conversation.id;
    await session.newConversation();
    expect(session.transcript.items).toEqual([]);
    await session.open(id);
    expect(session.transcript.items.map((i) => i.kind)).toEqual(["user", "assistant"]);
    expect(session.transcript.items[0]).toMatchObject({ text: "what is this note about?", attachments: ["Garden.md"] });
  });
});
