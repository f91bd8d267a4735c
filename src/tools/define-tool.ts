import type { z } from "zod";
import type { ToolDefinition } from "../core/protocol/tool";

/** Keeps a tool's handler typed by its own args while the catalog holds plain `ToolDefinition`s. */
export function defineTool<A extends z.ZodObject>(definition: ToolDefinition<A>): ToolDefinition {
  return definition;
}
