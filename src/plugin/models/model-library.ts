/**
 * The models the user can pick: every .gguf file in the plugin's models folder and in an optional user folder,
 * each with the facts its GGUF header gives (read without loading). Partial downloads (`.gguf.part`) never appear.
 */
import * as fs from "fs";
import * as path from "path";
import type { ModelInfo } from "../../core/ports/engine";
import { readGgufInfo } from "../../engine/gguf";

/** One file in the picker: its header facts, or why they could not be read. */
export interface ModelEntry {
  path: string;
  /** File name without the folder. */
  fileName: string;
  /** Which folder it came from. */
  source: "plugin" | "user";
  info?: ModelInfo;
  /** One sentence when the header could not be read (truncated, not a GGUF...). */
  problem?: string;
}

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

/** "Qwen2.5 0.5B Instruct · qwen2 · 494M params · Q4_K_M · 398 MB · 32,768 ctx" */
export function describeModel(entry: ModelEntry): string {
  if (!entry.info) return entry.problem ?? "Unreadable model file.";
  const i = entry.info;
  const parts = [i.architecture];
  if (i.parameterCount) parts.push(`${formatCount(i.parameterCount)} params`);
  if (i.quantization) parts.push(i.quantization);
  parts.push(formatBytes(i.fileSizeBytes));
  if (i.trainedContextLength) parts.push(`${i.trainedContextLength.toLocaleString("en-US")} ctx`);
  if (!i.hasChatTemplate) parts.push("no chat template");
  return parts.join(" · ");
}

export function formatCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${Math.round(n / 1e6)}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}K`;
  return String(n);
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${Math.round(n / 1024 ** 2)} MB`;
  return `${Math.max(1, Math.round(n / 1024))} KB`;
}
