/** A memory note: where a fact is kept in the memory folder and the text it is kept as (memory:save and review share it). */
import type { MemoryFact } from "../core/protocol/staged-memory";
import { stringifyYaml } from "../core/memory/frontmatter";
import { folderPath } from "./note-path";
import { formatDate } from "./date-format";

/** The memory folder from the settings ("Memory" when unset). */
export function memoryFolder(setting: string | undefined): string {
  return folderPath(setting) || "Memory";
}

/** The note's title: the fact's title, or its first six words, without characters a file name cannot hold. */
export function memoryNoteTitle(fact: MemoryFact): string {
  return (
    (fact.title ?? fact.content.split(/\s+/).slice(0, 6).join(" "))
      .replace(/[\\/:*?"<>|#^[\]\n]/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 60)
      // A sentence's closing stop is no part of a name ("…4513." would make "…4513..md").
      .replace(/[\s.,;:!?]+$/, "") || "Memory"
  );
}

/** `<folder>/YYYY-MM-DD Title.md`, dated by `date`. */
export function memoryNotePath(fact: MemoryFact, folder: string, date: Date): string {
  return `${folder}/${formatDate(date, "YYYY-MM-DD")} ${memoryNoteTitle(fact)}.md`;
}

/** The note's text: a new note with `created` and the memory tags, or the fact appended to the note already there. */
export function memoryNoteText(fact: MemoryFact, date: Date, before: string | null): string {
  const stamp = formatDate(date, "YYYY-MM-DD HH:mm");
  if (before !== null) return `${before.replace(/\n*$/, "\n")}\n${stamp}: ${fact.content.trim()}\n`;
  const tags = ["memory", ...(fact.tags ?? []).map((t) => t.replace(/^#/, "").trim()).filter((t) => t && t !== "memory")];
  return `---\n${stringifyYaml({ created: stamp, tags })}\n---\n${fact.content.trim()}\n`;
}
