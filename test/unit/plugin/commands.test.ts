import { describe, expect, it } from "vitest";
import type { Plugin as RealPlugin } from "obsidian";
import { COMMAND_IDS, registerCommands } from "../../../src/plugin/commands";
import type { ChatSession } from "../../../src/plugin/chat/chat-session";
import { explainFailure } from "../../../src/plugin/readiness";
import { Plugin } from "../../fakes/app";
import { fakeApp } from "../../fakes/fake-app";
import { MemoryBackend } from "../../fakes/vault";

class TestPlugin extends Plugin {}

function setup() {
  const { fake } = fakeApp(new MemoryBackend({ "A.md": "alpha\nbeta\n" }));
  const plugin = new TestPlugin(fake, { id: "vault-agent", name: "Vault Agent", version: "0", minAppVersion: "1.8.7", description: "", author: "" });
  const calls: string[] = [];
  const session = {
    running: false,
    attachments: [] as { path: string; label: string; text?: string }[],
    attach(a: { path: string; label: string; text?: string }) {
      this.attachments.push(a);
    },
    stop: () => calls.push("stop"),
    send: async (text: string) => void calls.push(`send:${text}`),
    newConversation: async () => void calls.push("new"),
  };
  registerCommands(plugin as unknown as RealPlugin, {
    session: session as unknown as ChatSession,
    openChat: async () => void calls.push("open"),
    index: (rebuild) => calls.push(rebuild ? "rebuild" : "index"),
  });
  return { fake, session, calls };
}

describe("commands", () => {
  it("registers every command with a stable id, a sentence-case name and no default hotkey", () => {
    const { fake } = setup();
    const commands = Object.entries(fake.commands.commands);
    expect(commands.map(([id]) => id)).toEqual(COMMAND_IDS.map((id) => `vault-agent:${id}`));
    for (const [, command] of commands) {
      expect(command.hotkeys).toBeUndefined();
      // Sentence case; an acronym keeps its capitals ("Ask about this PDF").
      expect(command.name).toMatch(/^[A-Z][a-z]+( ([a-z]+('[a-z]+)?|PDF))*$/);
      expect(command.id).not.toContain("vault-agent");
    }
  });

  it("editor commands appear only with a note open; selection ones only with a selection", async () => {
    const { fake } = setup();
    expect(fake.commands.isAvailable("vault-agent:ask-about-note")).toBe(false);
    expect(fake.commands.isAvailable("vault-agent:summarize-note")).toBe(false);
    await fake.workspace.openNote("A.md");
    expect(fake.commands.isAvailable("vault-agent:ask-about-note")).toBe(true);
    expect(fake.commands.isAvailable("vault-agent:ask-about-selection")).toBe(false);
    await fake.workspace.openNote("A.md", { from: 6, to: 10 });
    expect(fake.commands.isAvailable("vault-agent:ask-about-selection")).toBe(true);
  });

  it("Ask about this note attaches the selection when there is one, else the whole note", async () => {
    const { fake, session, calls } = setup();
    await fake.workspace.openNote("A.md");
    fake.commands.executeCommandById("vault-agent:ask-about-note");
    expect(session.attachments.pop()).toEqual({ path: "A.md", label: "A.md" });
    await fake.workspace.openNote("A.md", { from: 6, to: 10 });
    fake.commands.executeCommandById("vault-agent:ask-about-note");
    expect(session.attachments.pop()).toEqual({ path: "A.md", label: "A.md (line 2)", text: "beta" });
    expect(calls.filter((c) => c === "open")).toHaveLength(2);
  });

  it("Stop generation is offered only while a turn runs", () => {
    const { fake, session, calls } = setup();
    expect(fake.commands.isAvailable("vault-agent:stop-generation")).toBe(false);
    session.running = true;
    expect(fake.commands.executeCommandById("vault-agent:stop-generation")).toBe(true);
    expect(calls).toContain("stop");
  });

  it("index commands build or rebuild", () => {
    const { fake, calls } = setup();
    fake.commands.executeCommandById("vault-agent:index-vault");
    fake.commands.executeCommandById("vault-agent:rebuild-index");
    expect(calls).toEqual(["index", "rebuild"]);
  });
});

describe("error banner actions", () => {
  it("offers Open settings for model and runtime failures, nothing for others", () => {
    let opened = 0;
    const open = () => opened++;
    const model = explainFailure("The model file /m.gguf does not exist; choose another model.", open);
    expect(model.action?.label).toBe("Open settings");
    model.action?.run();
    expect(opened).toBe(1);
    expect(explainFailure("The engine runtime is not installed.", open).action?.label).toBe("Open settings");
    expect(explainFailure("The turn was too long for the context.", open).action).toBeUndefined();
  });
});
