/**
 * How the fake settings window shows a tab, as Obsidian does: from 1.13, a tab whose getSettingDefinitions() returns
 * rows is drawn from them (groups with headings, controls read and saved through getControlValue / setControlValue,
 * rows drawn by their `render`, `visible` predicates applied) and display() is not called; before 1.13, display().
 */
import { requireApiVersion } from "./api-version";
import { Notice, Setting, type SettingTab } from "./ui";

type Flag = boolean | (() => boolean) | undefined;

/** The shape of a declarative definition, as far as the fake reads it. */
export interface FakeDefinition {
  type?: "group" | "list" | "page";
  name?: string;
  heading?: string;
  desc?: string | DocumentFragment;
  aliases?: string[];
  visible?: Flag;
  items?: FakeDefinition[];
  control?: {
    type: string;
    key: string;
    defaultValue?: unknown;
    options?: Record<string, string>;
    placeholder?: string;
    min?: number;
    max?: number;
    step?: number | "any";
    rows?: number;
    validate?: (value: unknown) => string | void | Promise<string | void>;
  };
  render?: (setting: Setting, group: unknown) => void | (() => void);
  action?: (el: HTMLElement, index: number) => void;
}

const shown = (flag: Flag): boolean => (typeof flag === "function" ? flag() : flag !== false);

/** Shows `tab` in `host` the way the app of the fake's version does. */
export function showSettingTab(tab: SettingTab): void {
  tab.update();
  if (requireApiVersion("1.13.0") && tab.settingItems.length > 0) drawDefinitions(tab);
  else tab.display();
}

/** Draws the tab's definitions into its containerEl and keeps them live until the tab hides. */
export function drawDefinitions(tab: SettingTab): void {
  let rows: { el: HTMLElement; visible: () => boolean }[] = [];
  let cleanups: (() => void)[] = [];
  const teardown = () => {
    for (const cleanup of cleanups) cleanup();
    cleanups = [];
    rows = [];
    tab.containerEl.empty();
  };
  const refreshDomState = () => {
    for (const row of rows) row.el.toggle(row.visible());
  };
  const draw = () => {
    teardown();
    for (const item of tab.settingItems as FakeDefinition[]) {
      if (item.type === "group" || item.type === "list") {
        const groupEl = tab.containerEl.createDiv({ cls: "setting-group" });
        const groupShown = () => shown(item.visible);
        if (item.heading) rows.push({ el: new Setting(groupEl).setName(item.heading).setHeading().settingEl, visible: groupShown });
        const list = groupEl.createDiv({ cls: "setting-items" });
        for (const def of item.items ?? []) drawRow(tab, list, def, () => groupShown() && shown(def.visible), rows, cleanups);
      } else drawRow(tab, tab.containerEl, item, () => shown(item.visible), rows, cleanups);
    }
    refreshDomState();
  };
  tab.shownDefinitions = { redraw: draw, refreshDomState, teardown };
  draw();
}

function drawRow(tab: SettingTab, parent: HTMLElement, def: FakeDefinition, visible: () => boolean, rows: { el: HTMLElement; visible: () => boolean }[], cleanups: (() => void)[]): void {
  if (def.type === "page") throw new Error("The fake settings window draws no sub-pages.");
  const setting = new Setting(parent).setName(def.name ?? "");
  if (def.desc) setting.setDesc(def.desc);
  rows.push({ el: setting.settingEl, visible });
  if (def.render) {
    const cleanup = def.render(setting, { listEl: parent });
    if (cleanup) cleanups.push(cleanup);
  } else if (def.control) drawControl(tab, setting, def.control);
  else if (def.action) setting.settingEl.addEventListener("click", () => def.action?.(setting.settingEl, 0));
}

function drawControl(tab: SettingTab, setting: Setting, control: NonNullable<FakeDefinition["control"]>): void {
  setting.settingEl.setAttribute("data-key", control.key);
  const value = tab.getControlValue(control.key) ?? control.defaultValue;
  const errorEl = setting.descEl.createDiv({ cls: "setting-item-error" });
  const save = async (next: unknown): Promise<void> => {
    const problem = control.validate ? await control.validate(next) : undefined;
    errorEl.setText(problem || "");
    if (problem) return;
    try {
      await tab.setControlValue(control.key, next);
    } catch (error) {
      new Notice(error instanceof Error ? error.message : String(error));
    }
  };
  const text = (v: unknown) => (typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : "");
  switch (control.type) {
    case "toggle":
      setting.addToggle((t) => t.setValue(value === true).onChange((v) => save(v)));
      return;
    case "dropdown":
      setting.addDropdown((d) => d.addOptions(control.options ?? {}).setValue(text(value)).onChange((v) => save(v)));
      return;
    case "slider":
      setting.addSlider((s) => s.setLimits(control.min ?? 0, control.max ?? 100, control.step ?? 1).setValue(Number(value)).onChange((v) => save(v)));
      return;
    case "number":
      setting.addText((t) => {
        t.inputEl.type = "number";
        t.setValue(text(value)).onChange((v) => save(v.trim() === "" ? (control.defaultValue ?? 0) : Number(v)));
      });
      return;
    case "textarea":
      setting.addTextArea((t) => t.setValue(text(value)).onChange((v) => save(v)));
      return;
    case "text":
    case "folder":
    case "file":
      setting.addText((t) => t.setPlaceholder(control.placeholder ?? "").setValue(text(value)).onChange((v) => save(v)));
      return;
    default:
      throw new Error(`The fake settings window draws no ${control.type} control.`);
  }
}
