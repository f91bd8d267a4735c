/**
 * "Edit with Vault Agent…" in Obsidian: the editor extension registered for cleanup, the editor command (no default
 * hotkey) and the editor's context menu item. Proposals come from the engine under the edit grammar; accepted changes
 * are journaled like every agent change, so "Undo the agent's last change" takes them back.
 */
import type { EditorView } from "@codemirror/view";
import type { Editor, MarkdownFileInfo, MarkdownView, Menu, Plugin } from "obsidian";
import { proposeEdit, RecentInstructions } from "../../core/edit";
import type { ChangeJournal } from "../../core/journal";
import type { Engine } from "../../core/ports/engine";
import type { VaultPort } from "../../core/ports/vault";
import { editExtension, startEdit } from "./edit-extension";

export interface EditInPlaceDeps {
  engine: Engine;
  vault: VaultPort;
  journal: ChangeJournal;
  /** One sentence when the engine cannot run yet (no model, no server); null when it can. */
  readiness(): Promise<{ message: string } | null>;
  /** Called after accepted changes were journaled (the undo command rereads the journal). */
  journaled(): void;
}

const RECENT_KEY = "vault-agent-edit-recent";

/** Obsidian's editor is CodeMirror 6 underneath; `cm` is its EditorView. */
function editorView(editor: Editor): EditorView | null {
  const cm = (editor as unknown as { cm?: EditorView }).cm;
  return cm && typeof cm.dispatch === "function" ? cm : null;
}

/** The note each editor edits and how to save it, set when the prompt opens. */
const notes = new WeakMap<EditorView, { path: string; save?: () => Promise<void> }>();

/** What the command needs from the registered extension. */
export interface EditInPlace {
  /** Whether the editor can take an edit (a note in a CodeMirror 6 editor). */
  available(editor: Editor, ctx: MarkdownView | MarkdownFileInfo): boolean;
  /** Opens the prompt on the selection, or the section under the cursor. */
  open(editor: Editor, ctx: MarkdownView | MarkdownFileInfo): boolean;
}

/** Registers the editor extension (removed with the plugin) and the context menu item; the command is in commands.ts. */
export function registerEditInPlace(plugin: Plugin, deps: EditInPlaceDeps): EditInPlace {
  const app = plugin.app;
  const stored: unknown = app.loadLocalStorage(RECENT_KEY);
  const recent = new RecentInstructions(Array.isArray(stored) ? (stored as string[]) : []);
  plugin.registerEditorExtension(
    editExtension({
      async propose(target, instruction, options) {
        const problem = await deps.readiness();
        if (problem) throw new Error(`${problem.message} Set up the engine in the plugin's settings, then try again.`);
        return proposeEdit(deps.engine, target, instruction, options);
      },
      recent: () => recent.list(),
      remember: (instruction) => app.saveLocalStorage(RECENT_KEY, recent.add(instruction)),
      async accepted(view, before, after) {
        const note = notes.get(view);
        if (!note) return;
        const turnId = `edit-${Date.now().toString(36)}`;
        const pending = await deps.journal.begin({ turnId, callId: "edit", tool: "edit-in-place" }, { op: "modify", path: note.path, before });
        // The editor holds the change; saving puts it on disk, where undo compares and restores.
        if (note.save) await note.save();
        else await deps.vault.process(note.path, () => after);
        await deps.journal.finish(pending, after);
        deps.journaled();
      },
    }),
  );
  const open = (editor: Editor, ctx: MarkdownView | MarkdownFileInfo): boolean => {
    const view = editorView(editor);
    if (!view || !ctx.file) return false;
    const markdown = ctx as Partial<MarkdownView>;
    notes.set(view, { path: ctx.file.path, ...(typeof markdown.save === "function" ? { save: () => markdown.save!() } : {}) });
    startEdit(view);
    return true;
  };
  plugin.registerEvent(
    app.workspace.on("editor-menu", (menu: Menu, editor: Editor, ctx: MarkdownView | MarkdownFileInfo) => {
      if (!ctx.file || !editorView(editor)) return;
      menu.addItem((item) => item.setTitle("Edit with Vault Agent…").setIcon("wand-sparkles").onClick(() => open(editor, ctx)));
    }),
  );
  return { available: (editor, ctx) => !!ctx.file && editorView(editor) !== null, open };
}
