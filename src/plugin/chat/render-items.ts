/** DOM for each transcript item: user bubbles, streamed answers, tool-call cards with confirmation, notices. */
import { ButtonComponent, Component, MarkdownRenderer, setIcon, type App } from "obsidian";
import type { ConfirmDecision } from "../../core/ports/user";
import type { AssistantItem, ChatItem, NoticeItem, RoundOffer, ToolItem, UndoItem, UserItem } from "./transcript";
import { renderWordDiff } from "./word-diff-preview";

/** What item renderers may do besides drawing. */
export interface ItemActions {
  app: App;
  /** Source path for resolving [[links]] in answers. */
  sourcePath: string;
  answer(decision: ConfirmDecision): void;
  copy(text: string): void;
  insert(text: string): void;
  /** Undoes the turn's changes to the vault. */
  undoTurn(turnId: string): void;
}

/** Renders an item into `el` (emptied first). `owner` owns the Markdown components of this render. */
export function renderItem(el: HTMLElement, item: ChatItem, owner: Component, actions: ItemActions): void {
  el.empty();
  el.className = `vault-agent-item vault-agent-${item.kind}`;
  el.dataset.id = item.id;
  switch (item.kind) {
    case "user":
      return renderUser(el, item);
    case "assistant":
      return renderAssistant(el, item, owner, actions);
    case "tool":
      return renderTool(el, item, actions);
    case "notice":
      return renderNotice(el, item);
    case "undo":
      return renderUndo(el, item, actions);
  }
}

function renderUser(el: HTMLElement, item: UserItem): void {
  const bubble = el.createDiv({ cls: "vault-agent-bubble" });
  bubble.createDiv({ cls: "vault-agent-user-text", text: item.text });
  if (item.attachments.length) {
    const chips = bubble.createDiv({ cls: "vault-agent-chips" });
    for (const path of item.attachments) chips.createSpan({ cls: "vault-agent-chip", text: path });
  }
}

function renderAssistant(el: HTMLElement, item: AssistantItem, owner: Component, actions: ItemActions): void {
  el.toggleClass("is-streaming", item.streaming);
  if (item.thought.trim()) {
    const details = el.createEl("details", { cls: "vault-agent-thought" });
    details.createEl("summary", { text: "Thought" });
    details.createDiv({ cls: "vault-agent-thought-text", text: item.thought });
  }
  const body = el.createDiv({ cls: "vault-agent-answer markdown-rendered" });
  if (item.text) void MarkdownRenderer.render(actions.app, item.text, body, actions.sourcePath, owner);
  else if (item.streaming) body.createSpan({ cls: "vault-agent-typing", text: "Thinking…" });
  if (item.streaming) body.createSpan({ cls: "vault-agent-cursor" });
  if (!item.streaming && item.text.trim()) {
    const bar = el.createDiv({ cls: "vault-agent-answer-actions" });
    iconButton(bar, "copy", "Copy", () => actions.copy(item.text));
    iconButton(bar, "text-cursor-input", "Insert at cursor", () => actions.insert(item.text));
  }
}

const STATUS_TEXT: Record<ToolItem["status"], string> = {
  running: "Running",
  awaiting: "Needs approval",
  ok: "Done",
  failed: "Failed",
  denied: "Denied",
  stopped: "Stopped",
};

function renderTool(el: HTMLElement, item: ToolItem, actions: ItemActions): void {
  el.dataset.status = item.status;
  const card = el.createDiv({ cls: "vault-agent-card" });
  const header = card.createDiv({ cls: "vault-agent-card-header" });
  setIcon(header.createSpan({ cls: "vault-agent-card-icon" }), "wrench");
  header.createSpan({ cls: "vault-agent-tool-name", text: item.name });
  header.createSpan({ cls: `vault-agent-badge mod-${item.status}`, text: STATUS_TEXT[item.status] });
  if (item.endedAt !== undefined) header.createSpan({ cls: "vault-agent-card-time", text: formatDuration(item.endedAt - item.startedAt) });
  const args = formatArgs(item.args);
  if (args) card.createEl("code", { cls: "vault-agent-card-args", text: args });
  if (item.summary) card.createDiv({ cls: "vault-agent-card-result", text: item.summary });
  if (item.offered) {
    const details = card.createEl("details", { cls: "vault-agent-card-offered" });
    details.createEl("summary", { text: offeredTitle(item.offered) });
    details.createDiv({ cls: "vault-agent-card-offered-tools", text: offeredText(item.offered) });
  }
  if (item.status === "awaiting" && item.confirm) renderConfirm(card, item, actions);
}

/** "Tools offered in round 2 (2 new)": the summary line of a tool card's routing details. */
export function offeredTitle(offer: RoundOffer): string {
  const recovery = offer.branch === "targeted" || offer.branch === "static" ? ", narrowed for a retry" : "";
  const added = offer.added.length ? ` (${offer.added.length} new)` : "";
  return `Tools offered in round ${offer.round}${added}${recovery}`;
}

/** The offered tools, the new ones marked. */
export function offeredText(offer: RoundOffer): string {
  return offer.tools.map((t) => (offer.added.includes(t) ? `${t} (new)` : t)).join(", ");
}

function renderConfirm(card: HTMLElement, item: ToolItem, actions: ItemActions): void {
  const request = item.confirm!;
  const box = card.createDiv({ cls: "vault-agent-confirm" });
  box.createDiv({ cls: "vault-agent-confirm-summary", text: request.summary });
  if (request.origin) box.createDiv({ cls: "vault-agent-confirm-origin", text: request.origin });
  // The outbound-data policy's reasons: where the data goes, where an address came from, why it asks again.
  if (request.notes?.length) {
    const notes = box.createDiv({ cls: "vault-agent-confirm-notes" });
    for (const note of request.notes) notes.createDiv({ cls: "vault-agent-confirm-note", text: note });
  }
  if (request.effect === "destructive") box.createDiv({ cls: "vault-agent-confirm-destructive", text: "Destructive: it may delete or overwrite data." });
  const preview = box.createEl("pre", { cls: `vault-agent-preview mod-${request.previewKind}` });
  // Diffs (vault:edit, vault:write over a note, vault:append) are marked word by word.
  if (request.previewKind === "diff") renderWordDiff(preview, request.preview);
  else for (const line of request.preview.split("\n")) preview.createDiv({ cls: "vault-agent-preview-line", text: line === "" ? " " : line });
  const buttons = box.createDiv({ cls: "vault-agent-confirm-buttons" });
  new ButtonComponent(buttons)
    .setButtonText("Approve")
    .setCta()
    .onClick(() => actions.answer("approve"));
  new ButtonComponent(buttons).setButtonText("Deny").onClick(() => actions.answer("deny"));
  new ButtonComponent(buttons).setButtonText("Allow for this conversation").onClick(() => actions.answer("always"));
}

function renderNotice(el: HTMLElement, item: NoticeItem): void {
  el.addClass(`mod-${item.tone}`);
  el.createSpan({ text: item.text });
}

function renderUndo(el: HTMLElement, item: UndoItem, actions: ItemActions): void {
  el.dataset.state = item.state;
  if (item.state === "undone") {
    el.createSpan({ cls: "vault-agent-undo-done", text: "This turn's changes were undone." });
    return;
  }
  new ButtonComponent(el)
    .setButtonText("Undo this turn")
    .setTooltip("Puts back the notes this turn changed, exactly as they were")
    .onClick(() => actions.undoTurn(item.turnId));
}

function iconButton(parent: HTMLElement, icon: string, label: string, onClick: () => void): HTMLElement {
  const button = parent.createEl("button", { cls: "clickable-icon vault-agent-icon-button", attr: { "aria-label": label } });
  setIcon(button, icon);
  button.addEventListener("click", onClick);
  return button;
}

/** `path: "Ideas.md", content: "# Ideas…"` — compact, cut to one line. */
export function formatArgs(args: Record<string, unknown>): string {
  const parts = Object.entries(args).map(([k, v]) => {
    const text = typeof v === "string" ? JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v) : JSON.stringify(v);
    return `${k}: ${text}`;
  });
  const line = parts.join(", ");
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}
