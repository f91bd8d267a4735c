/**
 * The browser harness for edit in place: a real CodeMirror 6 editor (the @codemirror/state and @codemirror/view that
 * Obsidian embeds) mounted as Obsidian's MarkdownView mounts it, with the plugin's editor extension and a runner like
 * the plugin's: proposals come from recorded replies through the replay engine (each checked against the edit
 * grammar, streamed with delays), accepted changes are saved to an in-memory vault and journaled, and the agent's
 * undo restores them through the vault into the editor, as Obsidian reloads an open note.
 */
import { EditorState, type Transaction } from "@codemirror/state";
import { EditorView, type ViewUpdate } from "@codemirror/view";
import { proposeEdit, RecentInstructions } from "../../../src/core/edit";
import { ChangeJournal, undoTurns } from "../../../src/core/journal";
import type { Engine, GenerateRequest } from "../../../src/core/ports/engine";
import type { JournalStore } from "../../../src/core/ports/journal-store";
import type { VaultPort } from "../../../src/core/ports/vault";
import { ReplayEngine } from "../../../src/engine/replay";
import { editExtension, startEdit } from "../../../src/plugin/editor/edit-extension";
import { editSession } from "../../../src/plugin/editor/edit-state";
import { installDomHelpers } from "../../fakes/dom";

installDomHelpers();

const PATH = "Garden.md";
let view: EditorView | null = null;
let script: { replies: string[]; chunkDelayMs: number; chunkChars: number } = { replies: [], chunkDelayMs: 0, chunkChars: 64 };
const files = new Map<string, string>();
const records = new Map<string, string>();
const accepts: Transaction[] = [];
const recent = new RecentInstructions(["Make it more formal"]);
let lastDiffMs = -1;
/** When the last generation ended, and how long after it the review was on screen (ms). */
let generationEnd = 0;
let toScreenMs = -1;
/** When the first chunk of the last stream arrived, and when its review was drawn (performance.now()). */
let streamStart = -1;
let reviewAt = -1;
/** The page's long tasks (over 50 ms), as Chromium reports them. */
const longTasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: "longtask", buffered: true });

const store: JournalStore = {
  list: async () => [...records].map(([key, text]) => ({ key, size: text.length })),
  load: async (key) => records.get(key) ?? null,
  save: async (key, text) => void records.set(key, text),
  remove: async (key) => void records.delete(key),
};
const journal = new ChangeJournal(store);

/** The vault the harness's note lives in; a write to the open note reaches the editor, as in Obsidian. */
const vault = {
  configDir: ".obsidian",
  exists: async (p: string) => files.has(p),
  read: async (p: string) => {
    const text = files.get(p);
    if (text === undefined) throw Object.assign(new Error(`${p} is missing`), { code: "not_found" });
    return text;
  },
  create: async (p: string, text: string) => void files.set(p, text),
  process: async (p: string, fn: (current: string) => string) => {
    const next = fn(files.get(p) ?? "");
    files.set(p, next);
    if (p === PATH && view && view.state.doc.toString() !== next) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
    return next;
  },
  trash: async (p: string) => void files.delete(p),
  move: async () => undefined,
} as unknown as VaultPort;

/** The replay engine, its chunks re-sent with delays so the stream can be watched. */
function delayedReplay(replies: string[]): Engine {
  const replay = new ReplayEngine(replies);
  return {
    async generate(request: GenerateRequest) {
      const chunks: string[] = [];
      const result = await replay.generate({ ...request, onText: (c) => chunks.push(c) });
      const text = chunks.join("");
      // The replay engine checked the reply against the round's grammar above, in one synchronous call that stands for
      // the model's prompt evaluation (a real engine runs in the engine host or a server, never in this thread): the
      // stream, and the frames it may block, start with the first chunk.
      streamStart = -1;
      for (let i = 0; i < text.length; i += script.chunkChars) {
        if (request.signal?.aborted) return { ...result, stopReason: "abort" as const };
        if (script.chunkDelayMs) await new Promise((r) => setTimeout(r, script.chunkDelayMs));
        if (streamStart < 0) streamStart = performance.now();
        request.onText?.(text.slice(i, i + script.chunkChars));
      }
      generationEnd = performance.now();
      return result;
    },
    embed: () => replay.embed(),
    countTokens: (t) => replay.countTokens(t),
    modelInfo: () => replay.modelInfo(),
  };
}

function boot(options: { theme: "light" | "dark"; note: string; mobile?: boolean }): void {
  document.body.className = `theme-${options.theme}${options.mobile ? " is-mobile is-phone" : ""}`;
  document.body.replaceChildren();
  files.set(PATH, options.note);
  const leaf = document.body.createDiv({ cls: "workspace-leaf-content", attr: { "data-type": "markdown" } });
  leaf.createDiv({ cls: "view-header", text: "Garden" });
  const content = leaf.createDiv({ cls: "view-content" });
  const source = content.createDiv({ cls: "markdown-source-view cm-s-obsidian mod-cm6 is-live-preview" });
  view = new EditorView({
    parent: source,
    state: EditorState.create({
      doc: options.note,
      extensions: [
        EditorView.lineWrapping,
        // The review is on screen when the update that ends the stream has been drawn (CodeMirror draws in dispatch).
        EditorView.updateListener.of((u: ViewUpdate) => {
          if (editSession(u.state)?.phase === "review" && editSession(u.startState)?.phase === "proposing") {
            reviewAt = performance.now();
            toScreenMs = reviewAt - generationEnd;
          }
        }),
        EditorView.theme({ "&": { height: "100%", fontSize: "16px" }, ".cm-content": { fontFamily: "var(--font-text)", padding: "16px 24px", caretColor: "var(--text-normal)" }, ".cm-scroller": { lineHeight: "1.6" } }),
        editExtension({
          propose: async (target, instruction, o) => {
            const result = await proposeEdit(delayedReplay(script.replies), target, instruction, o);
            lastDiffMs = result.diffMs;
            return result;
          },
          recent: () => recent.list(),
          remember: (instruction) => void recent.add(instruction),
          accepted: async (_v, before, after) => {
            const pending = await journal.begin({ turnId: `edit-${Date.now()}`, callId: "edit", tool: "edit-in-place" }, { op: "modify", path: PATH, before });
            files.set(PATH, after);
            await journal.finish(pending, after);
          },
        }),
      ],
    }),
    dispatchTransactions: (trs, v) => {
      for (const tr of trs) if (tr.isUserEvent("input.vault-agent-edit")) accepts.push(tr);
      v.update(trs);
    },
  });
}

function editor(): EditorView {
  if (!view) throw new Error("Boot the harness first.");
  return view;
}

const harness = {
  boot,
  script(replies: string[], o: { chunkDelayMs?: number; chunkChars?: number } = {}) {
    script = { replies, chunkDelayMs: o.chunkDelayMs ?? 0, chunkChars: o.chunkChars ?? 64 };
  },
  select(from: number, to: number) {
    editor().dispatch({ selection: { anchor: from, head: to } });
    editor().focus();
  },
  /** The command: opens the prompt on the selection, or the section under the cursor. */
  start: () => startEdit(editor()),
  doc: () => editor().state.doc.toString(),
  saved: () => files.get(PATH),
  session: () => {
    const s = editSession(editor().state);
    return s && { phase: s.phase, from: s.from, to: s.to, changes: s.changes.map((c) => ({ id: c.id, deleted: c.deleted, insert: c.insert })), current: s.current, notice: s.notice };
  },
  type(at: number, text: string) {
    editor().dispatch({ changes: { from: at, insert: text }, userEvent: "input.type" });
  },
  /** What the editor's history does on undo: the last accept transaction inverted. */
  editorUndo() {
    const tr = accepts.pop();
    if (tr) editor().dispatch({ changes: tr.changes.invert(tr.startState.doc), userEvent: "undo" });
  },
  /** "Undo the agent's last change": the newest journaled turn undone through the vault. */
  async undoLast() {
    const [turn] = await journal.turns();
    if (!turn) return false;
    await undoTurns(journal, vault, [turn]);
    return true;
  },
  journaledTurns: async () => (await journal.turns()).length,
  diffMs: () => lastDiffMs,
  toScreenMs: () => toScreenMs,
  /** The longest task (over 50 ms; 0 when none) from the stream's first chunk until its review was drawn. */
  longestTaskWhileStreaming: () => Math.max(0, ...longTasks.filter((t) => t.start + t.duration >= streamStart && t.start <= reviewAt).map((t) => t.duration)),
};

(window as unknown as { editHarness: typeof harness }).editHarness = harness;
