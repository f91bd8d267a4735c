/**
 * A confirmation card's unified diff drawn with word-level marks: each block of removed lines followed by added lines
 * is compared word by word (the same diff as edit in place), the removed words struck through and the added words
 * marked, so a one-word change in a long line shows as one word.
 */
import { wordDiff, type DiffHunk } from "../../core/edit";

type LineKind = "is-added" | "is-removed" | "is-hunk" | "";

function kindOf(line: string): LineKind {
  if (line.startsWith("+") && !line.startsWith("+++")) return "is-added";
  if (line.startsWith("-") && !line.startsWith("---")) return "is-removed";
  return line.startsWith("@@") ? "is-hunk" : "";
}

/** Draws `lines` (without their +/- marks) with the ranges of `marks` (offsets in the lines joined by "\n") wrapped. */
function drawBlock(preview: HTMLElement, lines: string[], sign: string, kind: LineKind, marks: { from: number; to: number }[], tag: "del" | "ins"): void {
  let offset = 0;
  for (const line of lines) {
    const row = preview.createDiv({ cls: ["vault-agent-preview-line", kind] });
    row.appendText(sign);
    let at = 0;
    for (const m of marks) {
      const from = Math.max(m.from - offset, 0);
      const to = Math.min(m.to - offset, line.length);
      if (to <= from || from >= line.length) continue;
      if (from > at) row.appendText(line.slice(at, from));
      row.createEl(tag, { cls: "vault-agent-preview-word", text: line.slice(from, to) });
      at = to;
    }
    if (at < line.length) row.appendText(line.slice(at));
    if (line === "" && sign === "") row.appendText(" ");
    offset += line.length + 1;
  }
}

export function renderWordDiff(preview: HTMLElement, unified: string): void {
  const lines = unified.split("\n");
  for (let i = 0; i < lines.length; ) {
    const kind = kindOf(lines[i]);
    if (kind !== "is-removed" && kind !== "is-added") {
      preview.createDiv({ cls: ["vault-agent-preview-line", kind].filter(Boolean), text: lines[i] === "" ? " " : lines[i] });
      i++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (i < lines.length && kindOf(lines[i]) === "is-removed") removed.push(lines[i++].slice(1));
    while (i < lines.length && kindOf(lines[i]) === "is-added") added.push(lines[i++].slice(1));
    // Lines only removed or only added are whole changes; a pair is compared word by word.
    const hunks: DiffHunk[] = removed.length && added.length ? wordDiff(removed.join("\n"), added.join("\n")) : [];
    const whole = (text: string[]) => [{ from: 0, to: text.join("\n").length }];
    if (removed.length) drawBlock(preview, removed, "-", "is-removed", added.length ? hunks.map((h) => ({ from: h.fromA, to: h.toA })) : whole(removed), "del");
    if (added.length) drawBlock(preview, added, "+", "is-added", removed.length ? hunks.map((h) => ({ from: h.fromB, to: h.toB })) : whole(added), "ins");
  }
}
