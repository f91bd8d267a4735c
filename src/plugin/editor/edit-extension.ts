/**
 * The edit-in-place editor extension: state field, decorations, panel and keys, with the host's runner. `startEdit`
 * opens the prompt on the selection, or on the section under the cursor; sending streams the proposal into the field.
 */
import { Prec, type Extension } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { sectionAt } from "../../core/edit";
import { editDecorations } from "./edit-decorations";
import { editPanel } from "./edit-panel";
import { acceptChanges, editField, editRunner, editSession, moveCurrent, openEdit, proposeChanges, rejectChanges, setPhase, type EditRunner } from "./edit-state";

/** Running proposals, per editor, so Stop and a new edit can abort them. */
const running = new WeakMap<EditorView, AbortController>();

/** Opens the prompt on the selection, or on the section under the cursor when nothing is selected. */
export function startEdit(view: EditorView): void {
  running.get(view)?.abort();
  const sel = view.state.selection.main;
  let { from, to } = sel;
  if (from === to) {
    const section = sectionAt(view.state.doc.toString(), from);
    from = section.from;
    to = section.to;
  }
  const Ctor = view.constructor as typeof EditorView;
  view.dispatch({ effects: [openEdit.of({ from, to }), Ctor.scrollIntoView(from, { y: "nearest" })] });
}

/** Sends the instruction: the proposal streams into the field; a failure is one sentence in the prompt. */
export function sendEdit(view: EditorView, instruction: string): void {
  const session = editSession(view.state);
  const runner = view.state.facet(editRunner);
  if (!session || !runner) return;
  runner.remember(instruction);
  const controller = new AbortController();
  running.get(view)?.abort();
  running.set(view, controller);
  const target = { note: view.state.doc.toString(), from: session.from, to: session.to };
  // The selection collapses to the region's start, so the proposal's marks are not hidden under it.
  view.dispatch({ effects: setPhase.of({ phase: "proposing", notice: null }), selection: { anchor: session.from } });
  // The prompt's input goes; the keys of the review act in the editor.
  view.focus();
  const live = () => running.get(view) === controller && editSession(view.state) !== null;
  runner
    .propose(target, instruction, {
      signal: controller.signal,
      onProgress: (partial) => {
        if (live()) view.dispatch({ effects: proposeChanges.of({ changes: partial.changes, final: false }) });
      },
    })
    .then((proposal) => {
      if (live()) view.dispatch({ effects: proposeChanges.of({ changes: proposal.changes, final: true }) });
    })
    .catch((err: unknown) => {
      if (!live()) return;
      const message = controller.signal.aborted ? "Stopped; nothing was changed." : err instanceof Error ? err.message : String(err);
      view.dispatch({ effects: setPhase.of({ phase: "prompt", notice: message }) });
    })
    .finally(() => {
      if (running.get(view) === controller) running.delete(view);
    });
}

export function stopEdit(view: EditorView): void {
  running.get(view)?.abort();
}

const inReview = (view: EditorView) => editSession(view.state)?.phase === "review";

/** Keys while a proposal is under review; they fall through to the editor otherwise. */
const reviewKeys = keymap.of([
  { key: "Alt-]", run: (v) => inReview(v) && moveCurrent(v, 1) },
  { key: "Alt-[", run: (v) => inReview(v) && moveCurrent(v, -1) },
  {
    key: "Alt-y",
    run: (v) => {
      const s = editSession(v.state);
      if (s?.phase !== "review" || s.current === null) return false;
      void acceptChanges(v, [s.current]);
      return true;
    },
  },
  {
    key: "Alt-n",
    run: (v) => {
      const s = editSession(v.state);
      if (s?.phase !== "review" || s.current === null) return false;
      return rejectChanges(v, [s.current]);
    },
  },
  { key: "Mod-Enter", run: (v) => inReview(v) && (void acceptChanges(v, "all"), true) },
  {
    key: "Escape",
    run: (v) => {
      const s = editSession(v.state);
      if (!s) return false;
      stopEdit(v);
      return rejectChanges(v, "all");
    },
  },
]);

/** Everything the editor needs, with the host's runner. */
export function editExtension(runner: EditRunner): Extension {
  return [editField, editRunner.of(runner), editDecorations, editPanel({ send: sendEdit, stop: stopEdit }), Prec.highest(reviewKeys)];
}
