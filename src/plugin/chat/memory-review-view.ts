/**
 * Draws the staged-memory review in the chat pane: a bar "N memories staged" with Review, and the review list —
 * each fact with Keep, Edit and Drop, a fact that contradicts a kept memory shown side by side with it, Keep all,
 * and after a keep, where the notes went with an Undo.
 */
import { ButtonComponent, setIcon } from "obsidian";
import type { MemoryConflict } from "../../core/memory/staging-conflicts";
import type { ReviewItem } from "../../app/memory-review";
import type { ChatSession } from "./chat-session";
import type { StagedReview } from "./memory-review";

function plural(n: number): string {
  return `${n} ${n === 1 ? "memory" : "memories"}`;
}

/** Mounts the review into its slot above the composer; returns the cleanup. */
export function mountMemoryReview(el: HTMLElement, review: StagedReview, session: Pick<ChatSession, "subscribe">): () => void {
  el.addClass("vault-agent-memory");
  let shownCount = -1;
  const render = (): void => drawReview(el, review);
  const offReview = review.subscribe(render);
  const offSession = session.subscribe(() => {
    // A turn staged a fact, or another conversation opened: the bar follows, and an open list rereads.
    if (review.count === shownCount) return;
    shownCount = review.count;
    void review.refresh();
  });
  shownCount = review.count;
  render();
  return () => {
    offReview();
    offSession();
    el.empty();
  };
}

function drawReview(el: HTMLElement, review: StagedReview): void {
  el.empty();
  const count = review.count;
  el.toggleClass("is-hidden", count === 0 && !review.shown && !review.kept);
  if (count > 0 || review.shown) drawBar(el, review, count);
  if (review.shown) {
    const list = el.createDiv({ cls: "vault-agent-memory-list", attr: { role: "list" } });
    for (const item of review.items) drawItem(list, item, review);
    if (review.items.length > 1) {
      const footer = el.createDiv({ cls: "vault-agent-memory-footer" });
      new ButtonComponent(footer).setButtonText("Keep all").setCta().onClick(() => void review.keep());
    }
  }
  if (review.kept) drawKept(el, review);
}

function drawBar(el: HTMLElement, review: StagedReview, count: number): void {
  const bar = el.createDiv({ cls: "vault-agent-memory-bar" });
  setIcon(bar.createSpan({ cls: "vault-agent-memory-icon" }), "bookmark-plus");
  const where = review.left ? " from your last conversation" : "";
  bar.createSpan({ cls: "vault-agent-memory-count", text: count > 0 ? `${plural(count)} staged${where}` : "No memories staged" });
  if (review.shown) new ButtonComponent(bar).setButtonText(review.left ? "Later" : "Close").onClick(() => review.hide());
  else new ButtonComponent(bar).setButtonText("Review").onClick(() => void review.show());
}

function drawItem(list: HTMLElement, item: ReviewItem, review: StagedReview): void {
  const { memory } = item;
  const row = list.createDiv({ cls: "vault-agent-memory-item", attr: { role: "listitem", "data-id": memory.id } });
  const contradiction = item.conflicts.find((c) => c.kind === "contradicts");
  if (review.editing === memory.id) {
    const input = row.createEl("textarea", { cls: "vault-agent-memory-edit", attr: { rows: 2, "aria-label": "Memory text" } });
    input.value = memory.content;
    const buttons = row.createDiv({ cls: "vault-agent-memory-buttons" });
    new ButtonComponent(buttons).setButtonText("Save").setCta().onClick(() => void review.edit(memory.id, input.value));
    new ButtonComponent(buttons).setButtonText("Cancel").onClick(() => review.startEdit(null));
    window.setTimeout(() => input.focus(), 0);
    return;
  }
  if (contradiction) drawCompare(row, memory.content, contradiction);
  else row.createDiv({ cls: "vault-agent-memory-text", text: memory.content });
  const duplicate = item.conflicts.find((c) => c.kind === "duplicate");
  if (duplicate && !contradiction) row.createDiv({ cls: "vault-agent-memory-note", text: `Already kept in ${duplicate.kept.path}` });
  const buttons = row.createDiv({ cls: "vault-agent-memory-buttons" });
  new ButtonComponent(buttons).setButtonText(contradiction ? "Keep both" : "Keep").setCta().onClick(() => void review.keep([memory.id]));
  new ButtonComponent(buttons).setButtonText("Edit").onClick(() => review.startEdit(memory.id));
  new ButtonComponent(buttons).setButtonText("Drop").onClick(() => void review.drop([memory.id]));
}

/** The staged fact beside the kept memory it contradicts: the newer never silently replaces the older. */
function drawCompare(row: HTMLElement, staged: string, conflict: MemoryConflict): void {
  row.addClass("is-contradiction");
  row.createDiv({ cls: "vault-agent-memory-warning", text: `Contradicts a kept memory (${conflict.reason})` });
  const compare = row.createDiv({ cls: "vault-agent-memory-compare" });
  const now = compare.createDiv({ cls: "vault-agent-memory-side is-staged" });
  now.createDiv({ cls: "vault-agent-memory-label", text: "Staged now" });
  now.createDiv({ cls: "vault-agent-memory-text", text: staged });
  const kept = compare.createDiv({ cls: "vault-agent-memory-side is-kept" });
  kept.createDiv({ cls: "vault-agent-memory-label", text: `Kept in ${conflict.kept.path}` });
  kept.createDiv({ cls: "vault-agent-memory-text", text: conflict.kept.text });
}

function drawKept(el: HTMLElement, review: StagedReview): void {
  const kept = review.kept;
  if (!kept) return;
  const line = el.createDiv({ cls: "vault-agent-memory-kept" });
  line.createSpan({ text: `Kept ${plural(kept.count)} in ${kept.folder || "the vault"}.` });
  if (kept.turnId) new ButtonComponent(line).setButtonText("Undo").onClick(() => void review.undoKeep());
}
