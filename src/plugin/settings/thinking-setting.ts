/** The "Let thinking models think first" toggle of the model section. */
import { toggleRow, type ControlRow } from "./setting-rows";
import { THINK_FIRST_TOKENS } from "./settings";

export function thinkingRow(): ControlRow {
  return toggleRow(
    "thinkFirst",
    "Let thinking models think first",
    `Models with a thinking mode (Qwen3, Gemma 4, SmolLM3) may think for up to ${THINK_FIRST_TOKENS} tokens before each reply. Slower; the thoughts are never shown as the answer. Off runs them with thinking off.`,
    ["reasoning", "think"],
  );
}
