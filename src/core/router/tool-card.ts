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

export function toolCard(tool: Pick<ToolDefinition, "name" | "family" | "effect" | "description" | "routingHints">): ToolCard {
  return {
    name: tool.name,
    family: tool.family,
    effect: tool.effect,
    nameWords: tool.name.replace(/[:_-]/g, " "),
    description: tool.description,
    hints: tool.routingHints.join("\n"),
  };
}

/** The one text embedded per tool. */
export function cardText(card: ToolCard): string {
  return `${card.nameWords}: ${card.description} ${card.hints.replace(/\n/g, "; ")}`;
}
