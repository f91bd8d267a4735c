/**
 * Edit in place as the plugin wires it, over the fake Obsidian app: the registered editor extension on a real
 * CodeMirror state, proposals from recorded replies through the replay engine (checked against the edit grammar),
 * an accepted change saved to the vault and journaled, and "Undo the agent's last change" (AgentUndo over the
 * ObsidianVault) restoring the note byte for byte.
 */
import { EditorState, type Extension, type TransactionSpec } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import type { Editor, MarkdownView, Plugin as RealPlugin } from "obsidian";
import { describe, expect, it } from "vitest";
import { ChangeJournal } from "../../../src/core/journal";
import type { JournalStore } from "../../../src/core/ports/journal-store";
import { ReplayEngine } from "../../../src/engine/replay";
import { registerEditInPlace } from "../../../src/plugin/editor/edit-command";
import { acceptChanges, editRunner, editSession, proposeChanges, setPhase } from "../../../src/plugin/editor/edit-state";
import { AgentUndo } from "../../../src/plugin/undo/agent-undo";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { Plugin } from "../../fakes/app";
import { fakeApp } from "../../fakes/fake-app";
import { MemoryBackend } from "../../fakes/vault";

const NOTE = "# Garden\n\nThe tomatos are planted in bed one. Is the soil too dry?\n\n## Tasks\n- buy compost\n";
const REPLY = JSON.stringify({ edits: [{ find: "The tomatos are planted in bed one.", replace: "The tomatoes are planted in bed one." }, { find: "Is the soil too dry?", replace: "Is the soil dry?" }] });

class TestPlugin extends Plugin {}

function memoryStore(): JournalStore {
  const records = new Map<string, string>();
  return {
    list: async () => [...records].map(([key, text]) => ({ key, size: text.length })),
    load: async (key) => records.get(key) ?? null,
    save: async (key, text) => void records.set(key, text),
    remove: async (key) => void records.delete(key),
  };
}

describe("edit in place in the plugin", () => {
  it("proposes through the engine, journals an accept, and the agent's undo restores the bytes", async () => {
    const { app, fake } = fakeApp(new MemoryBackend({ "Garden.md": NOTE }));
    const plugin = new TestPlugin(fake, { id: "vault-agent", name: "Vault Agent", version: "0", minAppVersion: "1.8.7", description: "", author: "" });
    const vault = new ObsidianVault(app);
    const store = memoryStore();
    const journal = new ChangeJournal(store);
    const undo = new AgentUndo({ journal: new ChangeJournal(store), vault, notice: () => undefined, confirmConflict: async () => false });
    let journaled = 0;
    const edit = registerEditInPlace(plugin as unknown as RealPlugin, { engine: new ReplayEngine([REPLY]), vault, journal, readiness: async () => null, journaled: () => void journaled++ });
    expect(plugin.editorExtensions).toHaveLength(1);

    // The editor Obsidian would give the command: a CodeMirror state with the registered extension.
    const holder = {
      state: EditorState.create({ doc: NOTE, extensions: plugin.editorExtensions as Extension[] }),
      dispatch(spec: TransactionSpec) {
        holder.state = holder.state.update(spec).state;
      },
      focus: () => undefined,
      constructor: { scrollIntoView: () => setPhase.of({ phase: "prompt" }) },
    };
    const view = holder as unknown as EditorView;
    const file = fake.vault.getAbstractFileByPath("Garden.md");
    const ctx = { file, save: async () => void (await app.vault.modify(file as never, holder.state.doc.toString())) } as unknown as MarkdownView;
    expect(edit.available({ cm: view } as unknown as Editor, ctx)).toBe(true);
    expect(edit.open({ cm: view } as unknown as Editor, ctx)).toBe(true);
    expect(editSession(view.state)?.phase).toBe("prompt");

    const runner = view.state.facet(editRunner)!;
    const session = editSession(view.state)!;
    const proposal = await runner.propose({ note: NOTE, from: session.from, to: session.to }, "fix the typos", { signal: new AbortController().signal, onProgress: () => undefined });
    view.dispatch({ effects: setPhase.of({ phase: "proposing" }) });
    view.dispatch({ effects: proposeChanges.of({ changes: proposal.changes, final: true }) });
    // Without a selection the edit takes the section under the cursor: "# Garden" up to "## Tasks".
    expect(NOTE.slice(session.from, session.to)).toBe("# Garden\n\nThe tomatos are planted in bed one. Is the soil too dry?");
    expect(editSession(view.state)?.changes.map((c) => [c.deleted, c.insert])).toEqual([["tomatos", "tomatoes"], ["too ", ""]]);

    await acceptChanges(view, [1]);
    const accepted = NOTE.replace("tomatos", "tomatoes");
    expect(view.state.doc.toString()).toBe(accepted);
    expect(await vault.read("Garden.md")).toBe(accepted);
    expect(journaled).toBe(1);
    await undo.refresh();
    expect(undo.canUndoLast).toBe(true);
    await undo.undoLast();
    expect(await vault.read("Garden.md")).toBe(NOTE);
  });
});
