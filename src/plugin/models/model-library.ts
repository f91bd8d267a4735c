/**
 * The models the user can pick: every .gguf file in the plugin's models folder and in an optional user folder,
 * each with the facts its GGUF header gives (read without loading). Partial downloads (`.gguf.part`) never appear.
 */
import { readGgufInfo } from "../../engine/gguf";
import type { ModelEntry } from "./model-entry";
import { nodeModule } from "../../engine/node-builtins";

const fs = nodeModule("fs");
const path = nodeModule("path");

// The picker's text helpers need no Node; they live in model-entry.ts (read by the settings tab on every device).
export { describeModel, formatBytes, formatCount, type ModelEntry } from "./model-entry";

/** Lists the .gguf files of the given folders, sorted by name, with header info. Missing folders list nothing. */
export async function listModels(folders: { path: string; source: "plugin" | "user" }[]): Promise<ModelEntry[]> {
  const entries: ModelEntry[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    if (!folder.path) continue;
    let names: string[];
    try {
      names = await fs.promises.readdir(folder.path);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.toLowerCase().endsWith(".gguf")).sort()) {
      const file = path.join(folder.path, name);
      if (seen.has(file)) continue;
      seen.add(file);
      try {
        entries.push({ path: file, fileName: name, source: folder.source, info: await readGgufInfo(file) });
      } catch (error) {
        entries.push({ path: file, fileName: name, source: folder.source, problem: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return entries;
}
