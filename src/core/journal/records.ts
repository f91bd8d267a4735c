/**
 * The change journal's records. Each change is two immutable records: "a", written before the vault is touched
 * (what was there), and "b", written after (what the agent left). A crash between them leaves an "a" alone; undo
 * then looks at the disk to tell whether the change reached it.
 */
import { contentHash } from "../memory/content-hash";

/** What a tool did to one file. */
export type ChangeOp = "create" | "modify" | "move" | "trash";

/** The call that made a change. */
export interface ChangeCall {
  turnId: string;
  callId: string;
  /** The tool's name (`vault:write`). */
  tool: string;
  /** The conversation the turn belongs to, when the host knows it. */
  conversationId?: string;
}

/** Written before the change. */
export interface BeforeRecord extends ChangeCall {
  v: 1;
  phase: "a";
  /** Orders the records of one turn. */
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  op: ChangeOp;
  /** The file as it was (for a move: where it was). */
  path: string;
  /** A move's destination. */
  to?: string;
  /** The text before the change; null when the file was absent. */
  before: string | null;
  /** For a link rewritten by a move: the seq of the move it belongs to. */
  partOf?: number;
}

/** Written after the change. */
export interface AfterRecord {
  v: 1;
  phase: "b";
  turnId: string;
  seq: number;
  /** Hash of the text the agent left where the change ends (`to` for a move); null when it left nothing there. */
  afterHash: string | null;
  /** The text the agent left, for the three-way preview; absent for a trash. */
  after?: string;
}

/** A change with both halves where the second one was written. */
export interface JournalChange {
  before: BeforeRecord;
  /** Absent when the process stopped between the two records. */
  after?: AfterRecord;
}

/** The hash the journal compares texts by; "absent" files hash to null. */
export function textHash(text: string | null): string | null {
  return text === null ? null : `${contentHash(text)}${contentHash(text, 0x9e3779b9)}:${text.length}`;
}

const KEY = /^(\d{13})-([A-Za-z0-9_]+)-(\d{6})-([ab])\.json$/;

/** Only letters, digits and `_` go into a key; the record keeps the real id. */
export function keyPart(id: string): string {
  return id.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 80) || "_";
}

/** `<time>-<turn>-<seq>-<phase>.json`: sorting keys sorts records by time. */
export function recordKey(at: number, turnId: string, seq: number, phase: "a" | "b"): string {
  return `${String(Math.max(0, Math.floor(at))).padStart(13, "0")}-${keyPart(turnId)}-${String(seq).padStart(6, "0")}-${phase}.json`;
}

/** The parts of a record key; null for anything else in the folder (temp files of an interrupted write). */
export function parseKey(key: string): { at: number; turn: string; seq: number; phase: "a" | "b" } | null {
  const m = KEY.exec(key);
  if (!m) return null;
  return { at: Number(m[1]), turn: m[2], seq: Number(m[3]), phase: m[4] as "a" | "b" };
}

/** Parses a stored record; null when it is not one (a damaged file is skipped, not fatal). */
export function parseRecord(text: string): BeforeRecord | AfterRecord | null {
  try {
    const value = JSON.parse(text) as Record<string, unknown> | null;
    if (!value || typeof value !== "object" || value.v !== 1 || typeof value.turnId !== "string" || typeof value.seq !== "number") return null;
    if (value.phase === "a" && typeof value.path === "string" && typeof value.op === "string") return value as unknown as BeforeRecord;
    if (value.phase === "b") return value as unknown as AfterRecord;
    return null;
  } catch {
    return null;
  }
}

/** A change recorded before it happens; finished or discarded once the vault answered. */
export interface PendingChange {
  readonly record: BeforeRecord;
}

/** What a journaling vault needs of the journal: record before, then finish or discard once the vault answered. */
export interface ChangeRecorder {
  begin(call: ChangeCall, change: { op: ChangeOp; path: string; to?: string; before: string | null; partOf?: number }): Promise<PendingChange>;
  finish(pending: PendingChange, after: string | null): Promise<void>;
  discard(pending: PendingChange): Promise<void>;
}
