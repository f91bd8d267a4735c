/** A tool card: the text the router indexes and embeds for one tool. */
import type { ToolDefinition } from "../protocol/tool";

export interface ToolCard {
  name: string;
  family: string;
  /** "read" | "write" | "destructive". */
  effect: ToolDefinition["effect"];
  /** The name as words: "vault read". */
  nameWords: string;
  description: string;
  /** Routing hints joined by newlines. */
  hints: string;
}

const GENERIC_NAME_WORDS = new Set(["note", "notes", "vault"]);

export function toolCard(tool: Pick<ToolDefinition, "name" | "family" | "effect" | "description" | "routingHints">): ToolCard {
  return {
    name: tool.name,
    family: tool.family,
    effect: tool.effect,
    // "note"/"vault" are in almost every message; as name words they would pull every note:* tool up.
    nameWords: tool.name
      .replace(/[:_-]/g, " ")
      .split(" ")
      .filter((w) => !GENERIC_NAME_WORDS.has(w))
      .join(" "),
    description: tool.description,
    hints: tool.routingHints.join("\n"),
  };
}

/** The one text embedded per tool. */
export function cardText(card: ToolCard): string {
  return `${card.nameWords}: ${card.description} ${card.hints.replace(/\n/g, "; ")}`;
}
