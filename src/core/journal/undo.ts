/**
 * Undo of journaled turns. A plan first replays the turns backwards over a virtual copy of the touched files: each
 * change is ready (the file is exactly what the agent left), already undone (it is what was there before, e.g. a
 * crash stopped the change or an earlier undo midway), or a conflict (someone changed it since). Only a plan
 * without conflicts is applied, unless forced; applying ends with an exact pass that writes every touched file's
 * pre-turn text byte for byte (a move back may have rewritten links on its own).
 */
import { VaultError, type VaultPort } from "../ports/vault";
import type { ChangeJournal, JournalTurn } from "./change-journal";
import { textHash, type JournalChange } from "./records";

export type UndoStatus = "ready" | "already" | "conflict";

export interface UndoStep {
  change: JournalChange;
  status: UndoStatus;
}

/** A note someone changed after the agent: the three versions for a three-way preview. */
export interface UndoConflictItem {
  path: string;
  /** Before the agent; null when absent. */
  before: string | null;
  /** What the agent left; null when it left nothing there, undefined when unknown (the process stopped). */
  agent: string | null | undefined;
  /** Now; null when absent. */
  now: string | null;
}

export interface UndoPlan {
  turns: JournalTurn[];
  /** In the order they are undone. */
  steps: UndoStep[];
  conflicts: UndoConflictItem[];
  /** The text every touched file has after the undo (null: absent). */
  target: Map<string, string | null>;
}

export interface UndoResult {
  /** One line per change undone, in order ("Restored Projects/Alpha.md"). */
  restored: string[];
  turns: string[];
}

/** Undo refused because a note changed since the agent's write; nothing was changed. */
export class UndoConflict extends Error {
  constructor(readonly conflicts: UndoConflictItem[]) {
    const paths = conflicts.map((c) => `"${c.path}"`);
    super(
      `${paths.slice(0, 3).join(", ")}${paths.length > 3 ? ` and ${paths.length - 3} more` : ""} changed after the agent's change (edited by you or by sync), so nothing was undone, to keep that edit.`,
    );
    this.name = "UndoConflict";
  }
}

async function textOrNull(vault: VaultPort, path: string): Promise<string | null> {
  try {
    return await vault.read(path);
  } catch (err) {
    if (err instanceof VaultError && err.code === "not_found") return null;
    throw err;
  }
}

/** Changes in undo order: newest turn first, each turn backwards (a move's rewritten links before the move). */
function undoOrder(turns: JournalTurn[]): JournalChange[] {
  return [...turns].sort((a, b) => b.at - a.at).flatMap((t) => [...t.changes].reverse());
}

export async function planUndo(vault: VaultPort, turns: JournalTurn[]): Promise<UndoPlan> {
  const state = new Map<string, string | null>();
  const get = async (path: string): Promise<string | null> => {
    if (!state.has(path)) state.set(path, await textOrNull(vault, path));
    return state.get(path) ?? null;
  };
  const steps: UndoStep[] = [];
  const conflicts: UndoConflictItem[] = [];
  for (const change of undoOrder(turns)) {
    const { before, after } = change;
    const end = before.op === "move" ? (before.to ?? before.path) : before.path;
    const endNow = await get(end);
    const startNow = before.op === "move" ? await get(before.path) : endNow;
    const endHashBefore = before.op === "move" ? null : textHash(before.before);
    // Already undone: the end is as it was before, and (for a move) the note is back where it was.
    const already = before.op === "move" ? endNow === null && startNow !== null : textHash(endNow) === endHashBefore;
    let status: UndoStatus;
    if (already) status = "already";
    else if (after && textHash(endNow) !== after.afterHash) status = "conflict";
    else if (before.op === "move" && startNow !== null) status = "conflict";
    else status = "ready";
    steps.push({ change, status });
    if (status === "conflict") conflicts.push({ path: end, before: before.before, agent: after ? (after.after ?? null) : undefined, now: endNow });
    if (status === "already") continue;
    if (before.op === "move") state.set(end, null);
    state.set(before.path, before.before);
  }
  return { turns, steps, conflicts, target: state };
}

/** Applies a plan; throws UndoConflict (changing nothing) when it has conflicts and `force` is not set. */
export async function applyUndo(vault: VaultPort, plan: UndoPlan, options: { force?: boolean } = {}): Promise<string[]> {
  if (plan.conflicts.length > 0 && !options.force) throw new UndoConflict(plan.conflicts);
  const restored: string[] = [];
  for (const { change, status } of plan.steps) {
    if (status === "already") continue;
    const b = change.before;
    if (b.op === "create") {
      if (await vault.exists(b.path)) {
        await vault.trash(b.path);
        restored.push(`Moved ${b.path} (created by the agent) to the trash`);
      }
    } else if (b.op === "move" && b.to) {
      if ((await vault.exists(b.to)) && !(await vault.exists(b.path))) {
        await vault.move(b.to, b.path);
        restored.push(`Moved ${b.to} back to ${b.path}`);
      }
    } else if (b.op === "trash") {
      if (!(await vault.exists(b.path)) && b.before !== null) {
        await vault.create(b.path, b.before);
        restored.push(`Brought ${b.path} back`);
      }
    } else if (b.before !== null && b.partOf === undefined) {
      restored.push(`Restored ${b.path}`);
    }
  }
  // The exact pass: every touched file gets its pre-turn text, byte for byte.
  for (const [path, text] of plan.target) {
    if (text === null) continue;
    const now = await textOrNull(vault, path);
    if (now === text) continue;
    if (now === null) await vault.create(path, text);
    else await vault.process(path, () => text, now);
  }
  return restored;
}

/** Plans, applies and forgets the given turns; throws UndoConflict when a note changed since (unless forced). */
export async function undoTurns(journal: ChangeJournal, vault: VaultPort, turns: JournalTurn[], options: { force?: boolean } = {}): Promise<UndoResult> {
  const plan = await planUndo(vault, turns);
  const restored = await applyUndo(vault, plan, options);
  for (const turn of turns) await journal.forget(turn);
  return { restored, turns: turns.map((t) => t.turnId) };
}
