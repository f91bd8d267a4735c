/**
 * The chat's state and behaviour without any DOM: the current conversation and its transcript, attachments waiting
 * to be sent, the running turn (and its Stop), the pending confirmation, and the problem banner. The chat pane
 * renders it; commands act on it; it is the UserPort the agent asks for confirmations.
 */
import type { Agent } from "../../core/agent/agent";
import { Conversation } from "../../core/agent/conversation";
import type { AgentEvent } from "../../core/agent/events";
import type { ConfirmDecision, ConfirmRequest, UserPort } from "../../core/ports/user";
import type { VaultPort } from "../../core/ports/vault";
import type { ConversationStore, ConversationSummary } from "./conversation-store";
import type { AgentUndo } from "../undo/agent-undo";
import { Transcript } from "./transcript";

/** Something that blocks chatting, with the action that fixes it. */
export interface ChatProblem {
  /** One sentence: "No model selected." */
  message: string;
  /** The fix, e.g. "Open settings". */
  action?: { label: string; run: () => void };
}

/** A note (or part of one) sent along with the next message. */
export interface Attachment {
  /** Vault path of the note. */
  path: string;
  /** What the chip shows: the path, or "path (lines 3–7)". */
  label: string;
  /** Fixed text (a selection); absent = the note's current text, read when sending. */
  text?: string;
}

export type SessionChange =
  /** These transcript items changed or were added. */
  | { type: "items"; ids: string[] }
  /** The whole transcript was replaced (new or reopened conversation). */
  | { type: "reset" }
  /** Running state, attachments, problem or draft changed. */
  | { type: "state" };

export interface ChatSessionDeps {
  /** An agent over this conversation with the current settings, asking `user` for confirmations. */
  agentFor(conversation: Conversation, user: UserPort): Agent;
  store: ConversationStore;
  vault: VaultPort;
  /** What must be fixed before a turn can run (no model, no runtime), or null when ready. */
  readiness(): Promise<ChatProblem | null>;
  /** The banner for a turn that failed with this sentence. */
  explain(message: string): ChatProblem;
  /** A short message outside the pane (Obsidian's Notice). */
  notice(message: string): void;
  /** Undo of journaled turns; absent = no undo actions. */
  undo?: Pick<AgentUndo, "refresh" | "canUndo" | "canUndoLast" | "undoTurn" | "undoLast">;
  /** Told when a conversation ends with memories staged (its review opens) and when one is deleted; absent = no review. */
  staged?: { conversationLeft(conversation: Conversation): Promise<void>; forgotten(id: string): void };
}

export class ChatSession implements UserPort {
  conversation = new Conversation();
  transcript = new Transcript();
  attachments: Attachment[] = [];
  problem: ChatProblem | null = null;
  /** Text the pane should put in its input (set by commands such as "Ask about selection"). */
  draft = "";
  private controller: AbortController | null = null;
  /** The open question to the user: created when the agent announces it, answered from the card. */
  private pending: { promise: Promise<ConfirmDecision>; resolve: (decision: ConfirmDecision) => void } | null = null;
  private readonly listeners = new Set<(change: SessionChange) => void>();
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ChatSessionDeps) {}

  get running(): boolean {
    return this.controller !== null;
  }

  subscribe(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: SessionChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        console.error("Vault agent: the chat pane failed to update", error);
      }
    }
  }

  /** Sends a message with the pending attachments. Resolves when the turn has ended. */
  async send(text: string): Promise<void> {
    const message = text.trim();
    if (!message || this.running) return;
    const problem = await this.deps.readiness();
    if (problem) {
      // Nothing was sent: give the text back to the input so the user loses nothing.
      this.draft = text;
      this.setProblem(problem);
      return;
    }
    this.setProblem(null);
    const controller = new AbortController();
    this.controller = controller;
    const attachments = await this.readAttachments();
    this.attachments = [];
    const userId = `u${Date.now().toString(36)}${this.transcript.items.length}`;
    this.transcript.add({ kind: "user", id: userId, text: message, attachments: attachments.map((a) => a.path) });
    this.emit({ type: "items", ids: [userId] });
    this.emit({ type: "state" });
    const conversation = this.conversation;
    let turnId: string | null = null;
    try {
      const agent = this.deps.agentFor(conversation, this);
      await agent.runTurn(message, {
        signal: controller.signal,
        attachments,
        onEvent: (event) => {
          if (event.type === "turn-start") turnId = event.turnId;
          this.onEvent(event);
        },
      });
    } catch (error) {
      this.setProblem(this.deps.explain(error instanceof Error ? error.message : String(error)));
    } finally {
      this.controller = null;
      this.resolvePending("deny");
      this.pending = null;
      this.emit({ type: "state" });
      if (turnId) await this.offerUndo([turnId]);
      await this.persist(conversation);
    }
  }

  /** Whether the agent's last journaled turn can be undone (the command's check). */
  get canUndoLast(): boolean {
    return !this.running && (this.deps.undo?.canUndoLast ?? false);
  }

  /** Undoes the agent's last journaled turn, in whichever conversation it was; the undo reports in a notice. */
  async undoLast(): Promise<void> {
    const turnId = (await this.deps.undo?.undoLast()) ?? null;
    if (turnId) this.markUndone(this.transcript, turnId);
  }

  /** Undoes a turn's changes to the vault (its "Undo this turn"); the undo reports in a notice. */
  async undoTurn(turnId: string): Promise<void> {
    if (!this.deps.undo || this.running) return;
    const transcript = this.transcript;
    if (await this.deps.undo.undoTurn(turnId)) this.markUndone(transcript, turnId);
  }

  private markUndone(transcript: Transcript, turnId: string): void {
    const item = transcript.get(`${turnId}:undo`);
    if (item?.kind === "undo") {
      item.state = "undone";
      if (transcript === this.transcript) this.emit({ type: "items", ids: [item.id] });
    }
  }

  /** Adds "Undo this turn" to those of these turns the journal can still undo. */
  private async offerUndo(turnIds: string[]): Promise<void> {
    const undo = this.deps.undo;
    if (!undo) return;
    try {
      await undo.refresh();
    } catch (error) {
      console.error("Vault agent: the change journal could not be read", error);
      return;
    }
    const ids = turnIds.filter((id) => undo.canUndo(id)).map((id) => this.transcript.addUndo(id));
    if (ids.length) this.emit({ type: "items", ids });
  }

  /** Stops the running turn; a pending confirmation counts as denied. */
  stop(): void {
    this.controller?.abort();
    this.resolvePending("deny");
  }

  /** The user's answer on the confirmation card. */
  answer(decision: ConfirmDecision): void {
    this.resolvePending(decision);
  }

  async newConversation(): Promise<void> {
    if (this.running) this.stop();
    await this.saving;
    const left = this.conversation;
    this.conversation = new Conversation();
    this.transcript = new Transcript();
    this.setProblem(null);
    this.emit({ type: "reset" });
    await this.leftWithStaged(left);
  }

  /** A conversation that ends with facts staged hands them to the review (they stay saved with it meanwhile). */
  private async leftWithStaged(left: Conversation): Promise<void> {
    if (left !== this.conversation && left.staged.size > 0) await this.deps.staged?.conversationLeft(left);
  }

  async open(id: string): Promise<void> {
    if (this.running) this.stop();
    try {
      const conversation = await this.deps.store.load(id);
      const left = this.conversation;
      this.conversation = conversation;
      const data = conversation.toJSON();
      this.transcript = Transcript.fromConversation(data);
      this.setProblem(null);
      this.emit({ type: "reset" });
      await this.offerUndo([...new Set(data.entries.map((e) => e.turnId))]);
      if (left.id !== id) await this.leftWithStaged(left);
    } catch (error) {
      this.deps.notice(`This conversation could not be opened: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  history(): Promise<ConversationSummary[]> {
    return this.deps.store.list();
  }

  async forget(id: string): Promise<void> {
    await this.deps.store.remove(id);
    this.deps.staged?.forgotten(id);
    if (id !== this.conversation.id) return;
    // Its staged facts go with it: nothing to review.
    this.conversation.staged.remove(this.conversation.staged.list().map((m) => m.id));
    await this.newConversation();
  }

  attach(attachment: Attachment): void {
    this.attachments = [...this.attachments.filter((a) => a.label !== attachment.label), attachment];
    this.emit({ type: "state" });
  }

  detach(label: string): void {
    this.attachments = this.attachments.filter((a) => a.label !== label);
    this.emit({ type: "state" });
  }

  setDraft(text: string): void {
    this.draft = text;
    this.emit({ type: "state" });
  }

  setProblem(problem: ChatProblem | null): void {
    this.problem = problem;
    this.emit({ type: "state" });
  }

  // UserPort: the agent's gatekeeper asks here; the card in the pane answers through `answer`.
  confirm(_request: ConfirmRequest): Promise<ConfirmDecision> {
    if (this.controller?.signal.aborted) return Promise.resolve("deny");
    // The card may already be showing (and even answered) from the "confirm-asked" event.
    return (this.pending ?? this.ask()).promise;
  }

  private ask(): NonNullable<ChatSession["pending"]> {
    this.resolvePending("deny");
    let resolve!: (decision: ConfirmDecision) => void;
    const promise = new Promise<ConfirmDecision>((r) => (resolve = r));
    const pending = { promise, resolve };
    this.pending = pending;
    return pending;
  }

  notify(message: string, kind: "info" | "warning" | "error" = "info"): void {
    if (kind === "error") this.setProblem({ message });
    else this.deps.notice(message);
  }

  /** Answers the open question; it stays (resolved) until the agent collects it, so an early answer is not lost. */
  private resolvePending(decision: ConfirmDecision): void {
    this.pending?.resolve(decision);
  }

  private onEvent(event: AgentEvent): void {
    if (event.type === "confirm-asked") this.ask();
    if (event.type === "confirm-answered") this.pending = null;
    const ids = this.transcript.apply(event);
    if (ids.length) this.emit({ type: "items", ids });
    if (event.type === "error" && !event.recoverable && event.code !== "aborted") this.setProblem(this.deps.explain(event.message));
  }

  private async readAttachments(): Promise<{ path: string; text: string }[]> {
    const out: { path: string; text: string }[] = [];
    for (const a of this.attachments) {
      try {
        out.push({ path: a.label, text: a.text ?? (await this.deps.vault.read(a.path)) });
      } catch (error) {
        this.deps.notice(`${a.path} could not be attached: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return out;
  }

  private persist(conversation: Conversation): Promise<void> {
    this.saving = this.saving
      .then(() => this.deps.store.save(conversation))
      .catch((error: unknown) => this.deps.notice(`The conversation could not be saved: ${error instanceof Error ? error.message : String(error)}`));
    return this.saving;
  }
}
