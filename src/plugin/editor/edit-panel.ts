/**
 * The panel above the note while an edit is open: the prompt (an instruction, recent ones offered; Enter sends,
 * Escape closes), then "Proposing…" with Stop, then the review bar (Accept all, Reject all, the keys, and one
 * sentence when changes were dropped). A CodeMirror panel, so it lives and dies with the editor.
 */
import { showPanel, type EditorView, type Panel, type ViewUpdate } from "@codemirror/view";
import { editButton } from "./edit-decorations";
import { acceptChanges, editField, editRunner, rejectChanges, type EditSession } from "./edit-state";

export interface PanelActions {
  send(view: EditorView, instruction: string): void;
  stop(view: EditorView): void;
}

/** "Mod" in the key hints, as the platform names it. */
function modKey(doc: Document): string {
  return /Mac|iPhone|iPad/.test(doc.defaultView?.navigator.userAgent ?? "") ? "⌘" : "Ctrl";
}

class EditPanel implements Panel {
  readonly dom: HTMLElement;
  readonly top = true;
  private shown = "";

  constructor(
    private readonly view: EditorView,
    private readonly actions: PanelActions,
  ) {
    this.dom = createDiv({ cls: "vault-agent-edit-panel" });
    this.render(view.state.field(editField));
  }

  mount(): void {
    this.dom.querySelector<HTMLInputElement>(".vault-agent-edit-input")?.focus();
  }

  update(update: ViewUpdate): void {
    this.render(update.state.field(editField));
  }

  private render(session: EditSession | null): void {
    if (!session) return;
    // The prompt is drawn once (its input keeps what is typed); the other phases follow the state.
    const key = session.phase === "prompt" ? `prompt|${session.notice ?? ""}` : `${session.phase}|${session.changes.length}|${session.accepted}|${session.notice ?? ""}`;
    if (key === this.shown) return;
    this.shown = key;
    this.dom.replaceChildren();
    this.dom.dataset.phase = session.phase;
    if (session.phase === "prompt") this.renderPrompt(session);
    else if (session.phase === "proposing") this.renderProposing(session);
    else this.renderReview(session);
  }

  private el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string, parent: HTMLElement = this.dom): HTMLElementTagNameMap[K] {
    return parent.createEl(tag, { cls, ...(text !== undefined ? { text } : {}) });
  }

  private renderPrompt(session: EditSession): void {
    const row = this.el("div", "vault-agent-edit-row");
    this.el("span", "vault-agent-edit-title", "Edit with Vault Agent", row);
    const input = this.el("input", "vault-agent-edit-input", undefined, row);
    input.type = "text";
    input.placeholder = "Describe the change, for example: fix the typos";
    input.setAttribute("aria-label", "Instruction");
    const recent = this.view.state.facet(editRunner)?.recent() ?? [];
    let pick = -1;
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.isComposing) {
        e.preventDefault();
        if (input.value.trim()) this.actions.send(this.view, input.value.trim());
      } else if (e.key === "Escape") {
        e.preventDefault();
        rejectChanges(this.view, "all");
        this.view.focus();
      } else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && recent.length) {
        e.preventDefault();
        pick = Math.max(-1, Math.min(recent.length - 1, pick + (e.key === "ArrowDown" ? 1 : -1)));
        input.value = pick < 0 ? "" : recent[pick];
      }
    });
    editButton(row, "Send", "Send the instruction", "mod-cta", () => input.value.trim() && this.actions.send(this.view, input.value.trim()));
    editButton(row, "Close", "Close without changes", "mod-close", () => rejectChanges(this.view, "all"));
    if (session.notice) this.el("div", "vault-agent-edit-notice", session.notice);
    if (recent.length) {
      const list = this.el("div", "vault-agent-edit-recent");
      this.el("span", "vault-agent-edit-recent-label", "Recent:", list);
      for (const r of recent.slice(0, 5)) editButton(list, r, `Use “${r}”`, "mod-recent", () => this.actions.send(this.view, r));
    }
    this.el("div", "vault-agent-edit-hint", "Enter sends · Escape closes · ↑↓ recent instructions");
    if (this.dom.isConnected) queueMicrotask(() => input.focus());
  }

  private renderProposing(session: EditSession): void {
    const row = this.el("div", "vault-agent-edit-row");
    this.el("span", "vault-agent-edit-title", "Edit with Vault Agent", row);
    const n = session.changes.length;
    this.el("span", "vault-agent-edit-status", `Proposing changes…${n ? ` ${n} so far` : ""}`, row);
    editButton(row, "Stop", "Stop the proposal", "mod-close", () => this.actions.stop(this.view));
  }

  private renderReview(session: EditSession): void {
    const row = this.el("div", "vault-agent-edit-row");
    this.el("span", "vault-agent-edit-title", "Edit with Vault Agent", row);
    const n = session.changes.length;
    const done = session.accepted ? ` (${session.accepted} accepted)` : "";
    this.el("span", "vault-agent-edit-status", n ? `${n} ${n === 1 ? "change" : "changes"} to review${done}` : `Nothing left to review${done}`, row);
    if (n) {
      editButton(row, "Accept all", "Accept all changes", "mod-cta mod-accept-all", () => void acceptChanges(this.view, "all"));
      editButton(row, "Reject all", "Reject all changes", "mod-reject-all", () => rejectChanges(this.view, "all"));
    } else editButton(row, "Close", "Close", "mod-close", () => rejectChanges(this.view, "all"));
    if (session.notice) this.el("div", "vault-agent-edit-notice", session.notice);
    const mod = modKey(this.dom.ownerDocument);
    if (n) this.el("div", "vault-agent-edit-hint", `Alt+] / Alt+[ next or previous · Alt+Y accept · Alt+N reject · ${mod}+Enter accept all · Escape reject all`);
  }
}

/** The panel, shown while an edit is open. */
export function editPanel(actions: PanelActions) {
  return showPanel.from(editField, (session) => (session ? (view: EditorView) => new EditPanel(view, actions) : null));
}
