/** The WorkspacePort over Obsidian's workspace: the note in the active editor and its selection. */
import type { Workspace } from "obsidian";
import type { WorkspacePort } from "../../core/ports/vault";

export class ObsidianWorkspace implements WorkspacePort {
  constructor(private readonly workspace: Workspace) {}

  activeNote(): { path: string } | null {
    const file = this.workspace.activeEditor?.file ?? this.workspace.getActiveFile();
    return file ? { path: file.path } : null;
  }

  selection(): { path: string; text: string; fromLine: number; toLine: number } | null {
    const active = this.workspace.activeEditor;
    const editor = active?.editor;
    if (!editor || !active.file || !editor.somethingSelected()) return null;
    const text = editor.getSelection();
    if (text.trim() === "") return null;
    return { path: active.file.path, text, fromLine: editor.getCursor("from").line, toLine: editor.getCursor("to").line };
  }
}
