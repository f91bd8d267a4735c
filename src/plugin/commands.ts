/** The plugin's commands. Stable ids, no default hotkeys; editor commands appear only when a note is open. */
import type { Editor, MarkdownFileInfo, MarkdownView, Plugin } from "obsidian";
import type { ChatSession } from "./chat/chat-session";
import type { EditInPlace } from "./editor/edit-command";

export interface CommandDeps {
  session: ChatSession;
  /** Opens (or reveals) the chat pane. */
  openChat(): Promise<void>;
  /** Indexes the vault; `rebuild` starts from scratch. */
  index(rebuild: boolean): void;
  /** Edit in place (the editor extension); the command is offered only where it is registered. */
  editInPlace?: EditInPlace;
  /** The PDF open in the PDF view and what "Ask about this PDF" attaches of it; absent: the command is never available. */
  pdf?: {
    active(): { path: string; page: number } | null;
    excerpt(path: string, page: number): Promise<{ label: string; text: string }>;
  };
  /** Builds a canvas of a note's links (journaled); absent: the command is not offered. */
  canvasOfLinks?: (path: string) => Promise<void>;
}

/** Ids, for the hotkey filter and tests. */
export const COMMAND_IDS = [
  "open-chat",
  "ask-about-note",
  "ask-about-pdf",
  "ask-about-selection",
  "summarize-note",
  "index-vault",
  "rebuild-index",
  "stop-generation",
  "new-conversation",
  "undo-last-change",
  "edit-in-place",
  "canvas-of-links",
] as const;

function lineRange(editor: Editor): string {
  const from = editor.getCursor("from").line + 1;
  const to = editor.getCursor("to").line + 1;
  return from === to ? `line ${from}` : `lines ${from}–${to}`;
}

export function registerCommands(plugin: Plugin, deps: CommandDeps): void {
  const { session } = deps;

  plugin.addCommand({ id: "open-chat", name: "Open chat", callback: () => void deps.openChat() });

  plugin.addCommand({
    id: "ask-about-note",
    name: "Ask about this note",
    editorCheckCallback: (checking: boolean, editor: Editor, ctx: MarkdownView | MarkdownFileInfo) => {
      const file = ctx.file;
      if (!file) return false;
      if (checking) return true;
      if (editor.somethingSelected()) {
        session.attach({ path: file.path, label: `${file.path} (${lineRange(editor)})`, text: editor.getSelection() });
      } else {
        session.attach({ path: file.path, label: file.path });
      }
      void deps.openChat();
      return true;
    },
  });

  plugin.addCommand({
    id: "ask-about-pdf",
    name: "Ask about this PDF",
    checkCallback: (checking: boolean) => {
      const pdf = deps.pdf;
      const open = pdf?.active() ?? null;
      if (!open || !pdf) return false;
      if (checking) return true;
      void pdf
        .excerpt(open.path, open.page)
        .then((attachment) => {
          session.attach({ path: open.path, ...attachment });
          return deps.openChat();
        })
        .catch((error: unknown) => console.error("Vault agent: the PDF could not be attached", error));
      return true;
    },
  });

  plugin.addCommand({
    id: "ask-about-selection",
    name: "Ask about selection",
    editorCheckCallback: (checking: boolean, editor: Editor, ctx: MarkdownView | MarkdownFileInfo) => {
      const file = ctx.file;
      if (!file || !editor.somethingSelected()) return false;
      if (checking) return true;
      session.attach({ path: file.path, label: `${file.path} (${lineRange(editor)})`, text: editor.getSelection() });
      void deps.openChat();
      return true;
    },
  });

  plugin.addCommand({
    id: "summarize-note",
    name: "Summarize this note",
    editorCheckCallback: (checking: boolean, _editor: Editor, ctx: MarkdownView | MarkdownFileInfo) => {
      const file = ctx.file;
      if (!file || session.running) return false;
      if (checking) return true;
      session.attach({ path: file.path, label: file.path });
      void deps.openChat().then(() => session.send("Summarize this note in a few bullet points."));
      return true;
    },
  });

  plugin.addCommand({ id: "index-vault", name: "Index vault", callback: () => deps.index(false) });
  plugin.addCommand({ id: "rebuild-index", name: "Rebuild index", callback: () => deps.index(true) });

  plugin.addCommand({
    id: "stop-generation",
    name: "Stop generation",
    checkCallback: (checking: boolean) => {
      if (!session.running) return false;
      if (!checking) session.stop();
      return true;
    },
  });

  plugin.addCommand({ id: "new-conversation", name: "New conversation", callback: () => void session.newConversation().then(() => deps.openChat()) });

  plugin.addCommand({
    id: "undo-last-change",
    name: "Undo the agent's last change",
    // Offered only while the journal holds a turn to undo.
    checkCallback: (checking: boolean) => {
      if (!session.canUndoLast) return false;
      if (!checking) void session.undoLast();
      return true;
    },
  });

  plugin.addCommand({
    id: "edit-in-place",
    // The palette shows "Vault Agent: Edit in place"; the editor's context menu says "Edit with Vault Agent…".
    name: "Edit in place",
    editorCheckCallback: (checking: boolean, editor: Editor, ctx: MarkdownView | MarkdownFileInfo) => {
      const edit = deps.editInPlace;
      if (!edit?.available(editor, ctx)) return false;
      if (!checking) edit.open(editor, ctx);
      return true;
    },
  });

  plugin.addCommand({
    id: "canvas-of-links",
    name: "Make a canvas of this note's links",
    editorCheckCallback: (checking: boolean, _editor: Editor, ctx: MarkdownView | MarkdownFileInfo) => {
      const file = ctx.file;
      if (!file || !deps.canvasOfLinks) return false;
      if (!checking) void deps.canvasOfLinks(file.path);
      return true;
    },
  });
}
