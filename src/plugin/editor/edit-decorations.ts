/**
 * How a proposal looks in the editor: the region under edit tinted, each deletion struck through, each insertion
 * shown as a widget after it with its Accept and Reject buttons (mouse and touch); the change the keyboard acts on is
 * outlined. Decorations only: the document is untouched until a change is accepted.
 */
import { RangeSetBuilder } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, type DecorationSet } from "@codemirror/view";
import type { EditChange } from "../../core/edit";
import { acceptChanges, editField, rejectChanges, type EditSession } from "./edit-state";

/** A small button; mousedown does not move the editor's selection. */
export function editButton(parent: HTMLElement, label: string, aria: string, cls: string, run: () => void): HTMLButtonElement {
  const button = parent.createEl("button", { cls: `vault-agent-edit-button ${cls}`, text: label, type: "button", attr: { "aria-label": aria } });
  button.addEventListener("mousedown", (e) => e.preventDefault());
  button.addEventListener("click", (e) => {
    e.preventDefault();
    run();
  });
  return button;
}

class ChangeWidget extends WidgetType {
  constructor(
    readonly change: EditChange,
    readonly current: boolean,
  ) {
    super();
  }

  override eq(other: ChangeWidget): boolean {
    return other.change.id === this.change.id && other.change.insert === this.change.insert && other.current === this.current;
  }

  toDOM(view: EditorView): HTMLElement {
    const wrap = createSpan({ cls: `vault-agent-edit-change${this.current ? " is-current" : ""}`, attr: { "data-change": this.change.id } });
    if (this.change.insert) wrap.createEl("ins", { cls: "vault-agent-edit-inserted", text: this.change.insert });
    const id = this.change.id;
    editButton(wrap, "✓", `Accept change ${id}`, "mod-accept", () => void acceptChanges(view, [id]));
    editButton(wrap, "✕", `Reject change ${id}`, "mod-reject", () => void rejectChanges(view, [id]));
    return wrap;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

function decorationsOf(session: EditSession | null): DecorationSet {
  if (!session) return Decoration.none;
  const builder = new RangeSetBuilder<Decoration>();
  const marks: { from: number; to: number; deco: Decoration }[] = [];
  if (session.phase !== "review" && session.to > session.from) marks.push({ from: session.from, to: session.to, deco: Decoration.mark({ class: "vault-agent-edit-region" }) });
  for (const c of session.changes) {
    const current = c.id === session.current;
    if (c.to > c.from) marks.push({ from: c.from, to: c.to, deco: Decoration.mark({ class: `vault-agent-edit-deleted${current ? " is-current" : ""}`, attributes: { "data-change": String(c.id) } }) });
    marks.push({ from: c.to, to: c.to, deco: Decoration.widget({ widget: new ChangeWidget(c, current), side: 1 }) });
  }
  // RangeSetBuilder wants ranges by start, then by startSide (marks before point widgets at the same place).
  marks.sort((a, b) => a.from - b.from || a.deco.startSide - b.deco.startSide);
  for (const m of marks) builder.add(m.from, m.to, m.deco);
  return builder.finish();
}

/** The decorations, derived from the field. */
export const editDecorations = EditorView.decorations.compute([editField], (state) => decorationsOf(state.field(editField, false) ?? null));
