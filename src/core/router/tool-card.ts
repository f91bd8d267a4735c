/** A tool card: the text the router indexes and embeds for one tool. */
import type { ToolDefinition } from "../protocol/tool";
import { LOCALIZED_HINTS } from "./languages";

/** What the router needs of a tool: a built-in ToolDefinition, or a tool from a foreign catalog. */
export type RoutableTool = Pick<ToolDefinition, "name" | "family" | "effect" | "description" | "routingHints"> & {
  /** Parameter names and descriptions as text (foreign catalogs, whose descriptions are often short). */
  parameterText?: string;
};

export interface ToolCard {
  name: string;
  family: string;
  /** "read" | "write" | "destructive". */
  effect: ToolDefinition["effect"];
  /** The name as words: "vault read", "get weather forecast" (from get_weather_forecast or getWeatherForecast). */
  nameWords: string;
  description: string;
  /** Routing hints joined by newlines: the tool's own and, for built-in tools, those of every supported language. */
  hints: string;
  /** Parameter names and descriptions. */
  params: string;
  /** How many of `hints` are the tool's own (the rest are translations). */
  ownHints: number;
}

const GENERIC_NAME_WORDS = new Set(["note", "notes", "vault"]);

/** "Hotels_4_SearchHotel" → "hotels search hotel"; "math.hypot" → "math hypot"; "vault:read" → "vault read". */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .replace(/\d+/g, " ")
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
}

export function toolCard(tool: RoutableTool): ToolCard {
  return {
    name: tool.name,
    family: tool.family,
    effect: tool.effect,
    // "note"/"vault" are in almost every message; as name words they would pull every note:* tool up.
    nameWords: nameWords(tool.name)
      .filter((w) => !GENERIC_NAME_WORDS.has(w))
      .join(" "),
    description: tool.description,
    hints: [...tool.routingHints, ...(LOCALIZED_HINTS[tool.name] ?? [])].join("\n"),
    params: tool.parameterText ?? "",
    ownHints: tool.routingHints.length,
  };
}

/** The one text embedded per tool (the tool's own hints only: an embedding model needs no translations). */
export function cardText(card: ToolCard): string {
  const own = card.hints.split("\n").slice(0, card.ownHints).join("; ");
  return `${card.nameWords}: ${card.description} ${own}`;
}
