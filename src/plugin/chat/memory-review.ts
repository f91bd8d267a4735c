/**
 * The chat pane's review of staged memories, without DOM: which conversation's facts are shown (the open one, or
 * the one just left with facts still staged), the review list with contradictions, and keep / edit / drop / keep
 * all, each saved with the conversation. Kept facts go through the change journal, so undo takes them back.
 */
import type { Conversation } from "../../core/agent/conversation";
import type { ChangeJournal } from "../../core/journal";
import type { VaultPort } from "../../core/ports/vault";
import { dropStaged, editStaged, keepStaged, reviewItems, type ReviewItem } from "../../app/memory-review";
import type { AgentUndo } from "../undo/agent-undo";

export interface StagedReviewDeps {
  vault: VaultPort;
  /** Where kept notes are journaled; absent: no undo. */
  journal?: ChangeJournal;
  /** The memory folder and excluded folders as set now. */
  settings(): { memoryFolder: string; excludedFolders: string[] };
  /** The conversation open in the pane. */
  current(): Conversation;
  /** Saves a conversation (its staged list changed). */
  save(conversation: Conversation): Promise<void>;
  /** Indexes kept notes now; absent: the index's watcher picks them up. */
  index?: (paths: string[]) => Promise<void>;
  /** Refreshes the undo command after a keep, and undoes it from the review's "Undo". */
  undo?: Pick<AgentUndo, "refresh" | "undoTurn">;
  notice(message: string): void;
}

/** The last keep, for its "Undo" button. */
export interface KeptReport {
  count: number;
  folder: string;
  turnId?: string;
}

export class StagedReview {
  /** A conversation left (new one started, another opened) with facts still staged: reviewed before the open one. */
  left: Conversation | null = null;
  /** Whether the review list is shown. */
  shown = false;
  /** The list as last read (facts and their contradictions). */
  items: ReviewItem[] = [];
  /** The fact being edited. */
  editing: string | null = null;
  kept: KeptReport | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: StagedReviewDeps) {}

  /** The conversation whose staged facts the review shows. */
  get target(): Conversation {
    return this.left ?? this.deps.current();
  }

  /** Facts staged in that conversation. */
  get count(): number {
    return this.target.staged.size;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch (error) {
        console.error("Vault agent: the memory review failed to update", error);
      }
    }
  }

  /** Shows the review list (rereading the kept memories for contradictions). */
  async show(): Promise<void> {
    this.kept = null;
    this.items = await reviewItems(this.target, { vault: this.deps.vault, memoryFolder: this.deps.settings().memoryFolder });
    this.shown = true;
    this.emit();
  }

  /** Closes the list; facts stay staged (a left conversation's stay in its saved file). */
  hide(): void {
    this.shown = false;
    this.editing = null;
    this.kept = null;
    this.left = null;
    this.emit();
  }

  /** A conversation ends with facts staged: its review opens. */
  async conversationLeft(conversation: Conversation): Promise<void> {
    if (conversation.staged.size === 0) return;
    this.left = conversation;
    await this.show();
  }

  /** A conversation was deleted: its staged facts went with it. */
  forgotten(id: string): void {
    if (this.left?.id !== id) return;
    this.left = null;
    this.shown = false;
    this.emit();
  }

  /** Something outside changed the open conversation's facts (a turn staged one): the list follows. */
  async refresh(): Promise<void> {
    if (this.shown) this.items = await reviewItems(this.target, { vault: this.deps.vault, memoryFolder: this.deps.settings().memoryFolder });
    this.emit();
  }

  /** Keeps facts (all when `ids` is absent) as memory notes. */
  async keep(ids?: string[]): Promise<void> {
    const conversation = this.target;
    const settings = this.deps.settings();
    try {
      const result = await keepStaged(conversation, { vault: this.deps.vault, journal: this.deps.journal, memoryFolder: settings.memoryFolder, excludedFolders: settings.excludedFolders, index: this.deps.index }, ids);
      for (const f of result.failed) this.deps.notice(f.reason);
      if (result.kept.length) this.kept = { count: result.kept.length, folder: result.kept[0].path.split("/").slice(0, -1).join("/"), turnId: result.turnId };
    } catch (error) {
      this.deps.notice(error instanceof Error ? error.message : String(error));
    }
    await this.after(conversation);
    await this.deps.undo?.refresh().catch(() => undefined);
    this.emit();
  }

  /** Starts or ends editing one fact. */
  startEdit(id: string | null): void {
    this.editing = id;
    this.emit();
  }

  /** Saves an edited fact. */
  async edit(id: string, content: string): Promise<void> {
    const conversation = this.target;
    if (!editStaged(conversation, id, content)) {
      this.deps.notice("A memory cannot be empty; drop it instead.");
      return;
    }
    this.editing = null;
    await this.after(conversation);
  }

  /** Drops facts (all when `ids` is absent): gone from the conversation and its history. */
  async drop(ids?: string[]): Promise<void> {
    const conversation = this.target;
    dropStaged(conversation, ids);
    await this.after(conversation);
  }

  /** Takes the last keep back (the journal's undo). */
  async undoKeep(): Promise<void> {
    const turnId = this.kept?.turnId;
    if (!turnId || !this.deps.undo) return;
    if (await this.deps.undo.undoTurn(turnId)) {
      this.kept = null;
      this.emit();
    }
  }

  private async after(conversation: Conversation): Promise<void> {
    await this.deps.save(conversation).catch((error: unknown) => this.deps.notice(`The conversation could not be saved: ${error instanceof Error ? error.message : String(error)}`));
    if (conversation === this.left && conversation.staged.size === 0) this.left = null;
    this.items = await reviewItems(this.target, { vault: this.deps.vault, memoryFolder: this.deps.settings().memoryFolder });
    if (this.items.length === 0 && !this.kept) this.shown = false;
    this.emit();
  }
}
