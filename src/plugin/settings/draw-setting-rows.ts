/**
 * Draws the tab's rows (setting-rows.ts) with Setting, as Obsidian 1.13 draws them from getSettingDefinitions():
 * for the apps before 1.13, whose settings window calls display() instead. One list of rows feeds both, so the two
 * cannot drift apart.
 */
import { Notice, Setting, type SettingControl } from "obsidian";
import { showSliderValue } from "./legacy-api";
import { isSection, isVisible, type SettingItem, type SettingRow } from "./setting-rows";

/** Where controls read and save their values (the tab's getControlValue / setControlValue). */
export interface ControlValues {
  read(key: string): unknown;
  write(key: string, value: unknown): Promise<void>;
}

/** The drawn rows: whether what is visible changed since (then draw them again), or stop every row's live updates. */
export interface DrawnRows {
  stale(): boolean;
  stop(): void;
}

/**
 * Draws the rows whose `visible` holds now; a hidden row is left out (as the apps before 1.13 never had it), so a
 * change to what is visible means drawing again.
 */
export function drawSettingRows(containerEl: HTMLElement, items: SettingItem[], values: ControlValues): DrawnRows {
  const seen: { visible: () => boolean; drawn: boolean }[] = [];
  const stops: (() => void)[] = [];
  const drawRow = (row: SettingRow, visible: () => boolean) => {
    const drawn = visible();
    seen.push({ visible, drawn });
    if (!drawn) return;
    const setting = new Setting(containerEl).setName(row.name);
    if (row.desc) setting.setDesc(row.desc);
    if (row.control) drawControl(setting, row.control, values);
    else if (row.render) {
      const stop = row.render(setting);
      if (stop) stops.push(stop);
    }
  };
  for (const item of items) {
    if (!isSection(item)) {
      drawRow(item, () => isVisible(item));
      continue;
    }
    const section = () => isVisible(item);
    seen.push({ visible: section, drawn: section() });
    if (section()) new Setting(containerEl).setName(item.heading).setHeading();
    for (const row of item.items) drawRow(row, () => section() && isVisible(row));
  }
  return {
    stale: () => seen.some((row) => row.visible() !== row.drawn),
    stop: () => {
      for (const stop of stops.splice(0)) stop();
    },
  };
}

/** A stored value as a field's text (a control's value is a string, a number or a boolean). */
function asText(value: unknown): string {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : "";
}

/** Draws one control and saves what the user sets, after its `validate` accepts it. */
function drawControl(setting: Setting, control: SettingControl, values: ControlValues): void {
  const key = control.key;
  const current = values.read(key) ?? control.defaultValue;
  const accept = async (value: unknown, input?: HTMLElement): Promise<void> => {
    const problem = control.validate ? await (control.validate as (v: unknown) => string | void | Promise<string | void>)(value) : undefined;
    input?.toggleClass("is-invalid", !!problem);
    if (problem) {
      new Notice(problem);
      return;
    }
    await values.write(key, value);
  };
  switch (control.type) {
    case "toggle":
      setting.addToggle((t) => t.setValue(current === true).onChange((v) => accept(v)));
      return;
    case "dropdown":
      setting.addDropdown((d) => d.addOptions(control.options).setValue(asText(current)).onChange((v) => accept(v)));
      return;
    case "slider":
      setting.addSlider((s) => showSliderValue(s.setLimits(control.min, control.max, control.step).setValue(Number(current))).onChange((v) => accept(v)));
      return;
    case "textarea":
      setting.addTextArea((t) => {
        t.setValue(asText(current));
        if (control.placeholder) t.setPlaceholder(control.placeholder);
        if (control.rows) t.inputEl.rows = control.rows;
        t.inputEl.addEventListener("change", () => void accept(t.inputEl.value, t.inputEl));
      });
      return;
    case "number":
      setting.addText((t) => {
        const input = t.inputEl;
        input.type = "number";
        if (control.min !== undefined) input.min = String(control.min);
        if (control.max !== undefined) input.max = String(control.max);
        if (control.step !== undefined) input.step = String(control.step);
        if (control.placeholder) t.setPlaceholder(control.placeholder);
        t.setValue(asText(current));
        input.addEventListener("change", () => void accept(input.value.trim() === "" ? Number.NaN : Number(input.value), input));
      });
      return;
    default:
      // text, folder and file: a text field (the apps before 1.13 have no folder or file picker here).
      setting.addText((t) => {
        t.setValue(asText(current));
        if ("placeholder" in control && control.placeholder) t.setPlaceholder(control.placeholder);
        t.inputEl.addEventListener("change", () => void accept(t.inputEl.value, t.inputEl));
      });
  }
}
