/** A model file as the picker shows it, and the text that describes it; no Node here (the settings tab loads on mobile). */
import type { ModelInfo } from "../../core/ports/engine";

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
