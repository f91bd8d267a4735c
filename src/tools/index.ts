/** The tool catalog: every tool the agent can call, one file per family. */
import type { ToolDefinition } from "../core/protocol/tool";
import { vaultTools } from "./vault";
import { noteTools } from "./note";
import { tagTools } from "./tags";
import { linkTools } from "./links";
import { frontmatterTools } from "./frontmatter";
import { dailyTools } from "./daily";
import { taskTools } from "./tasks";
import { clockTools } from "./clock";
import { memoryTools, stagedMemoryTools } from "./memory";
import { webTools } from "./web";
import { pdfTools } from "./pdf";
import { baseTools } from "./base";
import { canvasTools } from "./canvas";

export interface ToolCatalogOptions {
  /** Include vault:semantic_search (false when no embedding model is configured, so the router never offers it). Default true. */
  semantic?: boolean;
  /** Include web:fetch (it still refuses unless settings.networkTools is on). Default true. */
  network?: boolean;
  /** memory:save stages facts in the conversation for the user's review instead of writing a note at once. Default false. */
  stagedMemory?: boolean;
}

/** Tools that need an embedding model and are dropped with `semantic: false`. */
export const SEMANTIC_TOOLS = ["vault:semantic_search"];

export function createToolCatalog(options: ToolCatalogOptions = {}): ToolDefinition[] {
  const all = [
    ...vaultTools,
    ...noteTools,
    ...tagTools,
    ...linkTools,
    ...frontmatterTools,
    ...dailyTools,
    ...taskTools,
    ...clockTools,
    ...(options.stagedMemory ? stagedMemoryTools : memoryTools),
    ...webTools,
    ...baseTools,
    ...canvasTools,
    ...pdfTools,
  ];
  return all.filter((t) => (options.semantic === false ? !SEMANTIC_TOOLS.includes(t.name) : true) && (options.network === false ? t.family !== "web" : true));
}

export { ToolError } from "./tool-error";
export { NO_EMBEDDINGS } from "./vault";
export { dailyNotePath, dailySettingsFromObsidian } from "./daily";
export { unifiedDiff } from "./line-diff";
