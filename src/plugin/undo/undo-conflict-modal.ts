/**
 * Asks before an undo would overwrite a note changed since the agent's write: for each note, the three versions
 * (before the agent, the agent's, now), cut short. Closing the modal counts as no.
 */
import { ButtonComponent, Modal, type App } from "obsidian";
import type { UndoConflictItem } from "../../core/journal";
import { destructive } from "../settings/legacy-api";

/** Lines of each version shown; the rest is summarised as "… N more lines". */
const PREVIEW_LINES = 8;

export class UndoConflictModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly conflicts: UndoConflictItem[],
    private readonly resolve: (undoAnyway: boolean) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.setTitle("Undo anyway?");
    const { contentEl } = this;
    contentEl.addClass("vault-agent-undo-conflict");
    contentEl.createEl("p", { text: "These notes changed after the agent's change. Undoing puts back the version from before the agent and loses the newer edits." });
    for (const conflict of this.conflicts) {
      const note = contentEl.createDiv({ cls: "vault-agent-undo-note" });
      note.createEl("h4", { text: conflict.path });
      version(note, "Before the agent", conflict.before);
      version(note, "The agent's version", conflict.agent === undefined ? "Not recorded: the turn was interrupted." : conflict.agent);
      version(note, "Now", conflict.now);
    }
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    destructive(new ButtonComponent(buttons).setButtonText("Undo anyway")).onClick(() => this.answer(true));
    new ButtonComponent(buttons).setButtonText("Keep the newer edits").onClick(() => this.answer(false));
  }

  override onClose(): void {
    this.contentEl.empty();
    if (!this.answered) this.resolve(false);
  }

  private answer(undoAnyway: boolean): void {
    this.answered = true;
    this.resolve(undoAnyway);
    this.close();
  }
}

function version(parent: HTMLElement, label: string, text: string | null): void {
  const box = parent.createDiv({ cls: "vault-agent-undo-version" });
  box.createDiv({ cls: "vault-agent-undo-version-label", text: label });
  const pre = box.createEl("pre", { cls: "vault-agent-preview" });
  if (text === null) {
    pre.setText("No note (absent).");
    return;
  }
  const lines = text.split("\n");
  const shown = lines.slice(0, PREVIEW_LINES).join("\n");
  pre.setText(lines.length > PREVIEW_LINES ? `${shown}\n… ${lines.length - PREVIEW_LINES} more lines` : shown);
}

/** Opens the modal; resolves true when the user chose "Undo anyway". */
export function confirmUndoAnyway(app: App, conflicts: UndoConflictItem[]): Promise<boolean> {
  return new Promise((resolve) => new UndoConflictModal(app, conflicts, resolve).open());
}
