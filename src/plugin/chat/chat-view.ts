/**
 * The chat side pane: renders a ChatSession (the conversation, tool cards, confirmations), takes input (Enter sends,
 * Shift+Enter adds a line), and shows the error banner, attachments, history and the engine's status line.
 */
import { ButtonComponent, Component, ItemView, Notice, setIcon, type WorkspaceLeaf } from "obsidian";
import type { EngineStatus } from "../engine/managed-engine";
import type { ChatSession, SessionChange } from "./chat-session";
import { composerKey } from "./composer-keys";
import { renderItem, type ItemActions } from "./render-items";

export const CHAT_VIEW_TYPE = "vault-agent-chat";

/** What the pane needs besides the session. */
export interface ChatViewDeps {
  session: ChatSession;
  /** The engine's status and a way to follow it. */
  engineStatus: { readonly current: EngineStatus; onStatus(listener: (status: EngineStatus) => void): () => void };
  /** The model's display name when the engine has not loaded yet (from settings). */
  modelLabel(): string;
  /** Renders the first-run engine card into its slot above the messages; returns its cleanup. */
  engineCard?: (el: HTMLElement) => () => void;
  /** Whether the chosen engine is this computer's (default) or a server: the empty state says where replies come from. */
  onServer?: () => boolean;
  /** Renders the staged-memory review into its slot above the composer; returns its cleanup. */
  memoryReview?: (el: HTMLElement) => () => void;
}

export class ChatView extends ItemView {
  private readonly deps: ChatViewDeps;
  private messagesEl!: HTMLElement;
  private emptyEl!: HTMLElement;
  private bannerEl!: HTMLElement;
  private chipsEl!: HTMLElement;
  private inputEl!: HTMLTextAreaElement;
  private sendButton!: ButtonComponent;
  private statusEl!: HTMLElement;
  private historyEl!: HTMLElement;
  /** Rendered item elements and the components that own their Markdown, by item id. */
  private readonly rendered = new Map<string, { el: HTMLElement; owner: Component }>();
  /** Item ids waiting for the next paint (streaming updates are batched). */
  private readonly dirty = new Set<string>();
  private paintTimer: number | null = null;

  constructor(leaf: WorkspaceLeaf, deps: ChatViewDeps) {
    super(leaf);
    this.deps = deps;
  }

  getViewType(): string {
    return CHAT_VIEW_TYPE;
  }

  getDisplayText(): string {
    return "Vault Agent";
  }

  override getIcon(): string {
    return "bot";
  }

  override async onOpen(): Promise<void> {
    const root = this.contentEl;
    root.empty();
    root.addClass("vault-agent-chat");

    const toolbar = root.createDiv({ cls: "vault-agent-toolbar" });
    toolbar.createDiv({ cls: "vault-agent-title", text: "Chat" });
    const tools = toolbar.createDiv({ cls: "vault-agent-toolbar-buttons" });
    this.toolbarButton(tools, "history", "Conversations", () => void this.toggleHistory());
    this.toolbarButton(tools, "plus", "New conversation", () => void this.deps.session.newConversation());
    this.historyEl = root.createDiv({ cls: "vault-agent-history is-hidden" });

    if (this.deps.engineCard) this.register(this.deps.engineCard(root.createDiv({ cls: "vault-agent-engine-card-slot" })));
    this.messagesEl = root.createDiv({ cls: "vault-agent-messages" });
    // Rendered Markdown only draws [[links]]; a view must open them itself (Ctrl/Cmd-click: in a new tab).
    this.registerDomEvent(this.messagesEl, "click", (evt: MouseEvent) => {
      const target = evt.target as Node | null;
      const link = target?.instanceOf(HTMLElement) ? target.closest<HTMLElement>("a.internal-link") : null;
      const href = link?.dataset.href ?? link?.getAttribute("href");
      if (!href) return;
      evt.preventDefault();
      void this.app.workspace.openLinkText(href, this.app.workspace.getActiveFile()?.path ?? "", evt.ctrlKey || evt.metaKey);
    });
    this.emptyEl = this.messagesEl.createDiv({ cls: "vault-agent-empty" });
    this.renderEmpty();

    this.bannerEl = root.createDiv({ cls: "vault-agent-banner is-hidden", attr: { role: "alert" } });
    this.chipsEl = root.createDiv({ cls: "vault-agent-attachments" });
    if (this.deps.memoryReview) this.register(this.deps.memoryReview(root.createDiv({ cls: "vault-agent-memory-slot" })));

    const composer = root.createDiv({ cls: "vault-agent-composer" });
    this.inputEl = composer.createEl("textarea", {
      cls: "vault-agent-input",
      attr: { placeholder: "Ask about your notes… (Enter sends, Shift+Enter adds a line)", rows: 3 },
    });
    this.registerDomEvent(this.inputEl, "keydown", (evt: KeyboardEvent) => {
      const action = composerKey(evt);
      if (action === "send") {
        evt.preventDefault();
        this.submit();
      }
    });
    this.sendButton = new ButtonComponent(composer).setCta().onClick(() => {
      if (this.deps.session.running) this.deps.session.stop();
      else this.submit();
    });
    this.sendButton.buttonEl.addClass("vault-agent-send");

    this.statusEl = root.createDiv({ cls: "vault-agent-status" });

    this.register(this.deps.session.subscribe((change) => this.onChange(change)));
    this.register(this.deps.engineStatus.onStatus(() => this.renderStatus()));
    this.renderAll();
  }

  override async onClose(): Promise<void> {
    if (this.paintTimer !== null) window.clearTimeout(this.paintTimer);
    for (const { owner } of this.rendered.values()) this.removeChild(owner);
    this.rendered.clear();
  }

  /** Puts the cursor in the input (used by commands that open the pane). */
  focusInput(): void {
    this.inputEl?.focus();
  }

  private submit(): void {
    const text = this.inputEl.value;
    if (!text.trim() || this.deps.session.running) return;
    this.inputEl.value = "";
    this.deps.session.draft = "";
    void this.deps.session.send(text);
  }

  private onChange(change: SessionChange): void {
    if (change.type === "reset") return this.renderAll();
    if (change.type === "state") return this.renderState();
    for (const id of change.ids) this.dirty.add(id);
    if (this.paintTimer === null) this.paintTimer = window.setTimeout(() => this.paint(), 40);
  }

  private renderAll(): void {
    for (const { el, owner } of this.rendered.values()) {
      this.removeChild(owner);
      el.remove();
    }
    this.rendered.clear();
    for (const item of this.deps.session.transcript.items) this.dirty.add(item.id);
    this.paint();
    this.renderState();
  }

  /** Draws dirty items (new ones at the end, in transcript order) and keeps the view scrolled to the bottom. */
  private paint(): void {
    this.paintTimer = null;
    const atBottom = this.messagesEl.scrollHeight - this.messagesEl.scrollTop - this.messagesEl.clientHeight < 40;
    const transcript = this.deps.session.transcript;
    const alive = new Set(transcript.items.map((i) => i.id));
    for (const [id, { el, owner }] of this.rendered) {
      if (!alive.has(id)) {
        this.removeChild(owner);
        el.remove();
        this.rendered.delete(id);
      }
    }
    let previous: HTMLElement | null = null;
    for (const item of transcript.items) {
      let entry = this.rendered.get(item.id);
      if (!entry) {
        const el = createDiv();
        if (previous) previous.after(el);
        else this.messagesEl.prepend(el);
        entry = { el, owner: this.addChild(new Component()) };
        this.rendered.set(item.id, entry);
        this.dirty.add(item.id);
      }
      if (this.dirty.has(item.id)) {
        // A fresh component per render, so Markdown children of the old render are released.
        this.removeChild(entry.owner);
        entry.owner = this.addChild(new Component());
        renderItem(entry.el, item, entry.owner, this.actions());
      }
      previous = entry.el;
    }
    this.dirty.clear();
    this.emptyEl.toggleClass("is-hidden", transcript.items.length > 0);
    if (atBottom) this.messagesEl.scrollTop = this.messagesEl.scrollHeight;
  }

  private actions(): ItemActions {
    const session = this.deps.session;
    return {
      app: this.app,
      sourcePath: this.app.workspace.getActiveFile()?.path ?? "",
      answer: (decision) => session.answer(decision),
      undoTurn: (turnId) => void session.undoTurn(turnId),
      copy: (text) => {
        void navigator.clipboard.writeText(text).then(
          () => new Notice("Answer copied."),
          () => new Notice("The answer could not be copied."),
        );
      },
      insert: (text) => {
        const editor = this.app.workspace.activeEditor?.editor;
        if (!editor) {
          new Notice("Open a note to insert the answer into.");
          return;
        }
        editor.replaceSelection(text);
      },
    };
  }

  private renderState(): void {
    const session = this.deps.session;
    this.sendButton.setButtonText(session.running ? "Stop" : "Send");
    this.sendButton.buttonEl.toggleClass("mod-warning", session.running);
    this.sendButton.buttonEl.toggleClass("mod-cta", !session.running);
    this.sendButton.buttonEl.setAttr("aria-label", session.running ? "Stop generation" : "Send message");
    this.inputEl.toggleClass("is-busy", session.running);
    if (session.draft && !this.inputEl.value) {
      this.inputEl.value = session.draft;
      session.draft = "";
    }

    this.chipsEl.empty();
    for (const a of session.attachments) {
      const chip = this.chipsEl.createSpan({ cls: "vault-agent-chip" });
      setIcon(chip.createSpan({ cls: "vault-agent-chip-icon" }), "file-text");
      chip.createSpan({ text: a.label });
      const remove = chip.createSpan({ cls: "vault-agent-chip-remove", attr: { "aria-label": "Remove attachment", role: "button" } });
      setIcon(remove, "x");
      remove.addEventListener("click", () => session.detach(a.label));
    }

    this.bannerEl.empty();
    const problem = session.problem;
    this.bannerEl.toggleClass("is-hidden", !problem);
    if (problem) {
      setIcon(this.bannerEl.createSpan({ cls: "vault-agent-banner-icon" }), "alert-triangle");
      this.bannerEl.createSpan({ cls: "vault-agent-banner-text", text: problem.message });
      if (problem.action) {
        const action = problem.action;
        new ButtonComponent(this.bannerEl).setButtonText(action.label).setCta().onClick(() => action.run());
      }
      const dismiss = this.bannerEl.createSpan({ cls: "clickable-icon vault-agent-banner-dismiss", attr: { "aria-label": "Dismiss" } });
      setIcon(dismiss, "x");
      dismiss.addEventListener("click", () => session.setProblem(null));
    }
    this.renderStatus();
  }

  private renderStatus(): void {
    if (!this.statusEl) return;
    const status = this.deps.engineStatus.current;
    const parts = [status.modelName ?? this.deps.modelLabel()];
    if (status.tokensPerSecond !== undefined) parts.push(`${status.tokensPerSecond.toFixed(1)} tok/s`);
    // What the engine read of the last prompt, by its own count; the rest it had kept from earlier turns.
    if (status.lastPrompt) parts.push(`read ${status.lastPrompt.evaluated} of ${status.lastPrompt.tokens} prompt tokens`);
    parts.push(STATE_TEXT[status.state]);
    if (status.constraint) parts.push(CONSTRAINT_TEXT[status.constraint]);
    this.statusEl.setText(parts.join(" · "));
    // The whole sentence on hover when a server ran the reply unconstrained.
    this.statusEl.setAttr("title", status.notice ?? null);
    this.statusEl.dataset.state = status.state;
  }

  private renderEmpty(): void {
    this.emptyEl.empty();
    setIcon(this.emptyEl.createDiv({ cls: "vault-agent-empty-icon" }), "bot");
    this.emptyEl.createDiv({ cls: "vault-agent-empty-title", text: "Ask about your notes" });
    const hints = this.emptyEl.createEl("ul", { cls: "vault-agent-empty-hints" });
    for (const hint of ["What did I write about the garden?", "Summarize this note", "Add a task to buy seeds to today's note"]) {
      const li = hints.createEl("li", { text: hint });
      li.addEventListener("click", () => {
        this.inputEl.value = hint;
        this.inputEl.focus();
      });
    }
    this.emptyEl.createDiv({ cls: "vault-agent-empty-note", text: `${this.deps.onServer?.() ? "Runs on your server" : "Runs on your computer"}. Edits are shown to you before they happen.` });
  }

  private async toggleHistory(): Promise<void> {
    const hidden = !this.historyEl.hasClass("is-hidden");
    this.historyEl.toggleClass("is-hidden", hidden);
    if (hidden) return;
    this.historyEl.empty();
    const list = await this.deps.session.history();
    if (list.length === 0) {
      this.historyEl.createDiv({ cls: "vault-agent-history-empty", text: "No saved conversations yet." });
      return;
    }
    for (const c of list) {
      const row = this.historyEl.createDiv({ cls: "vault-agent-history-row" });
      row.toggleClass("is-active", c.id === this.deps.session.conversation.id);
      const open = row.createDiv({ cls: "vault-agent-history-title", text: c.title });
      row.createDiv({ cls: "vault-agent-history-date", text: new Date(c.updatedAt).toLocaleString() });
      open.addEventListener("click", () => {
        this.historyEl.addClass("is-hidden");
        void this.deps.session.open(c.id);
      });
      const remove = row.createSpan({ cls: "clickable-icon", attr: { "aria-label": "Delete conversation" } });
      setIcon(remove, "trash");
      remove.addEventListener("click", () => {
        void this.deps.session.forget(c.id).then(() => {
          row.remove();
        });
      });
    }
  }

  private toolbarButton(parent: HTMLElement, icon: string, label: string, onClick: () => void): HTMLElement {
    const button = parent.createEl("button", { cls: "clickable-icon vault-agent-toolbar-button", attr: { "aria-label": label } });
    setIcon(button, icon);
    button.addEventListener("click", onClick);
    return button;
  }
}

/** What constrained the last reply, short for the status line. */
const CONSTRAINT_TEXT: Record<NonNullable<EngineStatus["constraint"]>, string> = {
  gbnf: "GBNF",
  json_schema: "JSON Schema",
  none: "no constraint",
};

const STATE_TEXT: Record<EngineStatus["state"], string> = {
  idle: "not loaded",
  starting: "starting",
  loading: "loading model",
  ready: "ready",
  generating: "generating",
  error: "engine error",
};
