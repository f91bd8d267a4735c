/**
 * The in-editor edit proposal as CodeMirror state: a StateField holds the region, the phase (prompt, proposing,
 * review) and the proposed changes, mapped through every transaction; a change the user's typing (or a sync write)
 * touches is dropped with one sentence. Accepting is one transaction (the editor's undo takes it back); nothing in the
 * note changes before. No Obsidian here: the browser test mounts it in a bare CodeMirror editor.
 */
import { ChangeSet, EditorState, Facet, StateEffect, StateField, Transaction, type ChangeDesc } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { droppedSentence, rebaseChanges, type EditChange, type EditProposal, type EditTarget } from "../../core/edit";

export type EditPhase = "prompt" | "proposing" | "review";

/** What the field holds while an edit is open. */
export interface EditSession {
  phase: EditPhase;
  /** The region, in the document as it is now. */
  from: number;
  to: number;
  /** Proposed changes not yet accepted or rejected, at their places now. */
  changes: EditChange[];
  /** The id of the change the keyboard acts on. */
  current: number | null;
  /** One sentence to show (dropped changes, a failure); null for none. */
  notice: string | null;
  /** What the document changed since the proposal was asked for (the model's changes are against the text then). */
  since: ChangeDesc;
  /** Changes accepted so far in this session. */
  accepted: number;
  /** Changes proposed in all. */
  proposed: number;
}

/** How the editor reaches the world: the host (the plugin, or the browser test) provides it. */
export interface EditRunner {
  /** Proposes changes for the region; calls onProgress as the reply streams. */
  propose(target: EditTarget, instruction: string, options: { signal: AbortSignal; onProgress: (partial: EditProposal) => void }): Promise<EditProposal>;
  /** Instructions given lately, newest first. */
  recent(): string[];
  remember(instruction: string): void;
  /** After accepted changes are in the document: journal them (before and after are the whole note). */
  accepted?(view: EditorView, before: string, after: string): Promise<void>;
}

export const editRunner = Facet.define<EditRunner, EditRunner | null>({ combine: (values) => values[0] ?? null });

export const openEdit = StateEffect.define<{ from: number; to: number }>();
export const closeEdit = StateEffect.define<null>();
export const setPhase = StateEffect.define<{ phase: EditPhase; notice?: string | null }>();
/** Changes computed against the text as it was when the proposal was asked for; `final` ends the stream. */
export const proposeChanges = StateEffect.define<{ changes: EditChange[]; final: boolean }>();
/** Changes resolved (accepted with this transaction, or rejected). */
export const resolveChanges = StateEffect.define<{ ids: number[]; accepted: boolean }>();
export const setCurrent = StateEffect.define<number | null>();

/** Marks the transaction that makes accepted changes. */
export const acceptedEdit = Transaction.userEvent.of("input.vault-agent-edit");

export const editField = StateField.define<EditSession | null>({
  create: () => null,
  update(value, tr) {
    let session = value;
    for (const e of tr.effects) {
      if (e.is(openEdit)) session = { phase: "prompt", from: e.value.from, to: e.value.to, changes: [], current: null, notice: null, since: ChangeSet.empty(tr.startState.doc.length).desc, accepted: 0, proposed: 0 };
      else if (e.is(closeEdit)) session = null;
    }
    if (!session) return null;
    if (tr.docChanged) session = mapThrough(session, tr);
    for (const e of tr.effects) {
      if (e.is(setPhase)) {
        session = { ...session, phase: e.value.phase, ...(e.value.notice !== undefined ? { notice: e.value.notice } : {}) };
        if (e.value.phase === "proposing") session = { ...session, since: ChangeSet.empty(tr.state.doc.length).desc, changes: [], current: null };
      } else if (e.is(proposeChanges)) session = withProposed(session, e.value.changes, e.value.final);
      else if (e.is(resolveChanges)) session = resolved(session, e.value.ids, e.value.accepted);
      else if (e.is(setCurrent)) session = { ...session, current: e.value };
    }
    // A review with nothing left to decide is over.
    if (session.phase === "review" && session.changes.length === 0 && session.proposed > 0 && !session.notice) return null;
    return session;
  },
});

/** The region and the changes through a transaction; changes its text touched are dropped (unless this is our accept). */
function mapThrough(session: EditSession, tr: Transaction): EditSession {
  const ours = tr.isUserEvent("input.vault-agent-edit");
  const resolvedNow = new Set(tr.effects.filter((e) => e.is(resolveChanges)).flatMap((e) => (e.value as { ids: number[] }).ids));
  const pending = session.changes.filter((c) => !resolvedNow.has(c.id));
  const { kept, dropped } = rebaseChanges(pending, tr.changes);
  const changes = [...kept, ...session.changes.filter((c) => resolvedNow.has(c.id))].sort((a, b) => a.from - b.from);
  const sentence = !ours ? droppedSentence(dropped.length, kept.length) : null;
  return {
    ...session,
    from: tr.changes.mapPos(session.from, -1),
    to: Math.max(tr.changes.mapPos(session.from, -1), tr.changes.mapPos(session.to, 1)),
    changes,
    current: changes.some((c) => c.id === session.current) ? session.current : (kept[0]?.id ?? null),
    notice: sentence ?? session.notice,
    since: session.phase === "proposing" ? session.since.composeDesc(tr.changes.desc) : session.since,
  };
}

/** New proposed changes, rebased over what the user did since the proposal was asked for. */
function withProposed(session: EditSession, changes: EditChange[], final: boolean): EditSession {
  const { kept, dropped } = rebaseChanges(changes, session.since);
  const sentence = final ? droppedSentence(dropped.length, kept.length) : null;
  return {
    ...session,
    phase: final ? "review" : "proposing",
    changes: kept,
    proposed: kept.length,
    current: kept.some((c) => c.id === session.current) ? session.current : (kept[0]?.id ?? null),
    notice: sentence ?? (final && changes.length === 0 ? "No change was proposed." : session.notice),
  };
}

function resolved(session: EditSession, ids: number[], accepted: boolean): EditSession {
  const gone = new Set(ids);
  const changes = session.changes.filter((c) => !gone.has(c.id));
  const index = session.changes.findIndex((c) => c.id === session.current);
  const next = changes.find((c, i) => i >= index && !gone.has(c.id)) ?? changes[changes.length - 1];
  return { ...session, changes, current: next?.id ?? null, accepted: session.accepted + (accepted ? ids.length : 0), notice: changes.length === 0 ? null : session.notice };
}

/** The open session of a state, or null. */
export function editSession(state: EditorState): EditSession | null {
  return state.field(editField, false) ?? null;
}

/**
 * Accepts changes (by id; "all" for every one left): one transaction makes them, then the host journals the whole
 * note before and after. Returns false when there was nothing to accept.
 */
export async function acceptChanges(view: EditorView, ids: number[] | "all"): Promise<boolean> {
  const session = editSession(view.state);
  if (!session || session.phase !== "review") return false;
  const chosen = session.changes.filter((c) => ids === "all" || ids.includes(c.id));
  if (chosen.length === 0) return false;
  const before = view.state.doc.toString();
  view.dispatch({
    changes: chosen.map((c) => ({ from: c.from, to: c.to, insert: c.insert })),
    effects: resolveChanges.of({ ids: chosen.map((c) => c.id), accepted: true }),
    annotations: acceptedEdit,
    scrollIntoView: false,
  });
  const runner = view.state.facet(editRunner);
  await runner?.accepted?.(view, before, view.state.doc.toString());
  return true;
}

/** Rejects changes (by id; "all" for every one left, which ends the edit): the document is not touched. */
export function rejectChanges(view: EditorView, ids: number[] | "all"): boolean {
  const session = editSession(view.state);
  if (!session) return false;
  if (ids === "all" || session.phase !== "review") {
    view.dispatch({ effects: closeEdit.of(null) });
    return true;
  }
  const chosen = session.changes.filter((c) => ids.includes(c.id)).map((c) => c.id);
  if (chosen.length === 0) return false;
  view.dispatch({ effects: resolveChanges.of({ ids: chosen, accepted: false }) });
  return true;
}

/** Moves the keyboard's change forward or back. */
export function moveCurrent(view: EditorView, step: 1 | -1): boolean {
  const session = editSession(view.state);
  if (!session || session.changes.length === 0) return false;
  const index = session.changes.findIndex((c) => c.id === session.current);
  const next = session.changes[(index + step + session.changes.length) % session.changes.length];
  view.dispatch({ effects: [setCurrent.of(next.id), ...scrollTo(view, next.from)] });
  return true;
}

function scrollTo(view: EditorView, pos: number): StateEffect<unknown>[] {
  const ctor = view.constructor as typeof EditorView;
  return [ctor.scrollIntoView(pos, { y: "center" })];
}
