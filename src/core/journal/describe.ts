/** One line per journaled turn, for the CLI's `undo --list` and the plugin's list of undoable turns. */
import type { JournalTurn } from "./change-journal";
import type { JournalChange } from "./records";

function changeText(change: JournalChange): string | null {
  const b = change.before;
  if (b.partOf !== undefined) return null;
  switch (b.op) {
    case "create":
      return `created ${b.path}`;
    case "modify":
      return `changed ${b.path}`;
    case "move":
      return `moved ${b.path} to ${b.to ?? "?"}`;
    case "trash":
      return `trashed ${b.path}`;
  }
}

/** "2025-05-04 10:12 t1abc: created Inbox/Idea.md, moved A.md to Archive/A.md". */
export function describeTurn(turn: JournalTurn): string {
  const d = new Date(turn.at);
  const pad = (n: number): string => String(n).padStart(2, "0");
  const when = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const parts = turn.changes.map(changeText).filter((t): t is string => t !== null);
  const shown = parts.slice(0, 6).join(", ") + (parts.length > 6 ? ` and ${parts.length - 6} more` : "");
  const unfinished = turn.changes.some((c) => !c.after) ? " (interrupted)" : "";
  return `${when} ${turn.turnId}: ${shown}${unfinished}`;
}
