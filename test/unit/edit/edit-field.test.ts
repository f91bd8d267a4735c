/**
 * The editor's proposal state on a real CodeMirror EditorState: the proposal streams in, the user's typing drops only
 * the changes it touches (one sentence), accepting is one transaction whose inverse (what the editor's undo applies)
 * gives the bytes back, and rejecting changes nothing.
 */
import { EditorState, StateEffect, type TransactionSpec } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { describe, expect, it } from "vitest";
import { proposalFromReply } from "../../../src/core/edit";
import { acceptChanges, editField, editRunner, editSession, moveCurrent, openEdit, proposeChanges, rejectChanges, setPhase, type EditRunner } from "../../../src/plugin/editor/edit-state";

// CodeMirror's document separates lines with "\n" (the headless test covers "\r\n" notes).
const NOTE = "# Garden\n\nThe tomatos are planted in bed one. They need water every day! Is the soil too dry?\n\n## Tasks\n- buy compost 🌱\n";
const REPLY = JSON.stringify({
  edits: [
    { find: "The tomatos are planted in bed one.", replace: "The tomatoes are planted in bed one." },
    { find: "Is the soil too dry?", replace: "Is the soil dry?" },
    { find: "- buy compost 🌱", replace: "- buy compost and mulch 🌱" },
  ],
});

/** A real EditorState behind the few members of EditorView the commands use; every transaction is kept. */
function editor(journal: { before: string; after: string }[] = []) {
  const runner: EditRunner = {
    propose: () => Promise.reject(new Error("not used")),
    recent: () => [],
    remember: () => undefined,
    accepted: async (_view, before, after) => void journal.push({ before, after }),
  };
  const holder = {
    state: EditorState.create({ doc: NOTE, extensions: [editField, editRunner.of(runner)] }),
    transactions: [] as ReturnType<EditorState["update"]>[],
    dispatch(spec: TransactionSpec) {
      const tr = holder.state.update(spec);
      holder.transactions.push(tr);
      holder.state = tr.state;
    },
  };
  const view = holder as unknown as EditorView & typeof holder;
  const from = NOTE.indexOf("The tomatos");
  view.dispatch({ effects: openEdit.of({ from, to: NOTE.length }) });
  view.dispatch({ effects: setPhase.of({ phase: "proposing" }) });
  const proposal = proposalFromReply({ note: NOTE, from, to: NOTE.length }, REPLY);
  return { view, proposal, journal };
}

describe("the editor's edit proposal", () => {
  it("accepting one of three changes gives exactly the expected bytes, in one transaction that undo reverses byte for byte", async () => {
    const { view, proposal, journal } = editor();
    view.dispatch({ effects: proposeChanges.of({ changes: proposal.changes, final: true }) });
    expect(view.state.doc.toString()).toBe(NOTE);
    expect(editSession(view.state)?.changes).toHaveLength(3);
    const before = view.transactions.length;
    await acceptChanges(view, [2]);
    expect(view.transactions.length - before).toBe(1);
    const accept = view.transactions.at(-1)!;
    expect(view.state.doc.toString()).toBe(NOTE.replace("soil too dry", "soil dry"));
    expect(journal).toEqual([{ before: NOTE, after: NOTE.replace("soil too dry", "soil dry") }]);
    expect(editSession(view.state)?.changes.map((c) => c.id)).toEqual([1, 3]);
    // What the editor's history does on undo: the accept transaction's changes inverted.
    view.dispatch({ changes: accept.changes.invert(accept.startState.doc) });
    expect(view.state.doc.toString()).toBe(NOTE);
  });

  it("rejecting all leaves the note byte-identical and closes the edit", () => {
    const { view, proposal } = editor();
    view.dispatch({ effects: proposeChanges.of({ changes: proposal.changes, final: true }) });
    rejectChanges(view, [1]);
    expect(editSession(view.state)?.changes).toHaveLength(2);
    rejectChanges(view, "all");
    expect(editSession(view.state)).toBeNull();
    expect(view.state.doc.toString()).toBe(NOTE);
  });

  it("typing under a proposal drops the change it touches with one sentence; the rest apply where they moved", async () => {
    const { view, proposal } = editor();
    view.dispatch({ effects: proposeChanges.of({ changes: proposal.changes, final: true }) });
    const at = NOTE.indexOf("too dry");
    view.dispatch({ changes: { from: at, to: at + 3, insert: "so" } });
    view.dispatch({ changes: { from: 0, insert: "Intro\n" } });
    const s = editSession(view.state)!;
    expect(s.changes.map((c) => c.id)).toEqual([1, 3]);
    expect(s.notice).toBe("1 proposed change no longer applies because the text under it changed, so it was dropped; 2 are still proposed.");
    await acceptChanges(view, "all");
    expect(view.state.doc.toString()).toBe("Intro\n" + NOTE.replace("tomatos", "tomatoes").replace("too dry", "so dry").replace("compost 🌱", "compost and mulch 🌱"));
  });

  it("changes that stream in after the user typed are rebased onto what the user wrote", () => {
    const { view, proposal } = editor();
    view.dispatch({ changes: { from: 0, insert: "New first line\n" } });
    view.dispatch({ effects: proposeChanges.of({ changes: proposal.changes, final: true }) });
    const s = editSession(view.state)!;
    expect(s.changes.map((c) => view.state.doc.sliceString(c.from, c.to))).toEqual(["tomatos", "too ", ""]);
  });

  it("the keyboard's change moves forward and back; closing the last decision ends the review", async () => {
    const { view, proposal } = editor();
    view.dispatch({ effects: proposeChanges.of({ changes: proposal.changes, final: true }) });
    expect(editSession(view.state)?.current).toBe(1);
    const scrolled = StateEffect.define<number>();
    (view as unknown as { constructor: unknown }).constructor = { scrollIntoView: (pos: number) => scrolled.of(pos) };
    moveCurrent(view, 1);
    expect(editSession(view.state)?.current).toBe(2);
    moveCurrent(view, -1);
    moveCurrent(view, -1);
    expect(editSession(view.state)?.current).toBe(3);
    await acceptChanges(view, [1]);
    rejectChanges(view, [2]);
    expect(editSession(view.state)?.changes.map((c) => c.id)).toEqual([3]);
    rejectChanges(view, [3]);
    expect(editSession(view.state)).toBeNull();
    expect(view.state.doc.toString()).toBe(NOTE.replace("tomatos", "tomatoes"));
  });
});
