/**
 * Reviewing a conversation's staged memories, for the chat pane and the `memory` command alike: the list with each
 * fact's contradictions, keep (one memory note per fact, written through the change journal so undo takes it back,
 * then indexed), edit, and drop (gone from the staged list and from the history it reached).
 *
 * One note per fact, not one dated note for all: each fact is then its own search hit and [[link]], is undone,
 * contradicted and deleted on its own, and keeps the format memory:save has always written (`created`, #memory).
 */
import type { Conversation } from "../core/agent/conversation";
import { redactDropped } from "../core/agent/conversation-redact";
import { checkVaultPath } from "../core/gatekeeper/path-policy";
import type { ChangeJournal } from "../core/journal";
import { findConflicts, readKeptMemories, type MemoryConflict } from "../core/memory/staging-conflicts";
import { VaultError, type VaultPort } from "../core/ports/vault";
import type { StagedMemory } from "../core/protocol/staged-memory";
import { memoryFolder, memoryNotePath, memoryNoteText } from "../tools/memory-note";

/** What keeping needs from the host. */
export interface MemoryReviewDeps {
  vault: VaultPort;
  /** Where kept notes are journaled (undo); absent: written without a journal. */
  journal?: ChangeJournal;
  /** The memory folder setting ("" or absent: "Memory"). */
  memoryFolder?: string;
  /** Folders the agent must not write (the memory folder inside one is refused). */
  excludedFolders?: string[];
  /** Indexes the kept notes (text, and vectors with an embedding model); absent: the host's index watcher does it. */
  index?: (paths: string[]) => Promise<void>;
  /** Turn ids for the journal; default a fresh `k…` id. */
  newTurnId?: () => string;
}

/** One staged fact at review, with the kept memories it contradicts or repeats. */
export interface ReviewItem {
  memory: StagedMemory;
  conflicts: MemoryConflict[];
}

/** A fact kept as a note. */
export interface KeptNote {
  id: string;
  path: string;
}

export interface KeepResult {
  kept: KeptNote[];
  /** The journal turn that wrote them (undo takes them back together); absent without a journal or when nothing was kept. */
  turnId?: string;
  /** Facts that could not be written, each with one sentence; they stay staged. */
  failed: { id: string; reason: string }[];
}

let keepCounter = 0;
function keepTurnId(): string {
  keepCounter = (keepCounter + 1) % 1_000_000;
  return `k${Date.now().toString(36)}${keepCounter.toString(36)}`;
}

/** The conversation's staged facts, oldest first, each with its conflicts among the kept memory notes. */
export async function reviewItems(conversation: Conversation, deps: Pick<MemoryReviewDeps, "vault" | "memoryFolder">): Promise<ReviewItem[]> {
  const staged = conversation.staged.list();
  if (staged.length === 0) return [];
  const kept = await readKeptMemories(deps.vault, memoryFolder(deps.memoryFolder));
  const conflicts = findConflicts(staged, kept);
  return staged.map((memory) => ({ memory, conflicts: conflicts.get(memory.id) ?? [] }));
}

/** A free path for the fact's note: its dated title, or the same with " (2)", " (3)"… when that is taken. */
async function freePath(vault: VaultPort, memory: StagedMemory, folder: string, taken: Set<string>): Promise<string> {
  const base = memoryNotePath(memory, folder, new Date(memory.at)).replace(/\.md$/, "");
  for (let n = 1; ; n++) {
    const path = n === 1 ? `${base}.md` : `${base} (${n}).md`;
    if (!taken.has(path) && !(await vault.exists(path))) return path;
  }
}

/**
 * Keeps staged facts as memory notes (all of them when `ids` is absent): each a new note, so a kept fact never
 * rewrites an older memory. Kept facts leave the staged list; the caller saves the conversation.
 */
export async function keepStaged(conversation: Conversation, deps: MemoryReviewDeps, ids?: readonly string[]): Promise<KeepResult> {
  const chosen = conversation.staged.list().filter((m) => !ids || ids.includes(m.id));
  const result: KeepResult = { kept: [], failed: [] };
  if (chosen.length === 0) return result;
  const folder = memoryFolder(deps.memoryFolder);
  const check = checkVaultPath(`${folder}/x.md`, { configDir: deps.vault.configDir, excludedFolders: deps.excludedFolders ?? [] });
  if (!check.ok) throw new Error(`The memory folder "${folder}" cannot hold notes: ${check.reason}`);
  const turnId = deps.journal ? (deps.newTurnId ?? keepTurnId)() : undefined;
  const taken = new Set<string>();
  for (const [i, memory] of chosen.entries()) {
    const vault = deps.journal && turnId ? deps.journal.vaultFor(deps.vault, { turnId, callId: `k${i}`, tool: "memory:save", conversationId: conversation.id }) : deps.vault;
    try {
      const path = await freePath(deps.vault, memory, folder, taken);
      taken.add(path);
      await vault.create(path, memoryNoteText(memory, new Date(memory.at), null));
      result.kept.push({ id: memory.id, path });
    } catch (err) {
      const reason = err instanceof VaultError || err instanceof Error ? err.message : String(err);
      result.failed.push({ id: memory.id, reason: `"${memory.content.slice(0, 60)}" was not kept: ${reason}` });
    }
  }
  conversation.staged.remove(result.kept.map((k) => k.id));
  if (result.kept.length > 0 && deps.index) await deps.index(result.kept.map((k) => k.path));
  return { ...result, ...(turnId && result.kept.length > 0 ? { turnId } : {}) };
}

/** Changes a staged fact's text before it is kept; false when there is no such fact or the text is empty. */
export function editStaged(conversation: Conversation, id: string, content: string): boolean {
  return conversation.staged.edit(id, { content });
}

/** Drops staged facts (all when `ids` is absent): out of the staged list and out of the history they reached. */
export function dropStaged(conversation: Conversation, ids?: readonly string[]): StagedMemory[] {
  const dropped = conversation.staged.remove(ids ?? conversation.staged.list().map((m) => m.id));
  redactDropped(conversation, dropped);
  return dropped;
}
