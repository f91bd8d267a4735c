/**
 * The change journal: every change a tool makes to the vault is recorded before it happens (the text before, or
 * "absent") and after (a hash of what the agent left), so that a turn can be undone exactly. Records go through a
 * JournalStore one immutable file each; the journal is bounded by size and age, oldest turns dropped first.
 */
import type { JournalStore } from "../ports/journal-store";
import type { VaultPort } from "../ports/vault";
import { keyPart, parseKey, parseRecord, recordKey, textHash, type AfterRecord, type BeforeRecord, type ChangeCall, type ChangeOp, type ChangeRecorder, type JournalChange, type PendingChange } from "./records";
import { JournalingVault } from "./journaling-vault";

export type { PendingChange } from "./records";

export interface ChangeJournalOptions {
  /** Bytes the journal may hold; default 50 MB. */
  maxBytes?: number;
  /** Age after which a turn's records are dropped; default 30 days. */
  maxAgeMs?: number;
  /** Clock (injectable for tests); default Date.now. */
  now?: () => number;
}

export const DEFAULT_JOURNAL_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_JOURNAL_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** One turn's journaled changes. */
export interface JournalTurn {
  turnId: string;
  conversationId?: string;
  /** Time of its last change. */
  at: number;
  /** In the order they happened. */
  changes: JournalChange[];
  /** The store keys of its records. */
  keys: string[];
}

export class ChangeJournal implements ChangeRecorder {
  private seq = 0;
  private readonly seenTurns = new Set<string>();
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: JournalStore,
    options: ChangeJournalOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_JOURNAL_MAX_BYTES;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_JOURNAL_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
  }

  /** The vault as one tool call sees it: every change it makes is journaled under that call. */
  vaultFor(vault: VaultPort, call: ChangeCall): VaultPort {
    return new JournalingVault(vault, this, call);
  }

  /** Records a change before it happens. */
  async begin(call: ChangeCall, change: { op: ChangeOp; path: string; to?: string; before: string | null; partOf?: number }): Promise<PendingChange> {
    if (!this.seenTurns.has(call.turnId)) {
      this.seenTurns.add(call.turnId);
      // A new turn is a good moment to enforce the bound; the current turn itself is never dropped.
      await this.prune(call.turnId);
    }
    const record: BeforeRecord = {
      v: 1,
      phase: "a",
      turnId: call.turnId,
      callId: call.callId,
      tool: call.tool,
      ...(call.conversationId ? { conversationId: call.conversationId } : {}),
      seq: ++this.seq,
      at: this.now(),
      op: change.op,
      path: change.path,
      ...(change.to !== undefined ? { to: change.to } : {}),
      before: change.before,
      ...(change.partOf !== undefined ? { partOf: change.partOf } : {}),
    };
    await this.store.save(recordKey(record.at, record.turnId, record.seq, "a"), JSON.stringify(record));
    return { record };
  }

  /** Records what the agent left; `after` null when nothing is left where the change ends. */
  async finish(pending: PendingChange, after: string | null): Promise<void> {
    const { record } = pending;
    const done: AfterRecord = { v: 1, phase: "b", turnId: record.turnId, seq: record.seq, afterHash: textHash(after), ...(after !== null ? { after } : {}) };
    await this.store.save(recordKey(record.at, record.turnId, record.seq, "b"), JSON.stringify(done));
  }

  /** Drops a record whose change did not happen (the vault refused it). */
  async discard(pending: PendingChange): Promise<void> {
    const { record } = pending;
    await this.store.remove(recordKey(record.at, record.turnId, record.seq, "a"));
  }

  /** Every journaled turn, newest first. */
  async turns(): Promise<JournalTurn[]> {
    const keys = (await this.store.list()).map((k) => k.key).filter((k) => parseKey(k) !== null).sort();
    const byTurn = new Map<string, { befores: Map<number, BeforeRecord>; afters: Map<number, AfterRecord>; keys: string[] }>();
    for (const key of keys) {
      const text = await this.store.load(key);
      const rec = text === null ? null : parseRecord(text);
      if (!rec) continue;
      let turn = byTurn.get(rec.turnId);
      if (!turn) byTurn.set(rec.turnId, (turn = { befores: new Map(), afters: new Map(), keys: [] }));
      turn.keys.push(key);
      if (rec.phase === "a") turn.befores.set(rec.seq, rec);
      else turn.afters.set(rec.seq, rec);
    }
    const out: JournalTurn[] = [];
    for (const [turnId, turn] of byTurn) {
      const changes = [...turn.befores.values()].sort((a, b) => a.seq - b.seq).map((before) => ({ before, after: turn.afters.get(before.seq) }));
      if (changes.length === 0) continue;
      const conversationId = changes.find((c) => c.before.conversationId)?.before.conversationId;
      out.push({ turnId, at: Math.max(...changes.map((c) => c.before.at)), changes, keys: turn.keys, ...(conversationId ? { conversationId } : {}) });
    }
    return out.sort((a, b) => b.at - a.at);
  }

  /**
   * Which turns have journaled changes, from the record names alone (no record is read): cheap enough to ask after
   * every turn. `size` counts the turns.
   */
  async index(): Promise<{ has(turnId: string): boolean; size: number }> {
    const parts = new Set<string>();
    for (const { key } of await this.store.list()) {
      const parsed = parseKey(key);
      if (parsed?.phase === "a") parts.add(parsed.turn);
    }
    return { has: (turnId) => parts.has(keyPart(turnId)), size: parts.size };
  }

  /** Removes a turn's records (after it was undone). */
  async forget(turn: JournalTurn): Promise<void> {
    // Newest first: a crash midway leaves the oldest records, which still describe what the turn changed first.
    for (const key of [...turn.keys].sort().reverse()) await this.store.remove(key);
  }

  /** Drops turns older than the age bound, then the oldest turns until the size bound holds. */
  async prune(keepTurn?: string): Promise<void> {
    const entries = await this.store.list();
    const turns = new Map<string, { at: number; size: number; keys: string[] }>();
    for (const { key, size } of entries) {
      const parsed = parseKey(key);
      if (!parsed) continue;
      const turn = turns.get(parsed.turn) ?? { at: 0, size: 0, keys: [] };
      turn.at = Math.max(turn.at, parsed.at);
      turn.size += size;
      turn.keys.push(key);
      turns.set(parsed.turn, turn);
    }
    const keep = keepTurn?.replace(/[^A-Za-z0-9_]/g, "_");
    const oldestFirst = [...turns.entries()].filter(([id]) => id !== keep).sort((a, b) => a[1].at - b[1].at);
    let total = [...turns.values()].reduce((sum, t) => sum + t.size, 0);
    const cutoff = this.now() - this.maxAgeMs;
    for (const [, turn] of oldestFirst) {
      if (turn.at >= cutoff && total <= this.maxBytes) break;
      for (const key of turn.keys.sort().reverse()) await this.store.remove(key);
      total -= turn.size;
    }
  }
}
