/**
 * The settings tab as data: sections of rows in the shape of Obsidian's declarative settings (1.13), which the app
 * draws and indexes for its settings search, and which `drawSettingRows` draws itself on older apps. A row is a
 * control bound by key (see setting-bindings.ts), a row drawn by code (live status, buttons, the keychain picker),
 * or a name with a description.
 */
import type { Setting, SettingControl, SettingDefinitionBase } from "obsidian";

/** A row whose value Obsidian reads and writes through the tab's getControlValue / setControlValue under `control.key`. */
export interface ControlRow extends SettingDefinitionBase {
  control: SettingControl;
  render?: never;
  action?: never;
}

/**
 * A row drawn by code into the Setting it is given, writing only inside that row; what it returns stops its live
 * updates (Obsidian calls it before the row goes away, the tab again when it hides).
 */
export interface CustomRow extends SettingDefinitionBase {
  render: (setting: Setting) => void | (() => void);
  control?: never;
  action?: never;
}

/** A row with a name and a description only. */
export interface TextRow extends SettingDefinitionBase {
  control?: never;
  render?: never;
  action?: never;
}

export type SettingRow = ControlRow | CustomRow | TextRow;

/** A section under a heading (Obsidian's declarative group). */
export interface SettingSection {
  type: "group";
  heading: string;
  items: SettingRow[];
  /** Hides the whole section; evaluated on each draw. */
  visible?: boolean | (() => boolean);
}

/** What the tab shows: sections, and rows above them (the line on what this device hides). */
export type SettingItem = SettingSection | SettingRow;

export function isSection(item: SettingItem): item is SettingSection {
  return "type" in item && item.type === "group";
}

/** Evaluates a `visible` flag or predicate (absent = shown). */
export function isVisible(item: { visible?: boolean | (() => boolean) }): boolean {
  const v = item.visible;
  return typeof v === "function" ? v() : v !== false;
}

/** Every control row of `items`, sections opened (for tests and the fallback drawer). */
export function controlRows(items: SettingItem[]): ControlRow[] {
  const rows = items.flatMap((item) => (isSection(item) ? item.items : [item]));
  return rows.filter((row): row is ControlRow => "control" in row && row.control !== undefined);
}

/** Rejects anything but a whole number from `min` to `max` (the number fields' one rule). */
export function wholeNumber(min: number, max: number): (value: number) => string | undefined {
  return (value) => (Number.isInteger(value) && value >= min && value <= max ? undefined : `Enter a whole number from ${min} to ${max}.`);
}

/** A whole-number field from `min` to `max` bound to `key`. */
export function numberRow(key: string, name: string, desc: string, [min, max]: [number, number], aliases: string[] = []): ControlRow {
  return { name, desc, aliases, control: { type: "number", key, min, max, step: 1, validate: wholeNumber(min, max) } };
}

/** A slider over `[min, max]` in steps of `step` bound to `key`. */
export function sliderRow(key: string, name: string, desc: string, [min, max, step]: [number, number, number], aliases: string[] = []): ControlRow {
  return { name, desc, aliases, control: { type: "slider", key, min, max, step } };
}

/** A toggle bound to `key`. */
export function toggleRow(key: string, name: string, desc: string, aliases: string[] = []): ControlRow {
  return { name, desc, aliases, control: { type: "toggle", key } };
}
