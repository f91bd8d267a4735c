/** The settings tab's repeated rows: a whole-number field and a slider, each saving what the user sets. */
import { Notice, Setting } from "obsidian";
import type { VaultAgentSettings } from "./settings";

/** What every section needs from the plugin: the settings and a way to save a change. */
export interface SectionDeps {
  settings: () => VaultAgentSettings;
  /** Saves and applies (a changed model restarts the engine on next use). */
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
}

/** A whole-number input that saves valid values and marks invalid ones. */
export function numberInput(input: HTMLInputElement, value: number, min: number, max: number, save: (v: number) => Promise<void>): void {
  input.type = "number";
  input.min = String(min);
  input.max = String(max);
  input.value = String(value);
  input.addEventListener("change", () => {
    const v = Number(input.value);
    const ok = Number.isInteger(v) && v >= min && v <= max;
    input.toggleClass("is-invalid", !ok);
    if (ok) void save(v);
    else new Notice(`Enter a whole number from ${min} to ${max}.`);
  });
}

/** A row with a whole-number field from `min` to `max`. */
export function numberSetting(el: HTMLElement, name: string, desc: string, value: number, [min, max]: [number, number], save: (v: number) => Promise<void>): Setting {
  return new Setting(el)
    .setName(name)
    .setDesc(desc)
    .addText((t) => numberInput(t.inputEl, value, min, max, save));
}

/** A row with a slider over `[min, max]` in steps of `step`, showing its value. */
export function sliderSetting(el: HTMLElement, name: string, desc: string, value: number, [min, max, step]: [number, number, number], save: (v: number) => Promise<void>): Setting {
  return new Setting(el)
    .setName(name)
    .setDesc(desc)
    .addSlider((sl) =>
      sl
        .setLimits(min, max, step)
        .setValue(value)
        .setDynamicTooltip()
        .onChange(async (v) => save(v)),
    );
}
