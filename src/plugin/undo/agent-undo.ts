/**
 * Undo of the agent's journaled turns in the plugin, without DOM: what the command, the chat pane's "Undo this
 * turn" and their notices share. A note changed since the agent's write is never clobbered without the user's yes.
 */
import { undoTurns, UndoConflict, type ChangeJournal, type JournalTurn, type UndoConflictItem } from "../../core/journal";
import type { VaultPort } from "../../core/ports/vault";

export interface AgentUndoDeps {
  journal: ChangeJournal;
  vault: VaultPort;
  /** One sentence outside the pane (Obsidian's Notice). */
  notice(message: string): void;
  /** Shows the three versions of each changed note and resolves true when the user chose to undo anyway. */
  confirmConflict(conflicts: UndoConflictItem[]): Promise<boolean>;
}

export class AgentUndo {
  /** The journal's turns as of the last refresh (command palettes ask synchronously). */
  private known: { has(turnId: string): boolean; size: number } = { has: () => false, size: 0 };
  private busy = false;

  constructor(private readonly deps: AgentUndoDeps) {}

  /** Whether there is a journaled turn to undo (as of the last refresh). */
  get canUndoLast(): boolean {
    return this.known.size > 0 && !this.busy;
  }

  /** Whether this turn still has journaled changes (as of the last refresh). */
  canUndo(turnId: string): boolean {
    return this.known.has(turnId);
  }

  /** Rereads the journal's index (names only, not the records); call after a turn ends. */
  async refresh(): Promise<void> {
    this.known = await this.deps.journal.index();
  }

  /** Undoes the newest journaled turn; resolves with its id when it was undone, else null. */
  async undoLast(): Promise<string | null> {
    const [turn] = await this.deps.journal.turns();
    if (!turn) {
      this.deps.notice("The agent has made no change that can still be undone.");
      await this.refresh();
      return null;
    }
    return (await this.undo(turn)) ? turn.turnId : null;
  }

  /** Undoes one turn; resolves true when it was undone (false when declined, absent or failed). */
  async undoTurn(turnId: string): Promise<boolean> {
    const turn = (await this.deps.journal.turns()).find((t) => t.turnId === turnId);
    if (!turn) {
      this.deps.notice("This turn's changes can no longer be undone (already undone, or dropped from the journal).");
      await this.refresh();
      return false;
    }
    return this.undo(turn);
  }

  private async undo(turn: JournalTurn): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    try {
      let result;
      try {
        result = await undoTurns(this.deps.journal, this.deps.vault, [turn]);
      } catch (error) {
        if (!(error instanceof UndoConflict)) throw error;
        this.deps.notice(error.message);
        if (!(await this.deps.confirmConflict(error.conflicts))) return false;
        result = await undoTurns(this.deps.journal, this.deps.vault, [turn], { force: true });
      }
      this.deps.notice(undoneSentence(result.restored));
      return true;
    } catch (error) {
      this.deps.notice(`The undo failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    } finally {
      this.busy = false;
      await this.refresh();
    }
  }
}

/** "Undone: restored Ideas.md." — one sentence whatever the count. */
export function undoneSentence(restored: string[]): string {
  if (restored.length === 0) return "Undone: the notes were already as they were before the agent's change.";
  const lines = restored.map((line) => line.charAt(0).toLowerCase() + line.slice(1));
  const shown = lines.slice(0, 3).join("; ");
  return `Undone: ${shown}${lines.length > 3 ? `; and ${lines.length - 3} more` : ""}.`;
}
